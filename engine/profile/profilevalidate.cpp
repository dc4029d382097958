// A profile's validation: every field's range from the schema, and the rules between fields (the
// target's URL and headers, the workload and its images, the load plan, the output, the server sweep),
// each issue under the path of the field it is about, in the schema's order.
#include "profile/keychain.h"
#include "profile/modelmix.h"
#include "profile/planrules.h"
#include "profile/profile.h"
#include "profile/profile_p.h"
#include "profile/profileschema.h"

#include "metrics/phrase.h"
#include "metrics/resultjson.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace kp {

QList<ProfileIssue> validateProfile(const Profile& profile)
{
    return detail::validateProfile(profile, [](const QString& path) { return path; });
}

namespace detail {

namespace {

class Checker
{
public:
    explicit Checker(const PathNamer& namer)
        : m_namer(namer)
    { }

    void add(const QString& path, const QString& message) { m_issues.append({ path, message }); }
    QString name(const QString& path) const { return m_namer(path); }

    // NaN fails every comparison; saying "must be > 0" of it would send the reader to the wrong fix.
    bool isNumber(const QString& path, double v)
    {
        if (!std::isnan(v))
            return true;
        add(path, phrase("Profile", "is not a number (nan)"));
        return false;
    }
    void positive(const QString& path, double v)
    {
        if (isNumber(path, v) && !(v > 0))
            add(path, phrase("Profile", "must be > 0"));
    }
    void nonNegative(const QString& path, double v)
    {
        if (isNumber(path, v) && !(v >= 0))
            add(path, phrase("Profile", "must be >= 0"));
    }
    void atLeastOne(const QString& path, qint64 v)
    {
        if (v < 1)
            add(path, phrase("Profile", "must be >= 1"));
    }
    void percentile(const QString& path, double v)
    {
        if (isNumber(path, v) && !(v > 0 && v <= 100))
            add(path, phrase("Profile", "must be in (0, 100]"));
    }
    void fraction(const QString& path, double v, bool zeroAllowed)
    {
        const bool ok = (zeroAllowed ? v >= 0 : v > 0) && v <= 1;
        if (isNumber(path, v) && !ok)
            add(path, zeroAllowed ? phrase("Profile", "must be in [0, 1]") : phrase("Profile", "must be in (0, 1]"));
    }
    template <typename T>
    void optional(const QString& path, const std::optional<T>& v, void (Checker::*check)(const QString&, T))
    {
        if (v)
            (this->*check)(path, *v);
    }

    QList<ProfileIssue> issues() const { return m_issues; }

private:
    const PathNamer& m_namer;
    QList<ProfileIssue> m_issues;
};

// The place of the field a path names ("load.rates[2]": load.rates) in the schema; paths of no
// field come last.
qsizetype schemaOrder(const QString& path)
{
    const std::span<const ProfileField> fields = profileFields();
    for (QString p = path; !p.isEmpty(); p = parentPath(p)) {
        for (size_t i = 0; i < fields.size(); ++i) {
            if (p == QLatin1String(fields[i].key))
                return qsizetype(i);
        }
    }
    return qsizetype(fields.size());
}

// The ranges of the schema's fields under prefix ("workload."), where they apply.
void checkRanges(Checker& c, const Profile& p, QStringView prefix)
{
    for (const ProfileField& f : profileFields()) {
        if ((!f.min && !f.max) || !f.appliesTo(p) || !QLatin1String(f.key).startsWith(prefix))
            continue;
        if (const std::optional<double> v = fieldNumber(p, f)) {
            if (const QString issue = fieldRangeIssue(f, *v); !issue.isEmpty())
                c.add(f.path(), issue);
        }
    }
}

bool isHttpUrl(const QString& text, std::initializer_list<QStringView> schemes)
{
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty())
        return false;
    for (QStringView s : schemes) {
        if (url.scheme() == s)
            return true;
    }
    return false;
}

bool isHeaderName(const QString& name)
{
    static const QRegularExpression tokenRe(u"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"_s);
    return tokenRe.match(name).hasMatch();
}

void checkTarget(Checker& c, const Profile& p)
{
    const Target& t = p.target;
    if (t.baseUrl.isEmpty())
        c.add(u"target.base_url"_s, phrase("Profile", "is required"));
    else if (!isHttpUrl(t.baseUrl, { u"http", u"https", u"sim" }))
        c.add(u"target.base_url"_s,
            phrase("Profile",
                "must be an http:// or https:// URL with a host (or sim://PRESET for the built-in simulator), got "
                "\"%1\"")
                .arg(displayUrl(t.baseUrl)));
    if (!t.endpoint.isEmpty() && !t.endpoint.startsWith(u'/'))
        c.add(u"target.endpoint"_s, phrase("Profile", "must start with \"/\""));
    if (isKeychainReference(t.apiKey)) {
        if (keychainEntryName(t.apiKey).isEmpty())
            c.add(u"target.api_key"_s, phrase("Profile", "\"keychain:\" needs an entry name, e.g. keychain:vllm-prod"));
    } else if (isKeyFileReference(t.apiKey)) {
        if (t.apiKey.trimmed().size() <= 5)
            c.add(u"target.api_key"_s, phrase("Profile", "\"file:\" needs a path, e.g. file:~/.config/kneepoint/key"));
    } else if (!t.apiKey.isEmpty()) {
        const EnvExpansion e = expandEnvironment(t.apiKey, true);
        if (!e.error.isEmpty())
            c.add(u"target.api_key"_s, e.error);
    }
    for (const HttpHeader& h : t.headers) {
        const QString path = childPath(u"target.headers"_s, h.name);
        if (!isHeaderName(h.name))
            c.add(path, phrase("Profile", "is not a valid HTTP header name"));
        if (h.value.contains(u'\r') || h.value.contains(u'\n'))
            c.add(path, phrase("Profile", "must not contain line breaks"));
        if (const EnvExpansion e = expandEnvironment(h.value, true); !e.error.isEmpty())
            c.add(path, e.error);
    }
    checkRanges(c, p, u"target.");
    if (!t.metricsUrl.isEmpty() && t.metricsUrl != u"off" && !isHttpUrl(t.metricsUrl, { u"http", u"https" }))
        c.add(u"target.metrics_url"_s,
            phrase("Profile", "must be an http:// or https:// URL, or \"off\", got \"%1\"")
                .arg(displayUrl(t.metricsUrl)));
    if (!t.metricsUrl.isEmpty() && !t.metricsUrls.isEmpty())
        c.add(u"target.metrics_urls"_s,
            phrase("Profile", "give either target.metrics_url or target.metrics_urls, not both (metrics_url is \"%1\")")
                .arg(displayUrl(t.metricsUrl)));
    if (!(t.metricsUrls.size() == 1 && t.metricsUrls.front() == u"off")) {
        for (qsizetype i = 0; i < t.metricsUrls.size(); ++i) {
            if (!isHttpUrl(t.metricsUrls[i], { u"http", u"https" }))
                c.add(u"target.metrics_urls[%1]"_s.arg(i),
                    phrase("Profile", "must be an http:// or https:// URL, or \"off\", got \"%1\"")
                        .arg(displayUrl(t.metricsUrls[i])));
        }
    }
    if (t.proxyMode == ProxyMode::Url && !isHttpUrl(t.proxyUrl, { u"http", u"https", u"socks5" })) {
        c.add(u"target.proxy"_s,
            phrase("Profile",
                "must be \"none\", \"system\" or an http://, https:// or socks5:// URL with a host, got \"%1\"")
                .arg(displayUrl(t.proxyUrl)));
    }
}

void checkWorkload(Checker& c, const Profile& p)
{
    const Workload& w = p.workload;
    if (!knownDatasets().contains(w.dataset)) {
        c.add(u"workload.dataset"_s,
            phrase("Profile", "unknown dataset \"%1\"; expected one of %2")
                .arg(w.dataset, knownDatasets().join(u", "_s)));
    } else if (w.dataset != u"random" && w.dataset != u"shared-prefix" && w.datasetPath.isEmpty()) {
        c.add(u"workload.dataset_path"_s,
            phrase("Profile", "is required when %1 is \"%2\"").arg(c.name(u"workload.dataset"_s), w.dataset));
    }
    checkRanges(c, p, u"workload.");
    if (const ModelMix mix = parseModelMix(w.modelMix); !mix.ok())
        c.add(u"workload.model_mix"_s, mix.error);
    for (const auto& [distKey, stdKey, dist, spread] :
        { std::tuple { u"workload.input_len_dist"_s, u"workload.input_len_std"_s, w.inputLenDist, w.inputLenStd },
            std::tuple {
                u"workload.output_len_dist"_s, u"workload.output_len_std"_s, w.outputLenDist, w.outputLenStd } }) {
        if (!knownLengthDistributions().contains(dist)) {
            c.add(distKey,
                phrase("Profile", "unknown distribution \"%1\"; expected one of %2")
                    .arg(dist, knownLengthDistributions().join(u", "_s)));
        } else if ((dist == u"normal" || dist == u"lognormal") && !spread) {
            c.add(stdKey, phrase("Profile", "is required when %1 is \"%2\"").arg(c.name(distKey), dist));
        }
    }
    if (w.badLines != u"skip" && w.badLines != u"fail")
        c.add(u"workload.bad_lines"_s, phrase("Profile", "expected \"skip\" or \"fail\", got \"%1\"").arg(w.badLines));
    if (w.multiTurn && (w.dataset == u"replay" || w.dataset == u"mooncake"))
        c.add(u"workload.multi_turn"_s,
            phrase("Profile",
                "cannot be used with the %1 dataset: its requests are sent on the log's own schedule, not as "
                "conversations")
                .arg(w.dataset));
    else if (w.multiTurn && w.dataset == u"shared-prefix")
        c.add(u"workload.multi_turn"_s,
            phrase("Profile",
                "cannot be used with the shared-prefix dataset: it has no conversations; use random with "
                "workload.turns"));
    if (w.multiTurnHistory != u"recorded" && w.multiTurnHistory != u"live")
        c.add(u"workload.multi_turn_history"_s,
            phrase("Profile", "expected \"recorded\" or \"live\", got \"%1\"").arg(w.multiTurnHistory));
    for (qsizetype i = 0; i < w.lengthBuckets.size(); ++i) {
        if (w.lengthBuckets[i] < 0 || (i > 0 && w.lengthBuckets[i] <= w.lengthBuckets[i - 1])) {
            c.add(u"workload.length_buckets[%1]"_s.arg(i), phrase("Profile", "edges must be >= 0 and increasing"));
            break;
        }
    }
}

void checkPlan(Checker& c, const Plan& p)
{
    if (p.kind == PlanKind::Linear || p.kind == PlanKind::Geometric) {
        if (p.stop < p.start)
            c.add(u"load.plan.stop"_s, phrase("Profile", "must be >= load.plan.start"));
        if (p.steps < 2)
            c.add(u"load.plan.steps"_s, phrase("Profile", "must be >= 2 for a range"));
    }
    if (p.kind == PlanKind::Auto && p.steps < 0)
        c.add(u"load.plan.steps"_s,
            phrase("Profile", "must be >= 0 (0: the default of %1)").arg(planrules::kDefaultAutoSteps));
}

void checkLoad(Checker& c, const Profile& p)
{
    const Load& l = p.load;
    checkRanges(c, p, u"load.plan.");
    checkPlan(c, l.plan);
    if (l.plan.kind != PlanKind::List) {
        // the plan chooses the loads; rates or concurrencies are not needed
    } else if (l.mode == LoadMode::Rate) {
        if (l.rates.isEmpty())
            c.add(u"load.rates"_s, phrase("Profile", "needs at least one rate"));
        for (qsizetype i = 0; i < l.rates.size(); ++i)
            c.positive(u"load.rates[%1]"_s.arg(i), l.rates[i]);
    } else {
        if (l.concurrencies.isEmpty())
            c.add(u"load.concurrencies"_s, phrase("Profile", "needs at least one concurrency"));
        for (qsizetype i = 0; i < l.concurrencies.size(); ++i)
            c.atLeastOne(u"load.concurrencies[%1]"_s.arg(i), l.concurrencies[i]);
    }
    if (l.soak) { // one rate step, reported per window
        if (l.mode != LoadMode::Rate)
            c.add(u"load.mode"_s, phrase("Profile", "\"soak\" runs at a request rate, not at a concurrency"));
        else if (l.plan.kind != PlanKind::List)
            c.add(u"load.plan.kind"_s,
                phrase("Profile", "must be \"list\" with load.mode \"soak\": a soak runs one rate"));
        else if (l.rates.size() != 1 || !std::isfinite(l.rates.constFirst()))
            c.add(u"load.rates"_s, phrase("Profile", "a soak runs one finite rate (req/s)"));
    }
    for (const ProfileField& f : profileFields()) {
        // load.plan's own were checked above
        if (QLatin1String(f.key).startsWith(u"load.") && !QLatin1String(f.key).startsWith(u"load.plan.")
            && fieldNumber(p, f)) {
            if (const QString issue = fieldRangeIssue(f, *fieldNumber(p, f)); !issue.isEmpty())
                c.add(f.path(), issue);
        }
    }
}

void checkOutput(Checker& c, const Output& o)
{
    for (qsizetype i = 0; i < o.percentileMetrics.size(); ++i) {
        if (!knownPercentileMetrics().contains(o.percentileMetrics[i])) {
            c.add(u"output.percentile_metrics[%1]"_s.arg(i),
                phrase("Profile", "unknown metric \"%1\"; expected one of %2")
                    .arg(o.percentileMetrics[i], knownPercentileMetrics().join(u", "_s)));
        }
    }
    for (qsizetype i = 0; i < o.metricPercentiles.size(); ++i)
        c.percentile(u"output.metric_percentiles[%1]"_s.arg(i), o.metricPercentiles[i]);
    for (const auto& item : o.metadata) {
        const QString& key = item.first;
        if (ResultJson::isReferenceKey(key))
            c.add(u"output.metadata.%1"_s.arg(key),
                phrase("Profile", "\"%1\" is a key the result file writes itself; choose another name").arg(key));
    }
}

// server_sweep: the mode's name and the parameters' shape (name -> a list of values); the ranges are the schema's.
void checkServerSweep(Checker& c, const ServerSweep& s)
{
    if (!s.mode.isEmpty() && s.mode != u"process" && s.mode != u"commands")
        c.add(
            u"server_sweep.mode"_s, phrase("Profile", "expected \"process\" or \"commands\", got \"%1\"").arg(s.mode));
    static const QRegularExpression nameRe(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    for (auto it = s.parameters.begin(); it != s.parameters.end(); ++it) {
        const QString path = childPath(u"server_sweep.parameters"_s, it.key());
        if (!nameRe.match(it.key()).hasMatch() || it.key() == u"port") {
            c.add(path,
                phrase("Profile",
                    "a parameter's name is letters, digits and _ (not \"port\", which is chosen "
                    "by Kneepoint)"));
            continue;
        }
        const QJsonArray values = it.value().toArray();
        if (!it.value().isArray() || values.isEmpty()) {
            c.add(path, phrase("Profile", "expected a list of one or more values"));
            continue;
        }
        for (qsizetype i = 0; i < values.size(); ++i) {
            const QJsonValue v = values.at(i);
            if (!(v.isString() && !v.toString().isEmpty()) && !v.isDouble() && !v.isBool())
                c.add(indexPath(path, i), phrase("Profile", "expected a text, a number or true/false"));
        }
    }
    if (!s.parameters.isEmpty() && s.command.trimmed().isEmpty())
        c.add(u"server_sweep.command"_s, phrase("Profile", "is required when server_sweep.parameters is set"));
}

} // namespace

void checkImages(Checker& c, const Profile& p)
{
    const Workload& w = p.workload;
    if (w.imageCount == 0) {
        if (!w.imageDir.isEmpty())
            c.add(u"workload.image_count"_s,
                phrase("Profile", "must be at least 1 when %1 is set").arg(c.name(u"workload.image_dir"_s)));
        return;
    }
    if (!knownImageFormats().contains(w.imageFormat))
        c.add(u"workload.image_format"_s,
            phrase("Profile", "unknown image format \"%1\"; expected one of %2")
                .arg(w.imageFormat, knownImageFormats().join(u", "_s)));
    if (w.imageDir.isEmpty() && w.imageSize.trimmed().isEmpty())
        c.add(u"workload.image_size"_s,
            phrase("Profile", "required with %1 (WIDTHxHEIGHT in pixels, e.g. 448x448), unless %2 gives the images")
                .arg(c.name(u"workload.image_count"_s), c.name(u"workload.image_dir"_s)));
    else if (w.imageDir.isEmpty() && !parseImageSize(w.imageSize))
        c.add(u"workload.image_size"_s,
            phrase("Profile", "must be WIDTHxHEIGHT in pixels, each 1 to 8192 (e.g. 448x448), got \"%1\"")
                .arg(w.imageSize));
    else if (const auto size = parseImageSize(w.imageSize); w.imageDir.isEmpty() && size) {
        // Every request's images are encoded from their pixels: a documented cap keeps one request from
        // needing gigabytes (docs/PROFILES.md, "Caps on profile values").
        const double pixelBytes = double(w.imageCount) * size->first * size->second * 3.0;
        if (pixelBytes > double(kMaxImagePixelBytes))
            c.add(u"workload.image_count"_s,
                phrase("Profile",
                    "%1 images of %2 are %3 MB of pixels to encode for every request, above the limit of %4 MB "
                    "per request; send fewer or smaller images")
                    .arg(w.imageCount)
                    .arg(w.imageSize.trimmed())
                    .arg(pixelBytes / 1e6, 0, 'f', 0)
                    .arg(double(kMaxImagePixelBytes) / 1e6, 0, 'f', 0));
    }
    const Backend b = p.target.backend;
    if (b != Backend::OpenAiChat && b != Backend::OpenAiResponses && b != Backend::AnthropicMessages)
        c.add(u"workload.image_count"_s,
            phrase("Profile",
                "images need a chat backend (openai-chat, openai-responses or anthropic-messages); "
                "%1 takes none")
                .arg(backendName(b)));
    if (w.multiTurn)
        c.add(u"workload.image_count"_s, phrase("Profile", "images go with single prompts, not multi_turn sessions"));
}

QList<ProfileIssue> validateProfile(const Profile& profile, const PathNamer& namer)
{
    Checker c(namer);
    if (profile.targetName.isEmpty() || !profile.target.baseUrl.isEmpty())
        checkTarget(c, profile); // a reference to a saved target is checked when it is resolved
    checkWorkload(c, profile);
    checkImages(c, profile);
    if (profile.workload.multiTurn && isEmbeddingsBackend(profile.target.backend))
        c.add(u"workload.multi_turn"_s,
            phrase("Profile",
                "%1 embeds inputs and answers nothing, so it has no conversations; multi_turn needs a "
                "chat backend")
                .arg(backendName(profile.target.backend)));
    checkLoad(c, profile);
    checkRanges(c, profile, u"slo.");
    checkRanges(c, profile, u"server.");
    checkRanges(c, profile, u"server_sweep.");
    checkServerSweep(c, profile.serverSweep);
    checkOutput(c, profile.output);
    // In the order of the schema's fields, which is the order a saved profile writes them.
    QList<ProfileIssue> issues = c.issues();
    std::stable_sort(issues.begin(), issues.end(),
        [](const ProfileIssue& a, const ProfileIssue& b) { return schemaOrder(a.path) < schemaOrder(b.path); });
    return issues;
}

} // namespace detail

} // namespace kp
