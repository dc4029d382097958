#include "profile/profile.h"
#include "profile/keychain.h"
#include "profile/profile_p.h"

#include "metrics/phrase.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

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

} // namespace detail

} // namespace kp
