#include "profile/profilereader_p.h"
#include "profile/profileschema.h"

#include "metrics/phrase.h"

#include <QHash>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace kp::detail {

namespace {

QString describeValue(const Json& v)
{
    switch (v.type()) {
    case Json::value_t::null:
        return u"null"_s;
    case Json::value_t::object:
        return phrase("ProfileReader", "an object");
    case Json::value_t::array:
        return phrase("ProfileReader", "a list");
    case Json::value_t::boolean:
        return v.get<bool>() ? u"true"_s : u"false"_s;
    default:
        break;
    }
    QString text = QString::fromStdString(v.dump(-1, ' ', false, Json::error_handler_t::replace));
    if (text.size() > 40)
        text = text.left(37) + u"..."_s;
    return (v.is_string() ? phrase("ProfileReader", "string %1") : phrase("ProfileReader", "number %1")).arg(text);
}

int editDistance(const std::string& a, const std::string& b)
{
    std::vector<int> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = int(j);
    for (size_t i = 1; i <= a.size(); ++i) {
        int diagonal = row[0];
        row[0] = int(i);
        for (size_t j = 1; j <= b.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Collects messages and remembers, for every profile field, which key of the file it was read
// from (or would have been read from), so that validation speaks the file's language.
class ReadContext
{
public:
    ReadContext(const SourceDocument& doc, const QString& fileName)
        : m_doc(doc)
        , m_file(fileName)
    { }

    QString where(const QString& sourcePath, bool atKey) const
    {
        if (atKey) {
            if (const auto it = m_doc.keys.constFind(sourcePath); it != m_doc.keys.constEnd())
                return formatLocation(m_file, *it);
        }
        for (QString p = sourcePath;; p = parentPath(p)) {
            if (const auto it = m_doc.values.constFind(p); it != m_doc.values.constEnd())
                return formatLocation(m_file, *it);
            if (p.isEmpty())
                break;
        }
        return m_file;
    }

    QString format(const QString& sourcePath, const QString& message, bool atKey) const
    {
        return where(sourcePath, atKey) + u": "_s + (sourcePath.isEmpty() ? QString() : sourcePath + u": "_s) + message;
    }

    void error(const QString& sourcePath, const QString& message, bool atKey = false)
    {
        errors.append(format(sourcePath, message, atKey));
    }
    void warning(const QString& sourcePath, const QString& message, bool atKey = false)
    {
        warnings.append(format(sourcePath, message, atKey));
    }

    void bind(const QString& profilePath, const QString& sourcePath, bool present)
    {
        if (present || !m_bound.contains(profilePath))
            m_bound.insert(profilePath, sourcePath);
    }

    QString sourceName(const QString& profilePath) const
    {
        QString suffix;
        for (QString p = profilePath; !p.isEmpty();) {
            if (const auto it = m_bound.constFind(p); it != m_bound.constEnd())
                return *it + suffix;
            const QString parent = parentPath(p);
            suffix = p.mid(parent.size()) + suffix;
            p = parent;
        }
        return profilePath;
    }

    void fail(const QString& profilePath) { m_failed.insert(profilePath); }

    bool hasFailed(const QString& profilePath) const
    {
        const auto within = [](const QString& path, const QString& ancestor) {
            return path.size() > ancestor.size() && path.startsWith(ancestor)
                && (path[ancestor.size()] == u'.' || path[ancestor.size()] == u'[');
        };
        for (const QString& f : m_failed) {
            if (f == profilePath || within(profilePath, f) || within(f, profilePath))
                return true;
        }
        return false;
    }

    QStringList errors;
    QStringList warnings;

private:
    const SourceDocument& m_doc;
    QString m_file;
    QHash<QString, QString> m_bound;
    QSet<QString> m_failed;
};

class ObjectReader
{
public:
    ObjectReader(ReadContext& ctx, const Json& object, const QString& path)
        : m_ctx(ctx)
        , m_object(object)
        , m_path(path)
    { }

    const QString& path() const { return m_path; }
    QString child(const char* key) const { return childPath(m_path, QString::fromLatin1(key)); }
    ReadContext& context() { return m_ctx; }

    bool has(const char* key) const
    {
        const auto it = m_object.find(key);
        return it != m_object.end() && !it->is_null();
    }

    // The value of key, or null when the file does not have it (JSON null counts as absent).
    // Marks key as known and binds profilePath to it.
    const Json* take(const char* key, const QString& profilePath = QString())
    {
        m_known.insert(key);
        const auto it = m_object.find(key);
        const bool present = it != m_object.end() && !it->is_null();
        if (!profilePath.isEmpty())
            m_ctx.bind(profilePath, child(key), present);
        return present ? &*it : nullptr;
    }

    // A key Kneepoint knows but does not use: read, then say so.
    void ignore(const char* key, const QString& reason)
    {
        if (take(key))
            m_ctx.warning(child(key), phrase("ProfileReader", "not used by Kneepoint (%1); ignored").arg(reason), true);
    }

    std::optional<ObjectReader> section(const char* key, const QString& profilePath = QString())
    {
        const Json* v = take(key, profilePath);
        if (!v)
            return std::nullopt;
        if (!v->is_object()) {
            typeError(*v, child(key), profilePath, phrase("ProfileReader", "an object"));
            return std::nullopt;
        }
        return ObjectReader(m_ctx, *v, child(key));
    }

    void typeError(const Json& v, const QString& sourcePath, const QString& profilePath, const QString& expected)
    {
        m_ctx.error(sourcePath, phrase("ProfileReader", "expected %1, got %2").arg(expected, describeValue(v)));
        if (!profilePath.isEmpty())
            m_ctx.fail(profilePath);
    }

    std::optional<QString> toString(const Json& v, const QString& src, const QString& pp)
    {
        if (v.is_string())
            return QString::fromStdString(v.get<std::string>());
        typeError(v, src, pp, phrase("ProfileReader", "a string"));
        return std::nullopt;
    }

    // The key's string; nothing when it is absent, or not a string (said).
    std::optional<QString> takeString(const char* key, const QString& pp)
    {
        const Json* v = take(key, pp);
        if (!v)
            return std::nullopt;
        return toString(*v, child(key), pp);
    }

    // NaN (TOML's nan, a "nan" string) passes no range check by itself: it would read "must be > 0".
    bool notANumber(const QString& text, const QString& src, const QString& pp)
    {
        m_ctx.error(src, phrase("ProfileReader", "%1 is not a number").arg(text));
        m_ctx.fail(pp);
        return false;
    }

    // A JSON number's value; NaN (TOML's nan) is refused.
    std::optional<double> numberValue(const Json& v, const QString& src, const QString& pp)
    {
        const double d = v.get<double>();
        if (std::isnan(d)) {
            notANumber(u"nan"_s, src, pp);
            return std::nullopt;
        }
        return d;
    }

    std::optional<double> toNumber(const Json& v, const QString& src, const QString& pp)
    {
        if (v.is_number()) {
            const std::optional<double> d = numberValue(v, src, pp);
            if (d && std::isinf(*d)) {
                m_ctx.error(src, phrase("ProfileReader", "must be a finite number, got %1").arg(formatRate(*d)));
                m_ctx.fail(pp);
                return std::nullopt;
            }
            return d;
        }
        typeError(v, src, pp, phrase("ProfileReader", "a number"));
        return std::nullopt;
    }

    std::optional<qint64> toInteger(const Json& v, const QString& src, const QString& pp, qint64 min, qint64 max)
    {
        std::optional<qint64> value;
        if (v.is_number_unsigned()) {
            const auto u = v.get<quint64>();
            if (u <= quint64(std::numeric_limits<qint64>::max()))
                value = qint64(u);
        } else if (v.is_number_integer()) {
            value = v.get<qint64>();
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (std::trunc(d) != d) {
                typeError(v, src, pp, phrase("ProfileReader", "an integer"));
                return std::nullopt;
            }
            if (std::abs(d) < 9.0e18)
                value = qint64(d);
        } else {
            typeError(v, src, pp, phrase("ProfileReader", "an integer"));
            return std::nullopt;
        }
        if (!value || *value < min || *value > max) {
            m_ctx.error(src, phrase("ProfileReader", "%1 is out of range").arg(QString::fromStdString(v.dump())));
            m_ctx.fail(pp);
            return std::nullopt;
        }
        return value;
    }

    std::optional<double> toRate(const Json& v, const QString& src, const QString& pp)
    {
        if (v.is_number())
            return numberValue(v, src, pp);
        if (v.is_string()) {
            const QString text = QString::fromStdString(v.get<std::string>()).trimmed();
            const QString unsignedText = text.startsWith(u'-') ? text.mid(1) : text;
            const bool negative = unsignedText.size() != text.size();
            if (unsignedText.compare(u"inf", Qt::CaseInsensitive) == 0
                || unsignedText.compare(u"infinity", Qt::CaseInsensitive) == 0)
                return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
            if (unsignedText.compare(u"nan", Qt::CaseInsensitive) == 0) {
                notANumber(QString::fromStdString(v.dump(-1, ' ', false, Json::error_handler_t::replace)), src, pp);
                return std::nullopt;
            }
            bool ok = false;
            const double d = text.toDouble(&ok);
            if (ok && std::isnan(d)) {
                notANumber(QString::fromStdString(v.dump(-1, ' ', false, Json::error_handler_t::replace)), src, pp);
                return std::nullopt;
            }
            if (ok)
                return d;
        }
        typeError(v, src, pp, u"a number or \"inf\""_s);
        return std::nullopt;
    }

    void read(const char* key, const QString& pp, QString& out)
    {
        if (auto s = takeString(key, pp))
            out = *s;
    }

    void read(const char* key, const QString& pp, double& out)
    {
        if (const Json* v = take(key, pp)) {
            if (auto d = toNumber(*v, child(key), pp))
                out = *d;
        }
    }

    void read(const char* key, const QString& pp, std::optional<double>& out)
    {
        if (m_object.contains(key) && m_object.at(key).is_null())
            out.reset();
        if (const Json* v = take(key, pp)) {
            if (auto d = toNumber(*v, child(key), pp))
                out = *d;
        }
    }

    void read(const char* key, const QString& pp, int& out)
    {
        if (const Json* v = take(key, pp)) {
            if (auto i
                = toInteger(*v, child(key), pp, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()))
                out = int(*i);
        }
    }

    void read(const char* key, const QString& pp, std::optional<int>& out)
    {
        if (m_object.contains(key) && m_object.at(key).is_null())
            out.reset();
        if (const Json* v = take(key, pp)) {
            if (auto i
                = toInteger(*v, child(key), pp, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()))
                out = int(*i);
        }
    }

    void read(const char* key, const QString& pp, qint64& out)
    {
        if (const Json* v = take(key, pp)) {
            if (auto i
                = toInteger(*v, child(key), pp, std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max()))
                out = *i;
        }
    }

    void read(const char* key, const QString& pp, bool& out)
    {
        if (const Json* v = take(key, pp)) {
            if (v->is_boolean())
                out = v->get<bool>();
            else
                typeError(*v, child(key), pp, phrase("ProfileReader", "true or false"));
        }
    }

    void readBackend(const char* key, const QString& pp, Backend& out)
    {
        const std::optional<QString> name = takeString(key, pp);
        if (!name)
            return;
        if (const auto b = backendFromName(*name)) {
            out = *b;
            return;
        }
        // The reference tool's other OpenAI-compatible backends speak one of these two protocols.
        static const QHash<QString, Backend> aliases = {
            { u"openai-completions"_s, Backend::OpenAi },
            { u"sglang"_s, Backend::OpenAi },
            { u"lmdeploy"_s, Backend::OpenAi },
            { u"scalellm"_s, Backend::OpenAi },
            { u"llama.cpp"_s, Backend::OpenAi },
            { u"vllm-chat"_s, Backend::OpenAiChat },
            { u"chat"_s, Backend::OpenAiChat },
        };
        const QString lower = name->toLower();
        if (const auto b = backendFromName(lower)) {
            out = *b;
            return;
        }
        if (const auto it = aliases.constFind(lower); it != aliases.constEnd()) {
            out = *it;
            m_ctx.warning(child(key), u"\"%1\" is read as \"%2\""_s.arg(*name, backendName(*it)));
            return;
        }
        m_ctx.error(child(key),
            u"unknown backend \"%1\"; expected %2 (for TGI or TensorRT-LLM use their OpenAI-compatible "
            "endpoints)"_s.arg(*name, backendNames()));
        m_ctx.fail(pp);
    }

    void readTransport(const char* key, const QString& pp, TransportKind& out)
    {
        const std::optional<QString> name = takeString(key, pp);
        if (!name)
            return;
        if (const auto kind = transportKindFromName(*name)) {
            out = *kind;
            return;
        }
        m_ctx.error(child(key), u"unknown transport \"%1\"; expected auto, socket or qnam"_s.arg(*name));
        m_ctx.fail(pp);
    }

    void readDataset(const char* key, const QString& pp, QString& out)
    {
        if (const auto name = takeString(key, pp))
            out = name->toLower() == u"custom" ? u"jsonl"_s : name->toLower();
    }

    void readMode(const char* key, const QString& pp, std::optional<LoadMode>& out, bool& soak)
    {
        const auto name = takeString(key, pp);
        if (!name)
            return;
        soak = *name == u"soak"; // a soak is one rate step, reported per window
        if (soak) {
            out = LoadMode::Rate;
        } else if (const auto mode = loadModeFromName(*name)) {
            out = mode;
        } else {
            m_ctx.error(child(key), u"expected \"rate\", \"concurrency\" or \"soak\", got \"%1\""_s.arg(*name));
            m_ctx.fail(pp);
        }
    }

    // A list, or one value standing for a list of one.
    template <typename Convert> bool readList(const char* key, const QString& pp, Convert&& convert)
    {
        const Json* v = take(key, pp);
        if (!v)
            return false;
        if (!v->is_array()) {
            m_ctx.bind(indexPath(pp, 0), child(key), true);
            convert(*v, child(key), indexPath(pp, 0), true);
            return true;
        }
        for (size_t i = 0; i < v->size(); ++i)
            convert((*v)[i], indexPath(child(key), qsizetype(i)), indexPath(pp, qsizetype(i)), false);
        return true;
    }

    bool readRates(const char* key, const QString& pp, QList<double>& out)
    {
        QList<double> rates;
        const bool present = readList(key, pp, [&](const Json& e, const QString& src, const QString& epp, bool) {
            rates.append(toRate(e, src, epp).value_or(std::numeric_limits<double>::quiet_NaN()));
        });
        if (present)
            out = rates;
        return present;
    }

    bool readIntList(const char* key, const QString& pp, QList<int>& out)
    {
        QList<int> values;
        const bool present = readList(key, pp, [&](const Json& e, const QString& src, const QString& epp, bool) {
            values.append(int(
                toInteger(e, src, epp, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()).value_or(0)));
        });
        if (present)
            out = values;
        return present;
    }

    // A list of numbers, or the reference's comma-separated string ("25,50,99").
    void readNumberList(const char* key, const QString& pp, QList<double>& out)
    {
        if (const Json* v = take(key, pp); v && v->is_string()) {
            QList<double> values;
            const QString text = QString::fromStdString(v->get<std::string>());
            for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
                bool ok = false;
                values.append(part.trimmed().toDouble(&ok));
                if (!ok) {
                    m_ctx.error(child(key), u"\"%1\" is not a number"_s.arg(part.trimmed()));
                    m_ctx.fail(pp);
                    return;
                }
            }
            out = values;
            return;
        }
        QList<double> values;
        const bool present = readList(key, pp, [&](const Json& e, const QString& src, const QString& epp, bool) {
            values.append(toNumber(e, src, epp).value_or(std::numeric_limits<double>::quiet_NaN()));
        });
        if (present)
            out = values;
    }

    // A list of strings, or a comma-separated string ("ttft,tpot,itl").
    void readStringList(const char* key, const QString& pp, QStringList& out)
    {
        if (const Json* v = take(key, pp); v && v->is_string()) {
            QStringList values;
            for (const QString& part : QString::fromStdString(v->get<std::string>()).split(u',', Qt::SkipEmptyParts))
                values.append(part.trimmed());
            out = values;
            return;
        }
        QStringList values;
        const bool present = readList(key, pp, [&](const Json& e, const QString& src, const QString& epp, bool) {
            values.append(toString(e, src, epp).value_or(QString()));
        });
        if (present)
            out = values;
    }

    void readHeaders(const char* key, const QString& pp, QList<HttpHeader>& out)
    {
        const Json* v = take(key, pp);
        if (!v)
            return;
        if (!v->is_object()) {
            typeError(*v, child(key), pp, phrase("ProfileReader", "an object of header names and values"));
            return;
        }
        QList<HttpHeader> headers;
        for (auto it = v->begin(); it != v->end(); ++it) {
            const QString name = QString::fromStdString(it.key());
            const QString src = childPath(child(key), name);
            if (const auto value = toString(it.value(), src, childPath(pp, name)))
                headers.append({ name, *value });
        }
        out = headers;
    }

    void readStringPairs(const char* key, const QString& pp, QList<std::pair<QString, QString>>& out)
    {
        const Json* v = take(key, pp);
        if (!v)
            return;
        if (!v->is_object()) {
            typeError(*v, child(key), pp, phrase("ProfileReader", "an object"));
            return;
        }
        QList<std::pair<QString, QString>> pairs;
        for (auto it = v->begin(); it != v->end(); ++it) {
            const QString name = QString::fromStdString(it.key());
            if (const auto value = toString(it.value(), childPath(child(key), name), childPath(pp, name)))
                pairs.append({ name, *value });
        }
        out = pairs;
    }

    void readObject(const char* key, const QString& pp, QJsonObject& out)
    {
        const Json* v = take(key, pp);
        if (!v)
            return;
        if (!v->is_object()) {
            typeError(*v, child(key), pp, phrase("ProfileReader", "an object"));
            return;
        }
        const std::string text = v->dump(-1, ' ', false, Json::error_handler_t::replace);
        out = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    }

    void readProxy(const char* key, const QString& pp, Target& target)
    {
        const auto text = takeString(key, pp);
        if (!text)
            return;
        if (text->isEmpty() || text->compare(u"none", Qt::CaseInsensitive) == 0) {
            target.proxyMode = ProxyMode::None;
            target.proxyUrl.clear();
        } else if (text->compare(u"system", Qt::CaseInsensitive) == 0) {
            target.proxyMode = ProxyMode::System;
            target.proxyUrl.clear();
        } else {
            target.proxyMode = ProxyMode::Url;
            target.proxyUrl = *text;
        }
    }

    // The reference's --goodput: "ttft:500 tpot:50", or a list of "metric:ms" strings.
    void readGoodput(const char* key, Slo& slo)
    {
        const Json* v = take(key, u"slo"_s);
        if (!v)
            return;
        const auto apply = [&](const QString& spec, const QString& src) {
            if (const QString error = applyGoodput(spec, slo); !error.isEmpty()) {
                m_ctx.error(src, error);
                m_ctx.fail(u"slo"_s);
            }
        };
        if (v->is_string()) {
            apply(QString::fromStdString(v->get<std::string>()), child(key));
        } else if (v->is_array()) {
            for (size_t i = 0; i < v->size(); ++i) {
                const QString src = indexPath(child(key), qsizetype(i));
                if (const auto s = toString((*v)[i], src, u"slo"_s))
                    apply(*s, src);
            }
        } else {
            typeError(*v, child(key), u"slo"_s, u"a string such as \"ttft:500 tpot:50\" or a list of them"_s);
        }
    }

    // Keys never asked for are reported, once, with a suggestion when one is close.
    void finish()
    {
        for (auto it = m_object.begin(); it != m_object.end(); ++it) {
            if (m_known.count(it.key()))
                continue;
            QString hint;
            int best = 3;
            for (const std::string& known : m_known) {
                const int d = editDistance(it.key(), known);
                if (d < best && d < int(known.size()) / 2 + 1) {
                    best = d;
                    hint = phrase("ProfileReader", " (did you mean \"%1\"?)").arg(QString::fromStdString(known));
                }
            }
            m_ctx.warning(childPath(m_path, QString::fromStdString(it.key())),
                phrase("ProfileReader", "unknown key, ignored") + hint, true);
        }
    }

private:
    ReadContext& m_ctx;
    const Json& m_object;
    QString m_path;
    std::set<std::string> m_known;
};

// ---- Every layout reads the fields of the schema (profileschema.cpp) ----------------------------

// What the keys of load say together: the mode as written, and whether rates or users were given.
struct LoadKeys
{
    std::optional<LoadMode> mode;
    bool rates = false;
    bool concurrencies = false;
};

// Mode: as written, else concurrency when only concurrencies are given, else rate.
void settleMode(ObjectReader& r, Load& l, const LoadKeys& keys)
{
    if (keys.mode) {
        l.mode = *keys.mode;
    } else if (keys.concurrencies && keys.rates) {
        r.context().error(
            r.child("mode"), phrase("ProfileReader", "is required when both rates and concurrencies are given"));
        r.context().fail(u"load.mode"_s);
    } else if (keys.concurrencies) {
        l.mode = LoadMode::Concurrency;
    }
}

const char* leafKey(const ProfileField& f)
{
    const char* dot = std::strrchr(f.key, '.');
    return dot ? dot + 1 : f.key;
}

void readValue(ObjectReader& r, const ProfileField& f, const char* key, Profile& p)
{
    std::visit(
        [&](auto get) {
            if constexpr (!std::is_same_v<decltype(get), std::monostate>)
                r.read(key, f.path(), get(p));
        },
        f.ref);
}

void readPlanKind(ObjectReader& r, const char* key, Plan& p)
{
    const QString pp = u"load.plan.kind"_s;
    if (const Json* v = r.take(key, pp)) {
        if (const auto name = r.toString(*v, r.child(key), pp)) {
            if (const auto kind = planKindFromName(*name)) {
                p.kind = *kind;
            } else {
                r.context().error(
                    r.child(key), u"expected \"list\", \"linear\", \"geometric\" or \"auto\", got \"%1\""_s.arg(*name));
                r.context().fail(pp);
            }
        }
    }
}

void readRepeatScope(ObjectReader& r, const char* key, Plan& p)
{
    const QString pp = u"load.plan.repeat_scope"_s;
    if (const Json* v = r.take(key, pp)) {
        if (const auto name = r.toString(*v, r.child(key), pp)) {
            if (*name == u"best") {
                p.repeatScope = Plan::RepeatScope::Best;
            } else if (*name == u"all") {
                p.repeatScope = Plan::RepeatScope::All;
            } else {
                r.context().error(r.child(key), u"expected \"best\" or \"all\", got \"%1\""_s.arg(*name));
                r.context().fail(pp);
            }
        }
    }
}

// The fields the schema leaves to code of their own, read from key.
void readOwn(ObjectReader& r, const ProfileField& f, const char* key, Profile& p, LoadKeys& load)
{
    const QString pp = f.path();
    const std::string_view k(f.key);
    if (k == "target.backend")
        r.readBackend(key, pp, p.target.backend);
    else if (k == "target.headers")
        r.readHeaders(key, pp, p.target.headers);
    else if (k == "target.proxy")
        r.readProxy(key, pp, p.target);
    else if (k == "target.transport")
        r.readTransport(key, pp, p.target.transport);
    else if (k == "target.metrics_urls")
        r.readStringList(key, pp, p.target.metricsUrls);
    else if (k == "workload.dataset")
        r.readDataset(key, pp, p.workload.dataset);
    else if (k == "workload.length_buckets")
        r.readIntList(key, pp, p.workload.lengthBuckets);
    else if (k == "workload.extra_body")
        r.readObject(key, pp, p.workload.extraBody);
    else if (k == "server_sweep.parameters")
        r.readObject(key, pp, p.serverSweep.parameters);
    else if (k == "load.mode")
        r.readMode(key, pp, load.mode, p.load.soak);
    else if (k == "load.rates")
        load.rates = r.readRates(key, pp, p.load.rates) || load.rates;
    else if (k == "load.concurrencies")
        load.concurrencies = r.readIntList(key, pp, p.load.concurrencies) || load.concurrencies;
    else if (k == "load.plan.kind")
        readPlanKind(r, key, p.load.plan);
    else if (k == "load.plan.repeat_scope")
        readRepeatScope(r, key, p.load.plan);
    else if (k == "output.metadata")
        r.readStringPairs(key, pp, p.output.metadata);
    else if (k == "output.percentile_metrics")
        r.readStringList(key, pp, p.output.percentileMetrics);
    else if (k == "output.metric_percentiles")
        r.readNumberList(key, pp, p.output.metricPercentiles);
    else
        Q_ASSERT_X(false, "readOwn", f.key);
}

void readField(ObjectReader& r, const ProfileField& f, const char* key, Profile& p, LoadKeys& load)
{
    if (f.hasValue())
        readValue(r, f, key, p);
    else
        readOwn(r, f, key, p, load);
}

// One section of Kneepoint's schema ("workload"), its subsections ("workload.sampling") in their place.
void readSection(ObjectReader& r, const QString& section, Profile& p)
{
    LoadKeys load;
    QStringList opened;
    const QString prefix = section + u'.';
    for (const ProfileField& f : profileFields()) {
        const QString fieldSection = f.section();
        if (fieldSection == section) {
            readField(r, f, leafKey(f), p, load);
            if (std::string_view(f.key) == "load.concurrencies")
                settleMode(r, p.load, load);
            continue;
        }
        if (!fieldSection.startsWith(prefix))
            continue;
        const QString child = fieldSection.mid(prefix.size()).section(u'.', 0, 0);
        if (opened.contains(child))
            continue;
        opened << child;
        if (auto s = r.section(child.toLatin1().constData(), prefix + child))
            readSection(*s, prefix + child, p);
    }
    r.finish();
}

// False when the file is written in a schema this build cannot read: nothing else is worth saying.
bool readSchema(ObjectReader& r)
{
    const Json* v = r.take("schema");
    if (!v) {
        r.context().warning(QString(), u"no \"schema\" key; read as %1"_s.arg(profileSchemaId()));
        return true;
    }
    const auto schema = r.toString(*v, r.child("schema"), QString());
    if (!schema)
        return false;
    if (*schema == profileSchemaId())
        return true;
    if (schema->startsWith(u"kneepoint.profile/"))
        r.context().error(r.child("schema"),
            u"unsupported version \"%1\"; this Kneepoint reads \"%2\""_s.arg(*schema, profileSchemaId()));
    else
        r.context().error(
            r.child("schema"), u"unknown schema \"%1\"; expected \"%2\""_s.arg(*schema, profileSchemaId()));
    return false;
}

bool readKneepoint(ObjectReader& r, Profile& p)
{
    if (!readSchema(r))
        return false;
    LoadKeys load;
    QStringList sections;
    for (const ProfileField& f : profileFields()) {
        const QString section = f.section().section(u'.', 0, 0);
        if (section.isEmpty())
            readField(r, f, f.key, p, load);
        else if (!sections.contains(section))
            sections << section;
    }
    for (const QString& section : std::as_const(sections)) {
        if (section == u"target") {
            // An object, or the name of a saved target.
            if (const Json* v = r.take("target", u"target"_s)) {
                if (v->is_string() && !v->get<std::string>().empty()) {
                    p.targetName = QString::fromStdString(v->get<std::string>());
                } else if (v->is_object()) {
                    ObjectReader s(r.context(), *v, r.child("target"));
                    readSection(s, section, p);
                } else {
                    r.typeError(*v, r.child("target"), u"target"_s,
                        phrase("ProfileReader", "an object, or the name of a saved target"));
                }
            }
        } else if (auto s = r.section(section.toLatin1().constData(), section)) {
            readSection(*s, section, p);
        }
    }
    r.finish();
    return true;
}

// ---- The layouts users already keep (reference flag names) ----------------------------------------

struct LegacyExtras
{
    QString model; // vllm_server.model / [engine] model: the model, unless the client side names one
    QString modelPath;
};

// request_rate, request_rates or rates: one of them.
void readLegacyRates(ObjectReader& r, Profile& p, LoadKeys& load)
{
    const bool single = r.readRates("request_rate", u"load.rates"_s, p.load.rates);
    const bool list = r.readRates("request_rates", u"load.rates"_s, p.load.rates);
    const bool plain = r.readRates("rates", u"load.rates"_s, p.load.rates);
    if (int(single) + int(list) + int(plain) > 1) {
        r.context().error(r.child(single && list ? "request_rates" : "rates"),
            phrase("ProfileReader", "give one of request_rate, request_rates or rates"), true);
        r.context().fail(u"load.rates"_s);
    }
    load.rates = single || list || plain;
}

// The schema's fields of one group, under each of their names in the user layouts.
void readLegacyGroup(ObjectReader& r, LegacyGroup group, Profile& p)
{
    LoadKeys load;
    for (const ProfileField& f : profileFields()) {
        if (f.legacy != group)
            continue;
        const std::string_view key(f.key);
        if (key == "load.rates") {
            readLegacyRates(r, p, load);
            continue;
        }
        if (key == "load.concurrencies") {
            for (const char* alias : { "concurrency", "concurrencies" })
                readField(r, f, alias, p, load);
            settleMode(r, p.load, load);
            continue;
        }
        if (f.aliases.isEmpty()) {
            readField(r, f, leafKey(f), p, load);
            continue;
        }
        for (const char* alias : f.aliases)
            readField(r, f, alias, p, load);
    }
    if (group == LegacyGroup::Service)
        r.ignore("tokenizer", phrase("ProfileReader", "token counts come from the server's usage reports"));
}

void readBenchmarkOutputKeys(ObjectReader& r, Profile& p)
{
    readLegacyGroup(r, LegacyGroup::Output, p);
    QString outputFile;
    r.read("output_file", u"output.result_filename"_s, outputFile);
    if (!outputFile.isEmpty()) {
        p.output.resultFilename = outputFile;
        p.output.saveResult = true;
    }
    r.readGoodput("goodput", p.slo);
}

void readEngineKeys(ObjectReader& r, Profile& p, LegacyExtras* extras)
{
    readLegacyGroup(r, LegacyGroup::Server, p);
    if (extras) {
        if (const Json* v = r.take("model"); v && v->is_string()) {
            extras->model = QString::fromStdString(v->get<std::string>());
            extras->modelPath = r.child("model");
        } else if (v) {
            r.typeError(*v, r.child("model"), u"target.model"_s, phrase("ProfileReader", "a string"));
        }
    }
}

void finishLegacy(ReadContext& ctx, Profile& p, const LegacyExtras& extras)
{
    if (p.target.model.isEmpty() && !extras.model.isEmpty()) {
        p.target.model = extras.model;
        ctx.bind(u"target.model"_s, extras.modelPath, true);
    }
    // Configs that launch the server often say where it listens rather than how to reach it.
    if (p.target.baseUrl.isEmpty() && !p.server.host.isEmpty()) {
        const QString host = (p.server.host == u"0.0.0.0" || p.server.host == u"::") ? u"127.0.0.1"_s : p.server.host;
        QUrl url;
        url.setScheme(u"http"_s);
        url.setHost(host);
        url.setPort(p.server.port.value_or(8000));
        p.target.baseUrl = url.toString();
    }
}

// What one table of a user layout holds, read in this order.
enum LegacyPart : unsigned {
    ServicePart = 1u << 0,
    LoadPart = 1u << 1,
    OutputPart = 1u << 2, // the reference's output keys, and goodput
    EnginePart = 1u << 3, // the server's settings and model
    SloPart = 1u << 4, // the SLO keys, and goodput
};

struct LegacyTable
{
    const char* key;
    const char* profilePath; // what a table of the wrong type fails; nullptr: nothing
    unsigned parts;
};

// A layout of tables: the root's keys, then each table's.
void readLegacyTables(ObjectReader& r, Profile& p, std::initializer_list<LegacyTable> tables)
{
    LegacyExtras extras;
    readLegacyGroup(r, LegacyGroup::Root, p);
    for (const LegacyTable& table : tables) {
        auto s = r.section(table.key, table.profilePath ? QString::fromLatin1(table.profilePath) : QString());
        if (!s)
            continue;
        if (table.parts & ServicePart)
            readLegacyGroup(*s, LegacyGroup::Service, p);
        if (table.parts & LoadPart)
            readLegacyGroup(*s, LegacyGroup::Load, p);
        if (table.parts & OutputPart)
            readBenchmarkOutputKeys(*s, p);
        if (table.parts & EnginePart)
            readEngineKeys(*s, p, &extras);
        if (table.parts & SloPart) {
            readLegacyGroup(*s, LegacyGroup::Slo, p);
            s->readGoodput("goodput", p.slo);
        }
        s->finish();
    }
    r.finish();
    finishLegacy(r.context(), p, extras);
}

void readNested(ObjectReader& r, Profile& p)
{
    readLegacyTables(r, p,
        { { "api", nullptr, ServicePart }, { "benchmark", nullptr, ServicePart | LoadPart | OutputPart },
            { "vllm_server", nullptr, EnginePart } });
}

void readFlat(ObjectReader& r, Profile& p)
{
    readLegacyGroup(r, LegacyGroup::Root, p);
    readLegacyGroup(r, LegacyGroup::Service, p);
    readLegacyGroup(r, LegacyGroup::Load, p);
    readBenchmarkOutputKeys(r, p);
    readEngineKeys(r, p, nullptr);
    r.finish();
    finishLegacy(r.context(), p, LegacyExtras());
}

void readTables(ObjectReader& r, Profile& p)
{
    readLegacyTables(r, p,
        { { "service", nullptr, ServicePart }, { "load", nullptr, LoadPart | OutputPart },
            { "engine", nullptr, EnginePart }, { "slo", "slo", SloPart }, { "output", "output", OutputPart } });
}

ProfileLayout detectLayout(const Json& root)
{
    const auto hasAny = [&root](std::initializer_list<const char*> keys) {
        for (const char* k : keys) {
            if (root.contains(k))
                return true;
        }
        return false;
    };
    if (hasAny({ "schema" }))
        return ProfileLayout::Kneepoint;
    if (hasAny({ "api", "benchmark", "vllm_server" }))
        return ProfileLayout::Nested;
    if (hasAny({ "service", "engine" }))
        return ProfileLayout::Tables;
    if (hasAny({ "target", "workload", "server" }))
        return ProfileLayout::Kneepoint;
    if (hasAny({ "base_url", "model_id", "model", "backend", "api_key", "request_rate", "request_rates", "dataset_name",
            "num_prompts", "max_num_seqs", "host" }))
        return ProfileLayout::Flat;
    if (hasAny({ "load", "slo", "output" }))
        return ProfileLayout::Tables;
    return ProfileLayout::Unknown;
}

} // namespace

ReadOutcome readProfile(
    const SourceDocument& doc, const QString& fileName, const TargetStore* targets, const QString& targetName)
{
    ReadOutcome out;
    ReadContext ctx(doc, fileName);
    if (!doc.root.is_object()) {
        ctx.error(QString(), phrase("ProfileReader", "a profile must be an object at the top level"));
        out.errors = ctx.errors;
        return out;
    }
    out.layout = detectLayout(doc.root);
    ObjectReader root(ctx, doc.root, QString());
    switch (out.layout) {
    case ProfileLayout::Kneepoint:
        if (!readKneepoint(root, out.profile)) {
            out.errors = ctx.errors;
            out.warnings = ctx.warnings;
            return out;
        }
        break;
    case ProfileLayout::Nested:
        out.profile.target.backend = Backend::Vllm;
        readNested(root, out.profile);
        break;
    case ProfileLayout::Flat:
        out.profile.target.backend = Backend::Vllm;
        readFlat(root, out.profile);
        break;
    case ProfileLayout::Tables:
        out.profile.target.backend = Backend::Vllm;
        readTables(root, out.profile);
        break;
    case ProfileLayout::Unknown:
        ctx.error(QString(),
            u"not a profile: expected \"schema\": \"%1\", api/benchmark/vllm_server sections, top-level keys such as "
            "base_url and model_id, or service/load/engine tables"_s.arg(profileSchemaId()));
        out.errors = ctx.errors;
        return out;
    }

    if (const QString warning = out.profile.target.plainTextKeyWarning(fileName); !warning.isEmpty())
        ctx.warning(ctx.sourceName(u"target.api_key"_s), warning);

    if (targets) {
        const bool fromFile = targetName.isEmpty();
        if (!fromFile)
            out.profile.targetName = targetName;
        if (!out.profile.targetName.isEmpty()) {
            if (const QString error = resolveTargetReference(out.profile, *targets); !error.isEmpty()) {
                if (fromFile)
                    ctx.error(u"target"_s, error);
                else
                    ctx.errors.append(error);
            }
        }
    }

    const PathNamer namer = [&ctx](const QString& path) { return ctx.sourceName(path); };
    for (const ProfileIssue& issue : detail::validateProfile(out.profile, namer)) {
        if (!ctx.hasFailed(issue.path))
            ctx.error(ctx.sourceName(issue.path), issue.message);
    }
    out.errors = ctx.errors;
    out.warnings = ctx.warnings;
    return out;
}

} // namespace kp::detail
