#include "profile/profilereader_p.h"

#include "metrics/phrase.h"

#include <QHash>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
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

    // NaN (TOML's nan, a "nan" string) passes no range check by itself: it would read "must be > 0".
    bool notANumber(const QString& text, const QString& src, const QString& pp)
    {
        m_ctx.error(src, phrase("ProfileReader", "%1 is not a number").arg(text));
        m_ctx.fail(pp);
        return false;
    }

    std::optional<double> toNumber(const Json& v, const QString& src, const QString& pp)
    {
        if (v.is_number()) {
            const double d = v.get<double>();
            if (std::isnan(d)) {
                notANumber(u"nan"_s, src, pp);
                return std::nullopt;
            }
            if (std::isinf(d)) {
                m_ctx.error(src, phrase("ProfileReader", "must be a finite number, got %1").arg(formatRate(d)));
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
        if (v.is_number()) {
            const double d = v.get<double>();
            if (std::isnan(d)) {
                notANumber(u"nan"_s, src, pp);
                return std::nullopt;
            }
            return d;
        }
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
        if (const Json* v = take(key, pp)) {
            if (auto s = toString(*v, child(key), pp))
                out = *s;
        }
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
        const Json* v = take(key, pp);
        if (!v)
            return;
        const std::optional<QString> name = toString(*v, child(key), pp);
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
        const Json* v = take(key, pp);
        if (!v)
            return;
        const std::optional<QString> name = toString(*v, child(key), pp);
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
        const Json* v = take(key, pp);
        if (!v)
            return;
        if (const auto name = toString(*v, child(key), pp))
            out = name->toLower() == u"custom" ? u"jsonl"_s : name->toLower();
    }

    void readMode(const char* key, const QString& pp, std::optional<LoadMode>& out)
    {
        const Json* v = take(key, pp);
        if (!v)
            return;
        const auto name = toString(*v, child(key), pp);
        if (!name)
            return;
        if (const auto mode = loadModeFromName(*name)) {
            out = mode;
        } else {
            m_ctx.error(child(key), u"expected \"rate\" or \"concurrency\", got \"%1\""_s.arg(*name));
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
        const Json* v = take(key, pp);
        if (!v)
            return;
        const auto text = toString(*v, child(key), pp);
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

// ---- Kneepoint's own schema ----------------------------------------------------------------------

void readTarget(ObjectReader& r, Target& t)
{
    r.read("base_url", u"target.base_url"_s, t.baseUrl);
    r.read("endpoint", u"target.endpoint"_s, t.endpoint);
    r.readBackend("backend", u"target.backend"_s, t.backend);
    r.read("model", u"target.model"_s, t.model);
    r.read("served_model_name", u"target.served_model_name"_s, t.servedModelName);
    r.read("api_key", u"target.api_key"_s, t.apiKey);
    r.readHeaders("headers", u"target.headers"_s, t.headers);
    if (auto s = r.section("timeouts", u"target.timeouts"_s)) {
        s->read("connect_s", u"target.timeouts.connect_s"_s, t.timeouts.connectS);
        s->read("first_token_s", u"target.timeouts.first_token_s"_s, t.timeouts.firstTokenS);
        s->read("idle_s", u"target.timeouts.idle_s"_s, t.timeouts.idleS);
        s->read("total_s", u"target.timeouts.total_s"_s, t.timeouts.totalS);
        s->finish();
    }
    r.read("tls_verify", u"target.tls_verify"_s, t.tlsVerify);
    r.readProxy("proxy", u"target.proxy"_s, t);
    r.readTransport("transport", u"target.transport"_s, t.transport);
    r.read("metrics_url", u"target.metrics_url"_s, t.metricsUrl);
    r.readStringList("metrics_urls", u"target.metrics_urls"_s, t.metricsUrls);
    r.read("metrics_interval_s", u"target.metrics_interval_s"_s, t.metricsIntervalS);
    r.finish();
}

void readSampling(ObjectReader& r, Sampling& s)
{
    r.read("temperature", u"workload.sampling.temperature"_s, s.temperature);
    r.read("top_p", u"workload.sampling.top_p"_s, s.topP);
    r.read("top_k", u"workload.sampling.top_k"_s, s.topK);
    r.read("min_p", u"workload.sampling.min_p"_s, s.minP);
    r.read("presence_penalty", u"workload.sampling.presence_penalty"_s, s.presencePenalty);
    r.read("frequency_penalty", u"workload.sampling.frequency_penalty"_s, s.frequencyPenalty);
    r.read("repetition_penalty", u"workload.sampling.repetition_penalty"_s, s.repetitionPenalty);
    r.finish();
}

void readWorkload(ObjectReader& r, Workload& w)
{
    r.readDataset("dataset", u"workload.dataset"_s, w.dataset);
    r.read("dataset_path", u"workload.dataset_path"_s, w.datasetPath);
    r.read("num_prompts", u"workload.num_prompts"_s, w.numPrompts);
    r.read("prompt_pool", u"workload.prompt_pool"_s, w.promptPool);
    r.read("seed", u"workload.seed"_s, w.seed);
    r.read("input_len", u"workload.input_len"_s, w.inputLen);
    r.read("output_len", u"workload.output_len"_s, w.outputLen);
    r.read("range_ratio", u"workload.range_ratio"_s, w.rangeRatio);
    r.read("input_len_dist", u"workload.input_len_dist"_s, w.inputLenDist);
    r.read("input_len_std", u"workload.input_len_std"_s, w.inputLenStd);
    r.read("output_len_dist", u"workload.output_len_dist"_s, w.outputLenDist);
    r.read("output_len_std", u"workload.output_len_std"_s, w.outputLenStd);
    r.read("prefix_len", u"workload.prefix_len"_s, w.prefixLen);
    r.read("fixed_output_len", u"workload.fixed_output_len"_s, w.fixedOutputLen);
    r.read("filter_lengths", u"workload.filter_lengths"_s, w.filterLengths);
    r.read("min_len", u"workload.min_len"_s, w.minLen);
    r.read("max_prompt_len", u"workload.max_prompt_len"_s, w.maxPromptLen);
    r.read("max_total_len", u"workload.max_total_len"_s, w.maxTotalLen);
    r.read("bad_lines", u"workload.bad_lines"_s, w.badLines);
    r.read("replay_speed", u"workload.replay_speed"_s, w.replaySpeed);
    r.read("num_prefixes", u"workload.num_prefixes"_s, w.numPrefixes);
    r.read("suffixes_per_prefix", u"workload.suffixes_per_prefix"_s, w.suffixesPerPrefix);
    r.read("multi_turn", u"workload.multi_turn"_s, w.multiTurn);
    r.read("multi_turn_history", u"workload.multi_turn_history"_s, w.multiTurnHistory);
    r.read("think_time_s", u"workload.think_time_s"_s, w.thinkTimeS);
    r.read("turns", u"workload.turns"_s, w.turns);
    r.read("system_prompt_len", u"workload.system_prompt_len"_s, w.systemPromptLen);
    r.read("max_model_len", u"workload.max_model_len"_s, w.maxModelLen);
    r.readIntList("length_buckets", u"workload.length_buckets"_s, w.lengthBuckets);
    r.read("ignore_eos", u"workload.ignore_eos"_s, w.ignoreEos);
    r.read("stream", u"workload.stream"_s, w.stream);
    r.read("embedding_batch", u"workload.embedding_batch"_s, w.embeddingBatch);
    r.read("model_mix", u"workload.model_mix"_s, w.modelMix);
    r.read("image_count", u"workload.image_count"_s, w.imageCount);
    r.read("image_size", u"workload.image_size"_s, w.imageSize);
    r.read("image_format", u"workload.image_format"_s, w.imageFormat);
    r.read("image_dir", u"workload.image_dir"_s, w.imageDir);
    if (auto s = r.section("sampling", u"workload.sampling"_s))
        readSampling(*s, w.sampling);
    r.readObject("extra_body", u"workload.extra_body"_s, w.extraBody);
    r.finish();
}

// Mode: as written, else concurrency when only concurrencies are given, else rate.
void settleMode(ObjectReader& r, Load& l, std::optional<LoadMode> mode, bool hasRates, bool hasConcurrencies)
{
    if (mode) {
        l.mode = *mode;
    } else if (hasConcurrencies && hasRates) {
        r.context().error(
            r.child("mode"), phrase("ProfileReader", "is required when both rates and concurrencies are given"));
        r.context().fail(u"load.mode"_s);
    } else if (hasConcurrencies) {
        l.mode = LoadMode::Concurrency;
    }
}

void readPlan(ObjectReader& r, Plan& p)
{
    if (const Json* v = r.take("kind", u"load.plan.kind"_s)) {
        if (const auto name = r.toString(*v, r.child("kind"), u"load.plan.kind"_s)) {
            if (const auto kind = planKindFromName(*name)) {
                p.kind = *kind;
            } else {
                r.context().error(r.child("kind"),
                    u"expected \"list\", \"linear\", \"geometric\" or \"auto\", got \"%1\""_s.arg(*name));
                r.context().fail(u"load.plan.kind"_s);
            }
        }
    }
    r.read("start", u"load.plan.start"_s, p.start);
    r.read("stop", u"load.plan.stop"_s, p.stop);
    r.read("steps", u"load.plan.steps"_s, p.steps);
    r.read("refine", u"load.plan.refine"_s, p.refine);
    r.read("tolerance", u"load.plan.tolerance"_s, p.tolerance);
    r.read("max_refine_steps", u"load.plan.max_refine_steps"_s, p.maxRefineSteps);
    r.read("repeats", u"load.plan.repeats"_s, p.repeats);
    if (const Json* v = r.take("repeat_scope", u"load.plan.repeat_scope"_s)) {
        if (const auto name = r.toString(*v, r.child("repeat_scope"), u"load.plan.repeat_scope"_s)) {
            if (*name == u"best") {
                p.repeatScope = Plan::RepeatScope::Best;
            } else if (*name == u"all") {
                p.repeatScope = Plan::RepeatScope::All;
            } else {
                r.context().error(r.child("repeat_scope"), u"expected \"best\" or \"all\", got \"%1\""_s.arg(*name));
                r.context().fail(u"load.plan.repeat_scope"_s);
            }
        }
    }
    r.read("early_stop", u"load.plan.early_stop"_s, p.earlyStop);
    r.read("stop_error_rate", u"load.plan.stop_error_rate"_s, p.stopErrorRate);
    r.finish();
}

void readLoad(ObjectReader& r, Load& l)
{
    std::optional<LoadMode> mode;
    r.readMode("mode", u"load.mode"_s, mode);
    const bool hasRates = r.readRates("rates", u"load.rates"_s, l.rates);
    const bool hasConcurrencies = r.readIntList("concurrencies", u"load.concurrencies"_s, l.concurrencies);
    settleMode(r, l, mode, hasRates, hasConcurrencies);
    r.read("burstiness", u"load.burstiness"_s, l.burstiness);
    r.read("max_concurrency", u"load.max_concurrency"_s, l.maxConcurrency);
    r.read("ramp_up_s", u"load.ramp_up_s"_s, l.rampUpS);
    r.read("warmup_requests", u"load.warmup_requests"_s, l.warmupRequests);
    r.read("cooldown_s", u"load.cooldown_s"_s, l.cooldownS);
    r.read("reset_cache_between_steps", u"load.reset_cache_between_steps"_s, l.resetCacheBetweenSteps);
    r.read("step_duration_s", u"load.step_duration_s"_s, l.stepDurationS);
    if (auto s = r.section("plan", u"load.plan"_s))
        readPlan(*s, l.plan);
    r.finish();
}

void readSloKeys(ObjectReader& r, Slo& s)
{
    r.read("ttft_ms", u"slo.ttft_ms"_s, s.ttftMs);
    r.read("tpot_ms", u"slo.tpot_ms"_s, s.tpotMs);
    r.read("e2el_ms", u"slo.e2el_ms"_s, s.e2elMs);
    r.read("ttfc_ms", u"slo.ttfc_ms"_s, s.ttfcMs);
    r.read("percentile", u"slo.percentile"_s, s.percentile);
    r.read("ttft_percentile", u"slo.ttft_percentile"_s, s.ttftPercentile);
    r.read("tpot_percentile", u"slo.tpot_percentile"_s, s.tpotPercentile);
    r.read("e2el_percentile", u"slo.e2el_percentile"_s, s.e2elPercentile);
    r.read("ttfc_percentile", u"slo.ttfc_percentile"_s, s.ttfcPercentile);
    r.read("max_error_rate", u"slo.max_error_rate"_s, s.maxErrorRate);
}

void readServerKeys(ObjectReader& r, ServerInfo& s)
{
    r.read("engine", u"server.engine"_s, s.engine);
    r.read("engine_version", u"server.engine_version"_s, s.engineVersion);
    r.read("host", u"server.host"_s, s.host);
    r.read("port", u"server.port"_s, s.port);
    r.read("max_num_seqs", u"server.max_num_seqs"_s, s.maxNumSeqs);
    r.read("max_num_batched_tokens", u"server.max_num_batched_tokens"_s, s.maxNumBatchedTokens);
    r.read("max_model_len", u"server.max_model_len"_s, s.maxModelLen);
    r.read("gpu_memory_utilization", u"server.gpu_memory_utilization"_s, s.gpuMemoryUtilization);
    r.read("tensor_parallel_size", u"server.tensor_parallel_size"_s, s.tensorParallelSize);
    r.read("pipeline_parallel_size", u"server.pipeline_parallel_size"_s, s.pipelineParallelSize);
    r.read("hardware", u"server.hardware"_s, s.hardware);
    r.read("accelerator", u"server.accelerator"_s, s.accelerator);
    r.read("accelerator_count", u"server.accelerator_count"_s, s.acceleratorCount);
    r.read("driver_version", u"server.driver_version"_s, s.driverVersion);
    r.read("runtime_version", u"server.runtime_version"_s, s.runtimeVersion);
    r.read("precision", u"server.precision"_s, s.precision);
    r.read("notes", u"server.notes"_s, s.notes);
}

void readOutputKeys(ObjectReader& r, Output& o)
{
    r.read("save_result", u"output.save_result"_s, o.saveResult);
    r.read("save_detailed", u"output.save_detailed"_s, o.saveDetailed);
    r.read("result_dir", u"output.result_dir"_s, o.resultDir);
    r.read("result_filename", u"output.result_filename"_s, o.resultFilename);
    r.read("label", u"output.label"_s, o.label);
    r.readStringPairs("metadata", u"output.metadata"_s, o.metadata);
    r.readStringList("percentile_metrics", u"output.percentile_metrics"_s, o.percentileMetrics);
    r.readNumberList("metric_percentiles", u"output.metric_percentiles"_s, o.metricPercentiles);
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
    r.read("name", u"name"_s, p.name);
    r.read("description", u"description"_s, p.description);
    if (const Json* v = r.take("target", u"target"_s)) {
        if (v->is_string() && !v->get<std::string>().empty()) {
            p.targetName = QString::fromStdString(v->get<std::string>());
        } else if (v->is_object()) {
            ObjectReader s(r.context(), *v, r.child("target"));
            readTarget(s, p.target);
        } else {
            r.typeError(*v, r.child("target"), u"target"_s,
                phrase("ProfileReader", "an object, or the name of a saved target"));
        }
    }
    if (auto s = r.section("workload", u"workload"_s))
        readWorkload(*s, p.workload);
    if (auto s = r.section("load", u"load"_s))
        readLoad(*s, p.load);
    if (auto s = r.section("slo", u"slo"_s)) {
        readSloKeys(*s, p.slo);
        s->finish();
    }
    if (auto s = r.section("server", u"server"_s)) {
        readServerKeys(*s, p.server);
        s->finish();
    }
    if (auto s = r.section("output", u"output"_s)) {
        readOutputKeys(*s, p.output);
        s->finish();
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

void readServiceKeys(ObjectReader& r, Target& t)
{
    r.read("base_url", u"target.base_url"_s, t.baseUrl);
    r.read("endpoint", u"target.endpoint"_s, t.endpoint);
    r.readBackend("backend", u"target.backend"_s, t.backend);
    r.read("model_id", u"target.model"_s, t.model);
    r.read("model", u"target.model"_s, t.model);
    r.read("served_model_name", u"target.served_model_name"_s, t.servedModelName);
    r.read("api_key", u"target.api_key"_s, t.apiKey);
    r.read("timeout", u"target.timeouts.total_s"_s, t.timeouts.totalS);
    r.read("connect_timeout", u"target.timeouts.connect_s"_s, t.timeouts.connectS);
    r.read("first_token_timeout", u"target.timeouts.first_token_s"_s, t.timeouts.firstTokenS);
    r.read("idle_timeout", u"target.timeouts.idle_s"_s, t.timeouts.idleS);
    r.readHeaders("headers", u"target.headers"_s, t.headers);
    r.read("tls_verify", u"target.tls_verify"_s, t.tlsVerify);
    r.read("verify_ssl", u"target.tls_verify"_s, t.tlsVerify);
    r.readProxy("proxy", u"target.proxy"_s, t);
    r.ignore("tokenizer", phrase("ProfileReader", "token counts come from the server's usage reports"));
}

void readLoadKeys(ObjectReader& r, Profile& p)
{
    Workload& w = p.workload;
    r.readDataset("dataset_name", u"workload.dataset"_s, w.dataset);
    r.readDataset("dataset", u"workload.dataset"_s, w.dataset);
    r.read("dataset_path", u"workload.dataset_path"_s, w.datasetPath);
    r.read("num_prompts", u"workload.num_prompts"_s, w.numPrompts);
    r.read("seed", u"workload.seed"_s, w.seed);
    r.read("random_input_len", u"workload.input_len"_s, w.inputLen);
    r.read("input_len", u"workload.input_len"_s, w.inputLen);
    r.read("random_output_len", u"workload.output_len"_s, w.outputLen);
    r.read("output_len", u"workload.output_len"_s, w.outputLen);
    r.read("random_range_ratio", u"workload.range_ratio"_s, w.rangeRatio);
    r.read("range_ratio", u"workload.range_ratio"_s, w.rangeRatio);
    r.read("input_len_dist", u"workload.input_len_dist"_s, w.inputLenDist);
    r.read("input_len_std", u"workload.input_len_std"_s, w.inputLenStd);
    r.read("output_len_dist", u"workload.output_len_dist"_s, w.outputLenDist);
    r.read("output_len_std", u"workload.output_len_std"_s, w.outputLenStd);
    r.read("model_mix", u"workload.model_mix"_s, w.modelMix);
    r.read("image_count", u"workload.image_count"_s, w.imageCount);
    r.read("image_size", u"workload.image_size"_s, w.imageSize);
    r.read("image_format", u"workload.image_format"_s, w.imageFormat);
    r.read("image_dir", u"workload.image_dir"_s, w.imageDir);
    r.read("random_prefix_len", u"workload.prefix_len"_s, w.prefixLen);
    r.read("prefix_len", u"workload.prefix_len"_s, w.prefixLen);
    r.read("sharegpt_output_len", u"workload.fixed_output_len"_s, w.fixedOutputLen);
    r.read("custom_output_len", u"workload.fixed_output_len"_s, w.fixedOutputLen);
    r.read("fixed_output_len", u"workload.fixed_output_len"_s, w.fixedOutputLen);
    r.read("multi_turn", u"workload.multi_turn"_s, w.multiTurn);
    r.read("multi_turn_history", u"workload.multi_turn_history"_s, w.multiTurnHistory);
    r.read("think_time", u"workload.think_time_s"_s, w.thinkTimeS);
    r.read("think_time_s", u"workload.think_time_s"_s, w.thinkTimeS);
    r.read("turns", u"workload.turns"_s, w.turns);
    r.read("system_prompt_len", u"workload.system_prompt_len"_s, w.systemPromptLen);
    r.read("ignore_eos", u"workload.ignore_eos"_s, w.ignoreEos);
    r.read("stream", u"workload.stream"_s, w.stream);
    r.read("embedding_batch", u"workload.embedding_batch"_s, w.embeddingBatch);
    r.read("temperature", u"workload.sampling.temperature"_s, w.sampling.temperature);
    r.read("top_p", u"workload.sampling.top_p"_s, w.sampling.topP);
    r.read("top_k", u"workload.sampling.top_k"_s, w.sampling.topK);
    r.read("min_p", u"workload.sampling.min_p"_s, w.sampling.minP);
    r.readObject("extra_body", u"workload.extra_body"_s, w.extraBody);

    Load& l = p.load;
    std::optional<LoadMode> mode;
    r.readMode("mode", u"load.mode"_s, mode);
    const bool single = r.readRates("request_rate", u"load.rates"_s, l.rates);
    const bool list = r.readRates("request_rates", u"load.rates"_s, l.rates);
    const bool plain = r.readRates("rates", u"load.rates"_s, l.rates);
    if (int(single) + int(list) + int(plain) > 1) {
        r.context().error(r.child(single && list ? "request_rates" : "rates"),
            phrase("ProfileReader", "give one of request_rate, request_rates or rates"), true);
        r.context().fail(u"load.rates"_s);
    }
    bool concurrencies = r.readIntList("concurrency", u"load.concurrencies"_s, l.concurrencies);
    concurrencies = r.readIntList("concurrencies", u"load.concurrencies"_s, l.concurrencies) || concurrencies;
    settleMode(r, l, mode, single || list || plain, concurrencies);
    r.read("burstiness", u"load.burstiness"_s, l.burstiness);
    r.read("max_concurrency", u"load.max_concurrency"_s, l.maxConcurrency);
    r.read("ramp_up_s", u"load.ramp_up_s"_s, l.rampUpS);
    r.read("warmup_requests", u"load.warmup_requests"_s, l.warmupRequests);
    r.read("num_warmups", u"load.warmup_requests"_s, l.warmupRequests);
    r.read("cooldown_s", u"load.cooldown_s"_s, l.cooldownS);
    r.read("step_duration_s", u"load.step_duration_s"_s, l.stepDurationS);
}

void readBenchmarkOutputKeys(ObjectReader& r, Profile& p)
{
    readOutputKeys(r, p.output);
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
    readServerKeys(r, p.server);
    r.read("version", u"server.engine_version"_s, p.server.engineVersion);
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

void readNested(ObjectReader& r, Profile& p)
{
    LegacyExtras extras;
    r.read("name", u"name"_s, p.name);
    r.read("description", u"description"_s, p.description);
    if (auto s = r.section("api")) {
        readServiceKeys(*s, p.target);
        s->finish();
    }
    if (auto s = r.section("benchmark")) {
        readServiceKeys(*s, p.target);
        readLoadKeys(*s, p);
        readBenchmarkOutputKeys(*s, p);
        s->finish();
    }
    if (auto s = r.section("vllm_server")) {
        readEngineKeys(*s, p, &extras);
        s->finish();
    }
    r.finish();
    finishLegacy(r.context(), p, extras);
}

void readFlat(ObjectReader& r, Profile& p)
{
    r.read("name", u"name"_s, p.name);
    r.read("description", u"description"_s, p.description);
    readServiceKeys(r, p.target);
    readLoadKeys(r, p);
    readBenchmarkOutputKeys(r, p);
    readEngineKeys(r, p, nullptr);
    r.finish();
    finishLegacy(r.context(), p, LegacyExtras());
}

void readTables(ObjectReader& r, Profile& p)
{
    LegacyExtras extras;
    r.read("name", u"name"_s, p.name);
    r.read("description", u"description"_s, p.description);
    if (auto s = r.section("service")) {
        readServiceKeys(*s, p.target);
        s->finish();
    }
    if (auto s = r.section("load")) {
        readLoadKeys(*s, p);
        readBenchmarkOutputKeys(*s, p);
        s->finish();
    }
    if (auto s = r.section("engine")) {
        readEngineKeys(*s, p, &extras);
        s->finish();
    }
    if (auto s = r.section("slo", u"slo"_s)) {
        readSloKeys(*s, p.slo);
        s->readGoodput("goodput", p.slo);
        s->finish();
    }
    if (auto s = r.section("output", u"output"_s)) {
        readBenchmarkOutputKeys(*s, p);
        s->finish();
    }
    r.finish();
    finishLegacy(r.context(), p, extras);
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
