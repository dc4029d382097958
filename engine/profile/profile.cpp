#include "profile/profile.h"
#include "profile/keychain.h"
#include "profile/modelmix.h"
#include "profile/planrules.h"
#include "profile/profile_p.h"
#include "profile/profileschema.h"

#include "metrics/phrase.h"
#include "metrics/resultjson.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <tuple>

Q_LOGGING_CATEGORY(lcProfile, "kneepoint.engine.profile", QtInfoMsg)

using namespace Qt::Literals::StringLiterals;

namespace kp {

QString profileSchemaId()
{
    return u"kneepoint.profile/1"_s;
}

QString backendName(Backend backend)
{
    switch (backend) {
    case Backend::OpenAi:
        return u"openai"_s;
    case Backend::OpenAiChat:
        return u"openai-chat"_s;
    case Backend::Vllm:
        return u"vllm"_s;
    case Backend::OpenAiResponses:
        return u"openai-responses"_s;
    case Backend::AnthropicMessages:
        return u"anthropic-messages"_s;
    case Backend::OpenAiEmbeddings:
        return u"openai-embeddings"_s;
    }
    Q_UNREACHABLE();
}

std::optional<Backend> backendFromName(QStringView name)
{
    for (Backend b : allBackends()) {
        if (name == backendName(b))
            return b;
    }
    return std::nullopt;
}

QString defaultEndpoint(Backend backend)
{
    switch (backend) {
    case Backend::OpenAi:
    case Backend::Vllm:
        return u"/v1/completions"_s;
    case Backend::OpenAiChat:
        return u"/v1/chat/completions"_s;
    case Backend::OpenAiResponses:
        return u"/v1/responses"_s;
    case Backend::AnthropicMessages:
        return u"/v1/messages"_s;
    case Backend::OpenAiEmbeddings:
        return u"/v1/embeddings"_s;
    }
    Q_UNREACHABLE();
}

bool isChatBackend(Backend backend)
{
    return backend == Backend::OpenAiChat;
}

QList<Backend> allBackends()
{
    return { Backend::OpenAi, Backend::OpenAiChat, Backend::Vllm, Backend::OpenAiResponses, Backend::AnthropicMessages,
        Backend::OpenAiEmbeddings };
}

QString backendNames()
{
    QStringList names;
    for (Backend b : allBackends())
        names << backendName(b);
    const QString last = names.takeLast();
    return names.join(u", "_s) + u" or "_s + last;
}

bool isEmbeddingsBackend(Backend backend)
{
    return backend == Backend::OpenAiEmbeddings;
}

QString loadModeName(LoadMode mode)
{
    return mode == LoadMode::Rate ? u"rate"_s : u"concurrency"_s;
}

std::optional<LoadMode> loadModeFromName(QStringView name)
{
    if (name == u"rate")
        return LoadMode::Rate;
    if (name == u"concurrency")
        return LoadMode::Concurrency;
    return std::nullopt;
}

QString transportKindName(TransportKind kind)
{
    switch (kind) {
    case TransportKind::Qnam:
        return u"qnam"_s;
    case TransportKind::Socket:
        return u"socket"_s;
    case TransportKind::Auto:
        break;
    }
    return u"auto"_s;
}

std::optional<TransportKind> transportKindFromName(QStringView name)
{
    if (name.compare(u"auto", Qt::CaseInsensitive) == 0)
        return TransportKind::Auto;
    if (name.compare(u"qnam", Qt::CaseInsensitive) == 0)
        return TransportKind::Qnam;
    if (name.compare(u"socket", Qt::CaseInsensitive) == 0)
        return TransportKind::Socket;
    return std::nullopt;
}

QString formatRate(double rate)
{
    if (std::isinf(rate))
        return rate > 0 ? u"inf"_s : u"-inf"_s;
    return QString::number(rate, 'g', QLocale::FloatingPointShortest);
}

std::optional<double> parseRate(QStringView text)
{
    const QStringView t = text.trimmed();
    if (t.compare(u"inf", Qt::CaseInsensitive) == 0 || t.compare(u"infinity", Qt::CaseInsensitive) == 0)
        return std::numeric_limits<double>::infinity();
    bool ok = false;
    const double value = t.toDouble(&ok);
    if (!ok || !(value > 0))
        return std::nullopt;
    return value;
}

QStringList knownDatasets()
{
    return { u"random"_s, u"sharegpt"_s, u"jsonl"_s, u"replay"_s, u"shared-prefix"_s, u"mooncake"_s };
}

QStringList knownLengthDistributions()
{
    return { u"uniform"_s, u"fixed"_s, u"normal"_s, u"lognormal"_s };
}

QStringList knownImageFormats()
{
    return { u"png"_s, u"jpeg"_s };
}

std::optional<std::pair<int, int>> parseImageSize(QStringView text)
{
    const QList<QStringView> parts = text.trimmed().split(u'x', Qt::KeepEmptyParts, Qt::CaseInsensitive);
    if (parts.size() != 2)
        return std::nullopt;
    bool okW = false;
    bool okH = false;
    const int w = parts[0].toInt(&okW);
    const int h = parts[1].toInt(&okH);
    if (!okW || !okH || w < 1 || h < 1 || w > 8192 || h > 8192)
        return std::nullopt;
    return std::pair { w, h };
}

QStringList knownPercentileMetrics()
{
    return { u"ttft"_s, u"tpot"_s, u"itl"_s, u"e2el"_s };
}

QString applyGoodput(QStringView spec, Slo& slo)
{
    static const QRegularExpression separators(u"[\\s,]+"_s);
    for (const QString& item : spec.toString().split(separators, Qt::SkipEmptyParts)) {
        const qsizetype colon = item.indexOf(u':');
        bool ok = false;
        const double ms = colon > 0 ? QStringView(item).mid(colon + 1).toDouble(&ok) : 0;
        const QString metric = item.left(colon).trimmed().toLower();
        std::optional<double>* limit = metric == u"ttft" ? &slo.ttftMs
            : metric == u"tpot"                          ? &slo.tpotMs
            : metric == u"e2el"                          ? &slo.e2elMs
                                                         : nullptr;
        if (!ok || !limit)
            return u"\"%1\" is not metric:milliseconds with metric ttft, tpot or e2el"_s.arg(item);
        *limit = ms;
    }
    return QString();
}

QString ApiKeyResolution::describe() const
{
    switch (source) {
    case Source::None:
        return phrase("Profile", "no API key");
    case Source::Literal:
        return phrase("Profile", "the key written in the profile");
    case Source::Environment:
        return phrase("Profile", "environment variable %1").arg(variable);
    case Source::OpenAiApiKey:
        return phrase("Profile", "environment variable OPENAI_API_KEY (no key in the profile)");
    case Source::File:
        return phrase("Profile", "the key file %1").arg(variable);
    case Source::Keychain:
        return phrase("Profile", "keychain entry %1").arg(variable);
    }
    Q_UNREACHABLE();
}

QStringList Target::effectiveMetricsUrls() const
{
    const QStringList urls = metricsUrls.isEmpty() ? QStringList { metricsUrl } : metricsUrls;
    if (urls.size() == 1 && urls.front() == u"off")
        return {};
    return urls;
}

QString Target::effectiveEndpoint() const
{
    return endpoint.isEmpty() ? defaultEndpoint(backend) : endpoint;
}

QUrl Target::requestUrl() const
{
    return urlFor(effectiveEndpoint());
}

QUrl Target::urlFor(const QString& path) const
{
    QUrl url(baseUrl);
    QString basePath = url.path();
    while (basePath.endsWith(u'/'))
        basePath.chop(1);
    QString rest = path.startsWith(u'/') ? path : u'/' + path;
    QString query;
    if (const qsizetype q = rest.indexOf(u'?'); q >= 0) {
        query = rest.mid(q + 1);
        rest.truncate(q);
    }
    if (basePath.endsWith(u"/v1") && (rest == u"/v1" || rest.startsWith(u"/v1/")))
        rest = rest.mid(3);
    url.setPath(basePath + rest);
    if (!query.isEmpty())
        url.setQuery(url.hasQuery() ? url.query() + u'&' + query : query);
    return url;
}

QString Target::requestModel() const
{
    return servedModelName.isEmpty() ? model : servedModelName;
}

ApiKeyResolution Target::resolvedApiKey(bool readKeychain) const
{
    ApiKeyResolution r;
    if (apiKey.isEmpty()) {
        const QString fallback = qEnvironmentVariable("OPENAI_API_KEY");
        if (!fallback.isEmpty()) {
            r.key = fallback;
            r.source = ApiKeyResolution::Source::OpenAiApiKey;
            r.variable = u"OPENAI_API_KEY"_s;
        }
        return r;
    }
    if (isKeychainReference(apiKey)) {
        r.source = ApiKeyResolution::Source::Keychain;
        r.variable = keychainEntryName(apiKey);
        if (!readKeychain)
            return r;
        const KeychainResult k = readKeychainSecret(r.variable);
        if (!k.ok())
            r.error = u"target.api_key: "_s + k.error;
        else if (k.secret.trimmed().isEmpty())
            r.error = u"target.api_key: keychain entry %1 is empty"_s.arg(r.variable);
        else
            r.key = k.secret.trimmed();
        return r;
    }
    if (detail::isKeyFileReference(apiKey)) {
        r.source = ApiKeyResolution::Source::File;
        QString error;
        r.key = detail::readKeyFile(apiKey, &r.variable, &error);
        if (!error.isEmpty())
            r.error = u"target.api_key: "_s + error;
        return r;
    }
    const detail::EnvExpansion e = detail::expandEnvironment(apiKey);
    if (e.variables.isEmpty() && e.error.isEmpty()) {
        r.key = apiKey;
        r.source = ApiKeyResolution::Source::Literal;
        return r;
    }
    r.source = ApiKeyResolution::Source::Environment;
    r.variable = e.variables.value(0);
    if (!e.error.isEmpty()) {
        r.error = u"target.api_key: "_s + e.error;
        return r;
    }
    r.key = e.value;
    return r;
}

ApiKeyResolution::Source Target::apiKeySource() const
{
    using Source = ApiKeyResolution::Source;
    if (apiKey.isEmpty())
        return qEnvironmentVariableIsEmpty("OPENAI_API_KEY") ? Source::None : Source::OpenAiApiKey;
    if (isKeychainReference(apiKey))
        return Source::Keychain;
    if (detail::isKeyFileReference(apiKey))
        return Source::File;
    const detail::EnvExpansion e = detail::expandEnvironment(apiKey, true);
    return e.variables.isEmpty() && e.error.isEmpty() ? Source::Literal : Source::Environment;
}

QString Target::plainTextKeyWarning(const QString& fileName) const
{
    // A key in the file is readable by anyone who gets the file (a shared profile, a backup, a repository).
    if (apiKey.isEmpty() || apiKeySource() != ApiKeyResolution::Source::Literal)
        return {};
    return phrase("ProfileReader",
        "the API key is stored in plain text in %1; keep it out of the file with \"${VAR}\" (an "
        "environment variable), \"keychain:ENTRY\" (the desktop keychain) or \"file:PATH\" (a file of "
        "its own)")
        .arg(fileName);
}

QList<HttpHeader> Target::resolvedHeaders(QString* error) const
{
    QList<HttpHeader> out;
    out.reserve(headers.size());
    for (const HttpHeader& h : headers) {
        const detail::EnvExpansion e = detail::expandEnvironment(h.value);
        if (!e.error.isEmpty()) {
            if (error && error->isEmpty())
                *error = detail::childPath(u"target.headers"_s, h.name) + u": "_s + e.error;
            continue;
        }
        out.append({ h.name, e.value });
    }
    return out;
}

Profile Profile::demo(const QUrl& baseUrl, const QString& model)
{
    Profile p;
    p.name = u"Demo — built-in simulator"_s;
    p.description = u"Chat completions of short answers against the built-in simulator, at rates rising past "
                    "its capacity so the knee shows within about a minute."_s;
    p.target.baseUrl = baseUrl.toString(QUrl::StripTrailingSlash);
    p.target.backend = Backend::OpenAiChat;
    p.target.model = model;
    p.workload.dataset = u"random"_s;
    // Short answers keep each request's drain small next to a 10 s step, so achieved throughput
    // reads true below the knee (it counts until the last completion, as the reference does).
    p.workload.numPrompts = 200;
    p.workload.inputLen = 128;
    p.workload.outputLen = 32;
    p.workload.rangeRatio = 0.5;
    p.workload.ignoreEos = true;
    p.load.mode = LoadMode::Rate;
    // The default preset serves about 210 req/s of these requests: the knee shows at 200 req/s and the
    // saturation at 250, and 8 s steps keep the sweep near a minute (the 300 req/s step's queue drains
    // in a few seconds, where a deeper overload would take half a minute).
    p.load.rates = { 25, 50, 100, 150, 200, 250, 300 };
    p.load.stepDurationS = 8;
    p.load.warmupRequests = 4;
    p.load.cooldownS = 1;
    p.slo.ttftMs = 500;
    p.slo.tpotMs = 100;
    p.slo.maxErrorRate = 0.01;
    if (baseUrl.scheme() != u"sim") {
        p.server.host = baseUrl.host();
        if (baseUrl.port() > 0)
            p.server.port = baseUrl.port();
    }
    p.server.engine = u"kneepoint-sim"_s;
    return p;
}

QString planKindName(PlanKind kind)
{
    switch (kind) {
    case PlanKind::List:
        return u"list"_s;
    case PlanKind::Linear:
        return u"linear"_s;
    case PlanKind::Geometric:
        return u"geometric"_s;
    case PlanKind::Auto:
        return u"auto"_s;
    }
    return {};
}

std::optional<PlanKind> planKindFromName(QStringView name)
{
    for (PlanKind k : { PlanKind::List, PlanKind::Linear, PlanKind::Geometric, PlanKind::Auto }) {
        if (name.compare(planKindName(k), Qt::CaseInsensitive) == 0)
            return k;
    }
    return std::nullopt;
}

bool Target::isBuiltinSimulator() const
{
    return QUrl(baseUrl).scheme() == u"sim";
}

QString redactedPlaceholder()
{
    return u"<redacted>"_s;
}

namespace {

QString redactSecret(const QString& value)
{
    if (value.isEmpty() || detail::isKeyFileReference(value) || isKeychainReference(value))
        return value;
    // A ${VAR} reference holds no secret; keeping it tells the reader where the key came from.
    const detail::EnvExpansion e = detail::expandEnvironment(value, true);
    if (!e.variables.isEmpty() && e.error.isEmpty())
        return value;
    return redactedPlaceholder();
}

QString redactUrlPassword(const QString& text)
{
    QUrl url(text);
    if (!url.isValid() || url.password().isEmpty())
        return text;
    url.setPassword(u"redacted"_s);
    return url.toString();
}

} // namespace

QString redactCommandSecrets(const QString& command)
{
    // --api-key VALUE, --hf-token=VALUE, HF_TOKEN=VALUE: the value of any option or variable whose name
    // ends in key, token, secret or password (not --max-num-batched-tokens). A ${VAR} reference is kept.
    static const QRegularExpression secretRe(
        u"((?:--?|\\b)[A-Za-z0-9_-]*(?:key|token|secret|password|passwd))(=|[ \\t]+)(?!\\$\\{|-)([^\\s'\"]+|'[^']*'|\"[^\"]*\")"_s,
        QRegularExpression::CaseInsensitiveOption);
    QString out = command;
    out.replace(secretRe, u"\\1\\2"_s + redactedPlaceholder());
    return out;
}

QString displayUrl(const QString& url)
{
    QUrl u(url);
    if (!u.isValid() || u.password().isEmpty())
        return url;
    u.setPassword(u"***"_s);
    return u.toString();
}

Profile redactedProfile(const Profile& profile)
{
    Profile p = profile;
    p.target.apiKey = redactSecret(p.target.apiKey);
    p.target.baseUrl = redactUrlPassword(p.target.baseUrl);
    p.target.proxyUrl = redactUrlPassword(p.target.proxyUrl);
    p.serverSweep.command = redactCommandSecrets(p.serverSweep.command);
    p.serverSweep.stopCommand = redactCommandSecrets(p.serverSweep.stopCommand);
    p.serverSweep.appliedCommand = redactCommandSecrets(p.serverSweep.appliedCommand);
    for (HttpHeader& h : p.target.headers) {
        if (isCredentialHeader(h.name))
            h.value = redactSecret(h.value);
    }
    return p;
}

QList<ProfileIssue> validateProfile(const Profile& profile)
{
    return detail::validateProfile(profile, [](const QString& path) { return path; });
}

bool isCredentialHeader(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"authorization" || n == u"proxy-authorization" || n == u"cookie")
        return true;
    for (QStringView word : { u"key", u"token", u"secret", u"password", u"auth" }) {
        if (n.contains(word))
            return true;
    }
    return false;
}

namespace detail {

namespace {

bool isPlainKey(const QString& key)
{
    static const QRegularExpression plainRe(u"^[A-Za-z0-9_-]+$"_s);
    return plainRe.match(key).hasMatch();
}

} // namespace

QString childPath(const QString& parent, const QString& key)
{
    if (!isPlainKey(key))
        return parent + u"[\""_s + key + u"\"]"_s;
    return parent.isEmpty() ? key : parent + u'.' + key;
}

QString indexPath(const QString& parent, qsizetype index)
{
    return parent + u'[' + QString::number(index) + u']';
}

QString parentPath(const QString& path)
{
    if (path.endsWith(u"\"]")) {
        const qsizetype open = path.lastIndexOf(u"[\"");
        return open < 0 ? QString() : path.left(open);
    }
    if (path.endsWith(u']')) {
        const qsizetype open = path.lastIndexOf(u'[');
        return open < 0 ? QString() : path.left(open);
    }
    const qsizetype dot = path.lastIndexOf(u'.');
    return dot < 0 ? QString() : path.left(dot);
}

bool isKeyFileReference(const QString& apiKey)
{
    return apiKey.startsWith(u"file:");
}

QString readKeyFile(const QString& reference, QString* path, QString* error)
{
    constexpr qint64 maxKeyFileBytes = 64 * 1024;
    const EnvExpansion e = expandEnvironment(reference.mid(5).trimmed());
    if (!e.error.isEmpty()) {
        *error = e.error;
        return {};
    }
    QString p = e.value;
    if (p == u"~" || p.startsWith(u"~/"))
        p = QDir::homePath() + p.mid(1);
    *path = p;
    QFile file(p);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot read the key file %1: %2"_s.arg(p, file.errorString());
        return {};
    }
    const QByteArray data = file.read(maxKeyFileBytes + 1);
    if (data.size() > maxKeyFileBytes) {
        *error = u"the key file %1 is larger than %2 bytes; it should hold the key alone"_s.arg(p).arg(maxKeyFileBytes);
        return {};
    }
    const QString key = QString::fromUtf8(data).section(u'\n', 0, 0).trimmed();
    if (key.isEmpty())
        *error = u"the key file %1 is empty"_s.arg(p);
    return key;
}

EnvExpansion expandEnvironment(const QString& text, bool checkOnly)
{
    static const QRegularExpression nameRe(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    EnvExpansion e;
    qsizetype pos = 0;
    while (pos < text.size()) {
        const qsizetype start = text.indexOf(u"${", pos);
        if (start < 0) {
            e.value += QStringView(text).mid(pos);
            break;
        }
        e.value += QStringView(text).mid(pos, start - pos);
        const qsizetype end = text.indexOf(u'}', start + 2);
        if (end < 0) {
            e.error = u"unterminated ${ reference"_s;
            return e;
        }
        const QString name = text.mid(start + 2, end - start - 2);
        if (!nameRe.match(name).hasMatch()) {
            e.error = u"\"${%1}\" is not a valid environment variable reference"_s.arg(name);
            return e;
        }
        e.variables.append(name);
        if (!checkOnly) {
            if (!qEnvironmentVariableIsSet(name.toLocal8Bit().constData())) {
                if (e.error.isEmpty())
                    e.error = u"environment variable %1 is not set"_s.arg(name);
            } else {
                e.value += qEnvironmentVariable(name.toLocal8Bit().constData());
            }
        }
        pos = end + 1;
    }
    return e;
}

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
