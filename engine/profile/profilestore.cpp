#include "profile/profilestore.h"

#include "metrics/boundedread.h"
#include "metrics/filewrite.h"
#include "metrics/phrase.h"
#include "profile/profile_p.h"
#include "profile/profilereader_p.h"
#include "profile/profileschema.h"
#include "profile/sourcedocument_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <iterator>

#include <algorithm>
#include <cmath>
#include <string_view>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

using detail::Json;

// Larger files are not profiles; refusing them keeps a wrong path from eating memory.

ProfileFormat detectFormat(const QByteArray& data, const QString& name)
{
    const QString suffix = QFileInfo(name).suffix().toLower();
    qsizetype i = data.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    while (i < data.size()) {
        const char c = data[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            ++i;
        } else if (data.mid(i, 2) == "//") {
            i = data.indexOf('\n', i);
            if (i < 0)
                break;
        } else if (data.mid(i, 2) == "/*") {
            i = data.indexOf("*/", i + 2);
            if (i < 0)
                break;
            i += 2;
        } else {
            if (c == '{')
                return ProfileFormat::Json;
            break;
        }
    }
    if (suffix == u"toml")
        return ProfileFormat::Toml;
    if (suffix == u"json")
        return ProfileFormat::Json;
    // Anything else that does not open with '{' can only be TOML ("[service]", "key = value", "#").
    return (i < data.size()) ? ProfileFormat::Toml : ProfileFormat::Json;
}

// Integral values are written without a fraction ("rates": [1, 2.5]), as people write them.
Json number(double v)
{
    if (std::isfinite(v) && std::trunc(v) == v && std::abs(v) < 9.0e15)
        return Json(qint64(v));
    return Json(v);
}

Json rateValue(double rate)
{
    if (std::isinf(rate))
        return Json(formatRate(rate).toStdString());
    return number(rate);
}

std::string str(const QString& s)
{
    return s.toStdString();
}

std::string dumpScalar(const Json& v)
{
    return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Like dump(2), except that lists of plain values stay on one line ("rates": [1, 2, 4, "inf"]),
// which keeps a sweep readable and diffable.
void writePretty(const Json& v, std::string& out, int indent)
{
    const std::string pad(size_t(indent) + 2, ' ');
    if (v.is_object()) {
        if (v.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += pad + dumpScalar(Json(it.key())) + ": ";
            writePretty(it.value(), out, indent + 2);
            out += std::next(it) == v.end() ? "\n" : ",\n";
        }
        out += std::string(size_t(indent), ' ') + '}';
    } else if (v.is_array()) {
        const bool flat = std::none_of(v.begin(), v.end(), [](const Json& e) { return e.is_structured(); });
        if (flat) {
            out += '[';
            for (auto it = v.begin(); it != v.end(); ++it)
                out += (it == v.begin() ? "" : ", ") + dumpScalar(*it);
            out += ']';
            return;
        }
        out += "[\n";
        for (auto it = v.begin(); it != v.end(); ++it) {
            out += pad;
            writePretty(*it, out, indent + 2);
            out += std::next(it) == v.end() ? "\n" : ",\n";
        }
        out += std::string(size_t(indent), ' ') + ']';
    } else {
        out += dumpScalar(v);
    }
}

// The object at a section's path ("workload.sampling"), made where it is missing.
Json& sectionObject(Json& root, const QString& section)
{
    Json* object = &root;
    if (section.isEmpty())
        return *object;
    for (const QString& part : section.split(u'.')) {
        Json& child = (*object)[str(part)];
        if (!child.is_object())
            child = Json::object();
        object = &child;
    }
    return *object;
}

Json valueOf(const Profile& p, const ProfileField& f)
{
    return std::visit(
        [&](auto get) -> Json {
            using R = decltype(get);
            Profile& profile = const_cast<Profile&>(p);
            if constexpr (std::is_same_v<R, std::monostate>) {
                return Json();
            } else if constexpr (std::is_same_v<R, TextRef>) {
                return str(get(profile));
            } else if constexpr (std::is_same_v<R, NumberRef>) {
                return number(get(profile));
            } else if constexpr (std::is_same_v<R, OptionalNumberRef>) {
                return get(profile) ? number(*get(profile)) : Json();
            } else if constexpr (std::is_same_v<R, OptionalIntegerRef>) {
                return get(profile) ? Json(*get(profile)) : Json();
            } else {
                return Json(get(profile));
            }
        },
        f.ref);
}

// The fields the schema leaves to code of their own; null: not written.
Json ownValue(const Profile& p, const ProfileField& f)
{
    const std::string_view k(f.key);
    const Target& t = p.target;
    if (k == "target.backend")
        return str(backendName(t.backend));
    if (k == "target.headers") {
        Json headers = Json::object();
        for (const HttpHeader& h : t.headers)
            headers[str(h.name)] = str(h.value);
        return headers;
    }
    if (k == "target.proxy")
        return t.proxyMode == ProxyMode::None ? "none" : t.proxyMode == ProxyMode::System ? "system" : str(t.proxyUrl);
    if (k == "target.transport")
        return t.transport != TransportKind::Auto ? Json(str(transportKindName(t.transport))) : Json();
    if (k == "target.metrics_urls" || k == "output.percentile_metrics") {
        const QStringList& list = k == "target.metrics_urls" ? t.metricsUrls : p.output.percentileMetrics;
        if (k == "target.metrics_urls" && list.isEmpty())
            return {};
        Json out = Json::array();
        for (const QString& item : list)
            out.push_back(str(item));
        return out;
    }
    if (k == "workload.dataset")
        return str(p.workload.dataset);
    if (k == "workload.length_buckets" || k == "load.concurrencies") {
        const QList<int>& list = k == "load.concurrencies" ? p.load.concurrencies : p.workload.lengthBuckets;
        if (k == "workload.length_buckets" && list == Workload {}.lengthBuckets)
            return {};
        Json out = Json::array();
        for (int v : list)
            out.push_back(v);
        return out;
    }
    if (k == "workload.extra_body")
        return Json::parse(QJsonDocument(p.workload.extraBody).toJson(QJsonDocument::Compact).toStdString());
    if (k == "server_sweep.parameters") {
        if (p.serverSweep.parameters.isEmpty())
            return {};
        return Json::parse(QJsonDocument(p.serverSweep.parameters).toJson(QJsonDocument::Compact).toStdString());
    }
    if (k == "load.mode")
        return str(p.load.soak ? u"soak"_s : loadModeName(p.load.mode));
    if (k == "load.rates") {
        Json rates = Json::array();
        for (double r : p.load.rates)
            rates.push_back(rateValue(r));
        return rates;
    }
    if (k == "load.plan.kind")
        return str(planKindName(p.load.plan.kind));
    if (k == "load.plan.repeat_scope") // the default, best, is what files without the key mean
        return p.load.plan.repeatScope == Plan::RepeatScope::All ? Json("all") : Json();
    if (k == "output.metadata") {
        if (p.output.metadata.isEmpty())
            return {};
        Json metadata = Json::object();
        for (const auto& [key, value] : p.output.metadata)
            metadata[str(key)] = str(value);
        return metadata;
    }
    if (k == "output.metric_percentiles") {
        Json percentiles = Json::array();
        for (double v : p.output.metricPercentiles)
            percentiles.push_back(number(v));
        return percentiles;
    }
    Q_ASSERT_X(false, "ownValue", f.key);
    return {};
}

Json toDocument(const Profile& p)
{
    Json root = Json::object();
    root["schema"] = str(profileSchemaId());
    for (const ProfileField& f : profileFields()) {
        // A section is written where its first field is.
        Json& section = sectionObject(root, f.section());
        if (f.write == WritePolicy::WhenApplies && !f.appliesTo(p))
            continue;
        if (f.hasValue() && f.write == WritePolicy::UnlessDefault && f.isDefault(p))
            continue;
        Json value = f.hasValue() ? valueOf(p, f) : ownValue(p, f);
        if (!value.is_null())
            section[str(f.name())] = std::move(value);
    }
    // A section none of whose fields is written (a profile without a server sweep) is left out.
    for (auto it = root.begin(); it != root.end();)
        it = it->is_object() && it->empty() ? root.erase(it) : std::next(it);
    if (!p.targetName.isEmpty())
        root["target"] = str(p.targetName); // a reference stays one: editing the saved target updates this profile
    return root;
}

} // namespace

QString profileLayoutName(ProfileLayout layout)
{
    switch (layout) {
    case ProfileLayout::Unknown:
        return u"unknown"_s;
    case ProfileLayout::Kneepoint:
        return u"kneepoint"_s;
    case ProfileLayout::Nested:
        return u"nested"_s;
    case ProfileLayout::Flat:
        return u"flat"_s;
    case ProfileLayout::Tables:
        return u"tables"_s;
    }
    Q_UNREACHABLE();
}

namespace {

ProfileLoadResult loadData(const QByteArray& data, const QString& sourceName, ProfileFormat format,
    const TargetStore* targets, const QString& targetName)
{
    ProfileLoadResult result;
    result.format = format == ProfileFormat::Auto ? detectFormat(data, sourceName) : format;
    const detail::SourceDocument doc = result.format == ProfileFormat::Toml ? detail::parseTomlSource(data, sourceName)
                                                                            : detail::parseJsonSource(data, sourceName);
    result.warnings = doc.warnings;
    if (!doc.isValid()) {
        result.errors = doc.errors;
        qCDebug(lcProfile) << "cannot parse" << sourceName << result.errors;
        return result;
    }
    detail::ReadOutcome outcome = detail::readProfile(doc, sourceName, targets, targetName);
    result.layout = outcome.layout;
    result.errors = outcome.errors;
    result.warnings += outcome.warnings;
    if (result.errors.isEmpty())
        result.profile = std::move(outcome.profile);
    qCDebug(lcProfile) << "read" << sourceName << "layout" << profileLayoutName(result.layout) << "errors"
                       << result.errors.size() << "warnings" << result.warnings.size();
    return result;
}

ProfileLoadResult loadFile(
    const QString& path, ProfileFormat format, const TargetStore* targets, const QString& targetName)
{
    // A FIFO or /dev/zero given as a profile is read in pieces up to the limit, never to its end.
    QString error;
    const std::optional<QByteArray> data = readBoundedFile(path, kMaxSettingsFileBytes, &error);
    if (!data) {
        ProfileLoadResult result;
        result.errors.append(error);
        return result;
    }
    return loadData(*data, path, format, targets, targetName);
}

} // namespace

ProfileLoadResult ProfileStore::load(const QString& path, ProfileFormat format)
{
    return loadFile(path, format, nullptr, QString());
}

ProfileLoadResult ProfileStore::loadForRun(const QString& path, const TargetStore& targets, const QString& targetName)
{
    return loadFile(path, ProfileFormat::Auto, &targets, targetName);
}

ProfileLoadResult ProfileStore::loadFromData(const QByteArray& data, const QString& sourceName, ProfileFormat format)
{
    return loadData(data, sourceName, format, nullptr, QString());
}

ProfileLoadResult ProfileStore::fromJsonObject(const QJsonObject& object, const QString& sourceName)
{
    return loadFromData(QJsonDocument(object).toJson(QJsonDocument::Indented), sourceName, ProfileFormat::Json);
}

QByteArray ProfileStore::toJson(const Profile& profile)
{
    std::string text;
    writePretty(toDocument(profile), text, 0);
    return QByteArray::fromStdString(text) + '\n';
}

QJsonObject ProfileStore::toJsonObject(const Profile& profile)
{
    return QJsonDocument::fromJson(toJson(profile)).object();
}

ProfileSaveResult ProfileStore::save(const Profile& profile, const QString& path)
{
    if (QFileInfo(path).suffix().compare(u"toml", Qt::CaseInsensitive) == 0)
        return { phrase(
            "ProfileStore", "%1: profiles are saved as JSON in Kneepoint's schema; choose a .json file name")
                     .arg(path) };
    const QFileInfo info(path);
    if (!info.absoluteDir().exists() && !QDir().mkpath(info.absolutePath()))
        return { phrase("ProfileStore", "%1: cannot create the directory %2").arg(path, info.absolutePath()) };

    // The previous version stays next to it as PATH.bak. It is copied aside first and becomes PATH.bak
    // only once the profile is written: a failed write leaves the profile and its old PATH.bak as
    // they were.
    const QString backup = path + u".bak"_s;
    const QString pending = backup + u".new"_s;
    const bool hadFile = QFileInfo(path).isFile();
    if (hadFile) {
        QFile::remove(pending);
        if (!QFile::copy(path, pending))
            return { phrase("ProfileStore", "%1: cannot keep the previous version as %2; the profile is unchanged")
                         .arg(path, backup) };
    }
    // writeFileAtomically renames a temporary file over the profile only once everything is written
    // (a special file such as a FIFO is written, not replaced). A literal secret (API key, credential
    // header, password in a URL) makes the file owner-only.
    QString error;
    if (!writeFileAtomically(path, toJson(profile), &error, redactedProfile(profile) != profile)) {
        QFile::remove(pending);
        return { error };
    }
    if (hadFile) {
        QFile::remove(backup);
        QFile::rename(pending, backup);
    }
    qCDebug(lcProfile) << "saved" << path;
    return {};
}

} // namespace kp
