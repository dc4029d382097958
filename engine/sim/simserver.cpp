#include "sim/simserver_p.h"

#include "sim/httprequest.h"
#include "sim/prometheus.h"
#include "sim/simlog.h"
#include "sim/simprotocol.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QLocale>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <unordered_map>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace kp::sim {

using namespace detail;

namespace {

// Bytes of pipelined requests read ahead while a response is being produced; the rest waits in the socket.
constexpr qsizetype maxReadAhead = 1024 * 1024;
// Behind schedule by more than this (wall time), the clock is resynchronised instead of caught up.
constexpr double resyncWallMs = 100.0;
// Wall time one pass of the event loop may spend catching up before the sockets get a turn.
constexpr qint64 maxPassNs = 5'000'000;

QByteArray frame(const QByteArray& data, bool chunked)
{
    if (!chunked)
        return data;
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}

// A completed request's phases as vLLM counts them, in simulated ms. Catching up, the model may run an
// iteration that began before the request was accepted (or even ended before it); the times are ordered
// first (accepted ≤ scheduled ≤ first token ≤ last token), so that queue + prefill is the TTFT the
// histogram has (generated − accepted, at least 0) and inference is prefill + decode.
struct RequestPhases
{
    double queueMs, prefillMs, decodeMs, inferenceMs;
};

RequestPhases requestPhases(const GroundTruth& t)
{
    const double accepted = t.acceptedMs;
    const double first = std::max(t.firstGeneratedMs, accepted);
    const double last = std::max(t.lastGeneratedMs, first);
    const double scheduled = std::min(std::max(t.admittedMs, accepted), first);
    return { scheduled - accepted, first - scheduled, last - first, last - scheduled };
}

} // namespace

SimServer::Private::Private(SimServer* owner, SimServerOptions options)
    : q(owner)
    , m_options(std::move(options))
    , m_model(m_options.params)
    , m_apiServer(m_options.params.apiServerMs)
    , m_faults(m_options.faults, m_options.seed)
    , m_lengthRng(m_options.seed)
    , m_reasoningRng(m_options.seed ^ 0x9e3779b97f4a7c15ULL)
    , m_apiKey(m_options.apiKey.toUtf8())
    , m_listener(new Listener(owner))
    , m_tick(new QTimer(owner))
{
    if (!(m_options.timeScale > 0))
        m_options.timeScale = 1.0;
    m_listener->onIncoming = [this](qintptr handle) { onIncoming(handle); };
    QObject::connect(m_listener, &QTcpServer::acceptError, q, [this](QAbstractSocket::SocketError) {
        // Qt stops accepting after an error such as EMFILE; try again once descriptors may be free.
        qCWarning(lcSim) << "accept failed:" << m_listener->errorString();
        QTimer::singleShot(100, q, [this] {
            if (m_listener->isListening())
                m_listener->resumeAccepting();
        });
    });
    m_tick->setSingleShot(true);
    m_tick->setTimerType(Qt::PreciseTimer);
    QObject::connect(m_tick, &QTimer::timeout, q, [this] { pump(); });
    m_clock.start();
}

int SimServer::Private::wallDelayMs(double simMs) const
{
    const double ns = simMs / m_options.timeScale * 1e6 - double(m_clock.nsecsElapsed());
    if (ns <= 0)
        return 0;
    return int(std::min(std::ceil(ns / 1e6), double(std::numeric_limits<int>::max() / 2)));
}

void SimServer::Private::onIncoming(qintptr handle)
{
    auto* socket = new QTcpSocket(q);
    if (!socket->setSocketDescriptor(handle)) {
        qCWarning(lcSim) << "cannot adopt an accepted connection:" << socket->errorString();
        delete socket;
#ifdef Q_OS_UNIX
        ::close(int(handle));
#endif
        return;
    }
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    auto conn = std::make_unique<Connection>();
    conn->socket = socket;
    Connection* c = conn.get();
    m_connections.emplace(socket, std::move(conn));
    m_peakConnections = std::max(m_peakConnections, int(m_connections.size()));
    QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, c] { onReadyRead(c); });
    QObject::connect(socket, &QTcpSocket::disconnected, socket, [this, c] { onDisconnected(c); });
}

void SimServer::Private::onReadyRead(Connection* c)
{
    if (c->dead || (c->active && c->buffer.size() >= maxReadAhead))
        return;
    c->buffer += c->socket->readAll();
    processBuffer(c);
}

void SimServer::Private::onDisconnected(Connection* c)
{
    if (c->dead)
        return;
    c->dead = true;
    // Disconnection can be signalled from inside a write; the cleanup must not pull the request
    // from under the code that is writing it.
    QTcpSocket* socket = c->socket;
    QMetaObject::invokeMethod(
        q, [this, socket] { reap(socket); }, Qt::QueuedConnection);
}

void SimServer::Private::reap(QTcpSocket* socket)
{
    const auto it = m_connections.find(socket);
    if (it == m_connections.end())
        return;
    Connection* c = it->second.get();
    c->dead = true;
    if (c->active)
        finishRequest(*c->active, "aborted");
    QObject::disconnect(socket, nullptr, nullptr, nullptr);
    socket->deleteLater();
    m_connections.erase(it);
}

void SimServer::Private::processBuffer(Connection* c)
{
    while (!c->dead && !c->closing && !c->active) {
        if (c->socket->bytesAvailable() > 0)
            c->buffer += c->socket->readAll();
        if (c->buffer.isEmpty())
            return;
        HttpParseResult parsed = parseHttpRequest(c->buffer);
        switch (parsed.status) {
        case HttpParseResult::Status::NeedMore:
            if (parsed.expectContinue && !c->continueSent) {
                c->continueSent = true;
                write(c, QByteArrayLiteral("HTTP/1.1 100 Continue\r\n\r\n"));
            }
            return;
        case HttpParseResult::Status::Error:
            respondError(c, parsed.errorStatus, QString::fromLatin1(parsed.errorMessage), false);
            return;
        case HttpParseResult::Status::Complete:
            c->buffer.remove(0, parsed.consumed);
            c->continueSent = false;
            handleRequest(c, parsed.request);
            break;
        }
    }
}

bool SimServer::Private::write(Connection* c, const QByteArray& bytes)
{
    if (c->dead)
        return false;
#ifdef Q_OS_UNIX
    // Straight to the kernel while Qt holds nothing back: QAbstractSocket would otherwise switch its write
    // notifier on and off for every event, which the glib dispatcher does in time linear in the number
    // of sockets. Whatever the kernel does not take goes through Qt, which keeps order and reports errors.
    if (c->socket->bytesToWrite() == 0) {
        const ssize_t sent = ::send(int(c->socket->socketDescriptor()), bytes.constData(), std::size_t(bytes.size()),
            MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent == bytes.size())
            return true;
        if (sent > 0) {
            c->socket->write(bytes.constData() + sent, bytes.size() - sent);
            c->socket->flush();
            return !c->dead;
        }
    }
#endif
    c->socket->write(bytes);
    // Written now rather than on the next pass of the event loop: the ground truth records this moment.
    c->socket->flush();
    return !c->dead;
}

void SimServer::Private::respond(Connection* c, int status, const QByteArray& body, const QByteArray& contentType,
    bool keepAlive, const QByteArray& extraHeaders)
{
    QByteArray out;
    out.reserve(body.size() + 256);
    out += "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\nserver: kneepoint-sim\r\n";
    if (!contentType.isEmpty())
        out += "content-type: " + contentType + "\r\n";
    out += "content-length: " + QByteArray::number(body.size()) + "\r\n";
    out += extraHeaders;
    if (!keepAlive)
        out += "connection: close\r\n";
    out += "\r\n";
    out += body;
    write(c, out);
    if (!keepAlive)
        closeConnection(c);
}

// The error in the shape of the endpoint's API (shape): OpenAI's, or Anthropic's for /v1/messages.
void SimServer::Private::respondError(Connection* c, int status, const QString& message, bool keepAlive,
    const QString& param, const QByteArray& extraHeaders, Endpoint shape)
{
    respond(c, status, errorBodyFor(shape, status, message, param), QByteArrayLiteral("application/json"), keepAlive,
        extraHeaders);
}

void SimServer::Private::closeConnection(Connection* c)
{
    c->closing = true;
    if (!c->dead)
        c->socket->disconnectFromHost();
}

bool SimServer::Private::authorized(const HttpRequest& request) const
{
    if (m_apiKey.isEmpty())
        return true;
    // Anthropic's API takes the key as x-api-key (on /v1/messages and /v1/models alike).
    if (!request.header("x-api-key").isNull())
        return request.header("x-api-key").trimmed() == m_apiKey;
    const QByteArray value = request.header("authorization");
    if (value.size() < 7 || qstrnicmp(value.constData(), "bearer ", 7) != 0)
        return false;
    return value.mid(7).trimmed() == m_apiKey;
}

void SimServer::Private::handleRequest(Connection* c, const HttpRequest& request)
{
    const bool keepAlive = request.keepAlive;
    const QByteArrayView path = request.path();
    const QByteArray& method = request.method;
    const QByteArray jsonType = QByteArrayLiteral("application/json");

    const Endpoint shape = path == "/v1/messages" ? Endpoint::Messages : Endpoint::Completions;
    if (path.startsWith("/v1/") && !authorized(request)) {
        respondError(c, 401,
            request.header("authorization").isNull() && request.header("x-api-key").isNull()
                ? (shape == Endpoint::Messages
                        ? QStringLiteral("Missing API key: send the header 'x-api-key: <key>'")
                        : QStringLiteral("Missing API key: send the header 'Authorization: Bearer <key>'"))
                : QStringLiteral("Invalid API key"),
            keepAlive, {}, QByteArrayLiteral("www-authenticate: Bearer\r\n"), shape);
        return;
    }

    const auto allow = [&](const char* methods) {
        respondError(c, 405,
            QStringLiteral("Method %1 not allowed for %2").arg(QString::fromLatin1(method), QString::fromLatin1(path)),
            keepAlive, {}, "allow: " + QByteArray(methods) + "\r\n", shape);
    };

    if (path == "/v1/completions" || path == "/v1/chat/completions") {
        if (method != "POST")
            return allow("POST");
        handleGeneration(c, request, path == "/v1/completions" ? Endpoint::Completions : Endpoint::ChatCompletions);
        return;
    }
    if (path == "/v1/responses" || path == "/v1/messages" || path == "/v1/embeddings") {
        if (method != "POST")
            return allow("POST");
        handleGeneration(c, request,
            path == "/v1/responses"      ? Endpoint::Responses
                : path == "/v1/messages" ? Endpoint::Messages
                                         : Endpoint::Embeddings);
        return;
    }
    if (path == "/tokenize") {
        if (method != "POST")
            return allow("POST");
        auto response = tokenizeResponse(request.body, m_options.params.maxModelLen);
        if (const auto* error = std::get_if<ProtocolError>(&response))
            return respondError(c, error->status, error->message, keepAlive, error->param);
        return respond(c, 200, std::get<QByteArray>(response), jsonType, keepAlive);
    }
    if (path == "/reset_prefix_cache" || path == "/flush_cache") {
        // vLLM (POST) and SGLang (GET or POST): both refuse while running requests hold cached blocks,
        // vLLM's engine returning false (409 here), SGLang answering 400.
        const bool sglang = path == "/flush_cache";
        if (method != "POST" && !(sglang && method == "GET"))
            return allow(sglang ? "GET, POST" : "POST");
        if (!m_model.resetPrefixCache())
            return respondError(c, sglang ? 400 : 409,
                QStringLiteral("the prefix cache was not reset: running requests hold some of its blocks"), keepAlive);
        return respond(c, 200, {}, {}, keepAlive);
    }
    if (path == "/health") {
        if (method != "GET")
            return allow("GET");
        return respond(c, 200, {}, {}, keepAlive);
    }
    if (path == "/version") {
        if (method != "GET")
            return allow("GET");
        // The clock too: a client comparing /metrics' seconds with its own divides by time_scale.
        return respond(c, 200,
            QByteArrayLiteral("{\"version\":\"" KNEEPOINT_VERSION "\",\"server\":\"kneepoint-sim\",\"time_scale\":")
                + QByteArray::number(m_options.timeScale, 'g', QLocale::FloatingPointShortest) + '}',
            jsonType, keepAlive);
    }
    if (path == "/v1/models") {
        if (method != "GET")
            return allow("GET");
        return respond(c, 200,
            modelsBody(m_options.params.modelId, m_options.params.maxModelLen, QDateTime::currentSecsSinceEpoch(),
                m_options.params.loraModules),
            jsonType, keepAlive);
    }
    if (path == "/metrics") {
        if (method != "GET")
            return allow("GET");
        return respond(c, 200, metricsText(), QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8"), keepAlive);
    }
    if (path == "/debug/requests") {
        if (method == "DELETE") {
            m_history.clear();
            m_historyDropped = 0;
            return respond(c, 200, QByteArrayLiteral("{\"cleared\":true}"), jsonType, keepAlive);
        }
        if (method != "GET")
            return allow("GET, DELETE");
        QByteArray body = groundTruthJson(request.queryValue("since").toULongLong());
        if (request.queryFlag("clear")) {
            m_history.clear();
            m_historyDropped = 0;
        }
        return respond(c, 200, body, jsonType, keepAlive);
    }
    if (path == "/debug/stats") {
        if (method != "GET" && method != "DELETE")
            return allow("GET, DELETE");
        QByteArray body = statsJson();
        if (method == "DELETE" || request.queryFlag("reset")) {
            q->resetPeakInFlight();
            m_peakConnections = int(m_connections.size());
            m_maxLagWallMs = 0;
            m_resyncs = 0;
        }
        return respond(c, 200, body, jsonType, keepAlive);
    }
    respondError(c, 404, QStringLiteral("Not found: %1").arg(QString::fromLatin1(path)), keepAlive);
}

void SimServer::Private::incrementInFlight()
{
    const int now = ++m_inFlight;
    int peak = m_peakInFlight.load();
    while (now > peak && !m_peakInFlight.compare_exchange_weak(peak, now)) { }
}

void SimServer::Private::handleGeneration(Connection* c, const HttpRequest& http, Endpoint endpoint)
{
    const bool keepAlive = http.keepAlive;
    auto parsed = parseGenerationRequest(endpoint, http.body);
    if (const auto* error = std::get_if<ProtocolError>(&parsed))
        return respondError(c, error->status, error->message, keepAlive, error->param, {}, endpoint);
    const GenerationRequest& g = std::get<GenerationRequest>(parsed);
    const SimParams& params = m_options.params;

    if (g.model && *g.model != params.modelId && !params.loraModules.contains(*g.model)) {
        return respondError(c, 404, QStringLiteral("The model `%1` does not exist.").arg(*g.model), keepAlive,
            QStringLiteral("model"), {}, endpoint);
    }
    const QString promptField = promptFieldName(endpoint);
    if (g.promptTokens >= params.maxModelLen) {
        return respondError(c, 400,
            QStringLiteral("This model's maximum context length is %1 tokens. However, your request has %2 input "
                           "tokens. Please reduce the length of the input.")
                .arg(params.maxModelLen)
                .arg(g.promptTokens),
            keepAlive, promptField, {}, endpoint);
    }
    const int maxTokens
        = g.maxTokens.value_or(endpoint == Endpoint::Completions ? 16 : params.maxModelLen - g.promptTokens);
    if (qint64(g.promptTokens) + maxTokens > params.maxModelLen) {
        return respondError(c, 400,
            QStringLiteral("This model's maximum context length is %1 tokens. However, you requested %2 tokens (%3 "
                           "in the input, %4 in the completion). Please reduce the length of the input or completion.")
                .arg(params.maxModelLen)
                .arg(qint64(g.promptTokens) + maxTokens)
                .arg(g.promptTokens)
                .arg(maxTokens),
            keepAlive, QStringLiteral("max_tokens"), {}, endpoint);
    }
    // The longest context a request may reach must fit the cache, or it could never finish.
    const qint64 longestContext = qint64(g.promptTokens) + maxTokens - 1;
    if (longestContext > m_model.maxContextTokens()) {
        return respondError(c, 400,
            QStringLiteral("The request may hold %1 tokens in the KV cache; it holds at most %2 per request. "
                           "Reduce the input or max_tokens.")
                .arg(longestContext)
                .arg(m_model.maxContextTokens()),
            keepAlive, QStringLiteral("max_tokens"), {}, endpoint);
    }

    // Both draws happen for every request, so the sequences do not depend on which faults fire.
    const FaultKind fault = m_faults.draw();
    const int drawn = SimModel::drawOutputTokens(m_lengthRng, maxTokens, params.eosMeanFraction);
    const int reasoning = endpoint == Endpoint::ChatCompletions ? drawReasoningTokens() : -1;
    // The end-of-sequence draw is the answer's; max_tokens caps reasoning and answer together.
    const int target = g.ignoreEos ? maxTokens : reasoning > 0 ? std::min(maxTokens, reasoning + drawn) : drawn;

    const quint64 id = ++m_nextId;
    const double now = simNowMs();
    auto r
        = std::make_unique<Request>(endpoint, id, g.model.value_or(params.modelId), QDateTime::currentSecsSinceEpoch());
    r->id = id;
    r->conn = c;
    r->stream = g.stream;
    r->includeUsage = g.stream && g.includeUsage && !hasTypedEvents(endpoint); // typed streams end with usage
    r->inputs = g.inputs;
    r->chunked = http.minorVersion >= 1;
    r->keepAlive = keepAlive && r->chunked;
    r->promptTokens = g.promptTokens;
    r->targetTokens = target;
    r->reasoningTokens = reasoning < 0 ? -1 : std::min(reasoning, target);
    r->finishReason = target == maxTokens ? "length" : "stop";
    r->fault = fault;
    GroundTruth& t = r->truth;
    t.seq = id;
    t.responseId = r->format.id();
    t.requestId = http.header("x-request-id");
    t.endpoint = endpoint;
    t.stream = g.stream;
    t.fault = fault;
    t.promptTokens = g.promptTokens;
    t.maxTokens = maxTokens;
    t.targetTokens = target;
    t.reasoningTokens = r->reasoningTokens;
    t.acceptedMs = now;
    ++m_acceptedTotal;
    incrementInFlight();

    const QByteArray requestIdHeader = "x-request-id: " + (t.requestId.isEmpty() ? t.responseId : t.requestId) + "\r\n";

    if (fault == FaultKind::Http500 || fault == FaultKind::Http503 || fault == FaultKind::Http429
        || (fault == FaultKind::ErrorBody && !g.stream)) {
        int status = 500;
        QByteArray extra = requestIdHeader;
        QString message = QStringLiteral("Injected fault: internal server error");
        if (fault == FaultKind::Http503) {
            status = 503;
            message = QStringLiteral("Injected fault: service unavailable");
        } else if (fault == FaultKind::Http429) {
            status = 429;
            message = QStringLiteral("Injected fault: rate limit exceeded, retry later");
            extra += "retry-after: 1\r\n";
        }
        if (fault == FaultKind::ErrorBody) {
            respond(c, 200, errorBodyFor(endpoint, 500, QStringLiteral("Injected fault: error in a 200 response")),
                QByteArrayLiteral("application/json"), keepAlive, extra);
            t.outcome = "error";
        } else {
            respondError(c, status, message, keepAlive, {}, extra, endpoint);
            t.status = status;
            t.outcome = "rejected";
        }
        t.finishedMs = simNowMs();
        --m_inFlight;
        ++m_finishedTotal;
        recordTruth(std::move(t));
        return;
    }

    // Its turn at the API server (a queue: api_server_ms each, in the order the requests came), then the latency
    // before the engine (tokenization, the network): the request reaches the scheduler that much later in
    // simulated time, its stream's headers already sent.
    const double preEngineMs = m_apiServer.pass(now) - now + SimModel::preEngineDelayMs(params, m_options.seed, id - 1);
    if (preEngineMs <= 0) {
        if (!m_model.addRequest(id, g.promptTokenIds, target, now)) {
            --m_inFlight;
            return respondError(c, 400, QStringLiteral("The request does not fit the model"), keepAlive,
                QStringLiteral("max_tokens"), {}, endpoint);
        }
        r->inModel = true;
    } else {
        QTimer::singleShot(wallDelayMs(now + preEngineMs), Qt::PreciseTimer, q,
            [this, id, tokens = g.promptTokenIds, target, atMs = now + preEngineMs] {
                const auto it = m_requests.find(id);
                if (it == m_requests.end() || it->second->conn->dead)
                    return; // the client went away first
                Request& pending = *it->second;
                // Checked when the request came (max_model_len, the cache): this is a request it cannot hold.
                if (!m_model.addRequest(id, tokens, target, atMs))
                    return cut(pending);
                pending.inModel = true;
                scheduleTick();
            });
    }
    if (fault == FaultKind::Cut || fault == FaultKind::Malformed || fault == FaultKind::ErrorBody
        || fault == FaultKind::Stall) {
        r->faultToken = target / 2;
    }
    Request* req = r.get();
    m_requests.emplace(id, req);
    c->active = std::move(r);

    if (fault == FaultKind::SlowFirstByte)
        holdOutput(*req, now + m_options.faults.slowFirstByteSeconds * 1000.0);
    if (req->stream) {
        QByteArray head = QByteArrayLiteral("HTTP/1.1 200 OK\r\nserver: kneepoint-sim\r\n"
                                            "content-type: text/event-stream; charset=utf-8\r\n"
                                            "cache-control: no-cache\r\n")
            + requestIdHeader;
        if (req->chunked)
            head += "transfer-encoding: chunked\r\n";
        if (!req->keepAlive)
            head += "connection: close\r\n";
        head += "\r\n";
        output(*req, head, 0, 0, false);
    }
    scheduleTick();
}

void SimServer::Private::scheduleTick()
{
    if (!m_current && !m_tick->isActive())
        m_tick->start(0);
}

void SimServer::Private::pump()
{
    Q_ASSERT(QThread::currentThread() == q->thread());
    const qint64 passStart = m_clock.nsecsElapsed();
    while (true) {
        if (m_current) {
            const double dueNs = m_current->endMs / m_options.timeScale * 1e6;
            const double nowNs = double(m_clock.nsecsElapsed());
            if (nowNs < dueNs) {
                m_tick->start(int(std::ceil((dueNs - nowNs) / 1e6)));
                return;
            }
            m_maxLagWallMs = std::max(m_maxLagWallMs, (nowNs - dueNs) / 1e6);
            const Iteration done = std::move(*m_current);
            m_current.reset();
            m_lastEndMs = done.endMs;
            deliver(done);
        }
        if (!m_model.hasWork()) {
            m_chained = false;
            return;
        }
        if (m_clock.nsecsElapsed() - passStart > maxPassNs) {
            m_tick->start(0); // catching up: let the sockets have a turn
            return;
        }
        double start = simNowMs();
        if (m_chained) {
            // Back to back: the next iteration starts where the last one ended, so timer latency does not
            // accumulate; when far behind (an overloaded machine), give up the lost time instead.
            if (start - m_lastEndMs <= resyncWallMs * m_options.timeScale)
                start = m_lastEndMs;
            else
                ++m_resyncs;
        }
        startIteration(start);
        m_chained = true;
    }
}

void SimServer::Private::startIteration(double startMs)
{
    m_current = m_model.runIteration(startMs);
    ++m_iterations;
    if (m_current->endMs > m_current->startMs) {
        m_busyTotalMs += m_current->endMs - m_current->startMs;
        m_busySpans.emplace_back(m_current->startMs, m_current->endMs);
        while (!m_busySpans.empty() && m_busySpans.front().second < m_current->startMs - SimGpuModel::kWindowMs)
            m_busySpans.pop_front();
    }
    for (std::size_t i = 0; i < m_current->admitted.size(); ++i) {
        if (const auto it = m_requests.find(m_current->admitted[i]); it != m_requests.end()) {
            GroundTruth& t = it->second->truth;
            if (t.admittedMs < 0) {
                t.admittedMs = std::max(m_current->startMs, t.acceptedMs);
                t.cachedTokens = m_current->admittedCachedTokens[i]; // the first admission's, as vLLM reports
            }
        }
    }
    for (const quint64 id : m_current->preempted) {
        if (const auto it = m_requests.find(id); it != m_requests.end())
            ++it->second->truth.preemptions;
    }
    for (const TokenEvent& token : m_current->tokens) {
        if (!token.last)
            continue;
        if (const auto it = m_requests.find(token.id); it != m_requests.end())
            it->second->inModel = false;
    }
}

void SimServer::Private::deliver(const Iteration& iteration)
{
    for (const TokenEvent& token : iteration.tokens) {
        const auto it = m_requests.find(token.id);
        if (it == m_requests.end() || it->second->conn->dead)
            continue;
        deliverToken(*it->second, token.tokenIndex, token.last, iteration.endMs);
    }
}

int SimServer::Private::drawReasoningTokens()
{
    const SimReasoning& spec = m_options.reasoning;
    if (!spec.isEnabled())
        return -1;
    if (spec.max == spec.min)
        return spec.max;
    return spec.min + int(m_reasoningRng() % quint64(spec.max - spec.min + 1));
}

void SimServer::Private::deliverToken(Request& r, int index, bool last, double generatedMs)
{
    if (index == 0) {
        m_ttft.observe(std::max(0.0, generatedMs - r.truth.acceptedMs) / 1000.0);
        r.truth.firstGeneratedMs = generatedMs;
    }
    if (last)
        r.truth.lastGeneratedMs = generatedMs;

    if (!r.stream) {
        if (!last)
            return;
        QByteArray text;
        QByteArray reasoning;
        text.reserve(r.targetTokens * 8);
        for (int i = 0; i < r.targetTokens; ++i)
            (i < r.reasoningTokens ? reasoning : text) += outputWord(r.id, i);
        const Endpoint endpoint = r.format.endpoint();
        const int cached = std::max(0, r.truth.cachedTokens);
        // Reasoning is drawn for chat completions only, so the other shapes carry the answer alone.
        QByteArray body = endpoint == Endpoint::Embeddings ? r.format.embeddingsBody(r.inputs, r.promptTokens)
            : hasTypedEvents(endpoint)
            ? r.format.typedFullBody(text, r.finishReason, r.promptTokens, r.targetTokens, cached)
            : r.format.fullBody(
                text, r.finishReason, r.promptTokens, r.targetTokens, cached, reasoning, r.reasoningTokens);
        QByteArray head = "HTTP/1.1 200 OK\r\nserver: kneepoint-sim\r\ncontent-type: application/json\r\n"
                          "content-length: "
            + QByteArray::number(body.size())
            + "\r\nx-request-id: " + (r.truth.requestId.isEmpty() ? r.truth.responseId : r.truth.requestId) + "\r\n";
        if (!r.keepAlive)
            head += "connection: close\r\n";
        head += "\r\n";
        if (r.fault == FaultKind::Cut) {
            writeOut(r, head + body.left(body.size() / 2), 0, 0, false);
            return cut(r);
        }
        if (r.fault == FaultKind::Malformed) {
            // Half the JSON, padded to the declared length: the framing stays intact, the body does not parse.
            const qsizetype size = body.size();
            body.truncate(size / 2);
            body = body.leftJustified(size, ' ');
        }
        if (r.fault == FaultKind::Stall)
            holdOutput(r, simNowMs() + m_options.faults.stallSeconds * 1000.0);
        r.truth.outputTokens = endpoint == Endpoint::Embeddings ? 0 : r.targetTokens;
        return output(r, head + body, 0, 0, true);
    }

    const bool typedEvents = hasTypedEvents(r.format.endpoint());
    bool malformed = false;
    if (index == r.faultToken) {
        switch (r.fault) {
        case FaultKind::Cut:
            return cut(r);
        case FaultKind::ErrorBody: {
            if (r.inModel) {
                m_model.abort(r.id);
                r.inModel = false;
            }
            r.outcome = "error";
            QByteArray bytes = frame(
                r.format.streamErrorEvent(500, QStringLiteral("Injected fault: error in the stream")), r.chunked);
            if (r.chunked)
                bytes += "0\r\n\r\n";
            return output(r, bytes, 0, 1, true);
        }
        case FaultKind::Malformed:
            malformed = true;
            break;
        case FaultKind::Stall:
            holdOutput(r, simNowMs() + m_options.faults.stallSeconds * 1000.0);
            break;
        default:
            break;
        }
    }

    const QByteArray word = outputWord(r.id, index);
    QByteArray bytes;
    int events = 0;
    if (index == 0) {
        if (const QByteArray start = r.format.startEvents(r.promptTokens, std::max(0, r.truth.cachedTokens));
            !start.isEmpty()) {
            bytes += frame(start, r.chunked);
            ++events;
        }
    }
    const char* finish = last ? r.finishReason : nullptr;
    bytes += frame(malformed            ? r.format.malformedEvent(word)
            : typedEvents               ? r.format.typedTokenEvent(word, index)
            : index < r.reasoningTokens ? r.format.reasoningEvent(word, finish)
                                        : r.format.tokenEvent(word, finish),
        r.chunked);
    ++events;
    int tokens = 1;
    if (last && r.includeUsage && m_options.usageDelaySeconds > 0) {
        output(r, std::exchange(bytes, {}), tokens, events, false);
        holdOutput(r, simNowMs() + m_options.usageDelaySeconds * 1000.0);
        tokens = events = 0;
    }
    if (last && typedEvents) {
        QByteArray text;
        for (int i = 0; i < r.targetTokens; ++i)
            text += outputWord(r.id, i);
        bytes += frame(
            r.format.endEvents(text, r.finishReason, r.promptTokens, r.targetTokens, std::max(0, r.truth.cachedTokens)),
            r.chunked);
        ++events;
        if (r.chunked)
            bytes += "0\r\n\r\n";
    } else if (last) {
        if (r.includeUsage) {
            bytes += frame(r.format.usageEvent(
                               r.promptTokens, r.targetTokens, std::max(0, r.truth.cachedTokens), r.reasoningTokens),
                r.chunked);
            ++events;
        }
        bytes += frame(CompletionFormat::doneEvent(), r.chunked);
        if (r.chunked)
            bytes += "0\r\n\r\n";
    }
    output(r, std::move(bytes), tokens, events, last);
}

void SimServer::Private::holdOutput(Request& r, double untilMs)
{
    r.holdUntilMs = std::max(r.holdUntilMs, untilMs);
    QTimer::singleShot(
        wallDelayMs(r.holdUntilMs), Qt::PreciseTimer, r.conn->socket, [this, id = r.id] { flushHeld(id); });
}

void SimServer::Private::flushHeld(quint64 id)
{
    const auto it = m_requests.find(id);
    if (it == m_requests.end())
        return;
    Request& r = *it->second;
    if (r.holdUntilMs < 0 || r.conn->dead)
        return;
    if (simNowMs() < r.holdUntilMs) {
        holdOutput(r, r.holdUntilMs);
        return;
    }
    r.holdUntilMs = -1;
    const QByteArray bytes = std::exchange(r.held, {});
    const int tokens = std::exchange(r.heldTokens, 0);
    const int events = std::exchange(r.heldEvents, 0);
    const bool finish = std::exchange(r.heldFinish, false);
    if (!bytes.isEmpty() || finish)
        writeOut(r, bytes, tokens, events, finish);
}

void SimServer::Private::output(Request& r, QByteArray bytes, int tokens, int events, bool finish)
{
    if (r.holdUntilMs >= 0) {
        r.held += bytes;
        r.heldTokens += tokens;
        r.heldEvents += events;
        r.heldFinish = r.heldFinish || finish;
        return;
    }
    writeOut(r, bytes, tokens, events, finish);
}

void SimServer::Private::writeOut(Request& r, const QByteArray& bytes, int tokens, int events, bool finish)
{
    // Taken before the write: from this moment the client may read the bytes, so no client can
    // see them earlier than the ground truth says.
    const double now = simNowMs();
    if (!write(r.conn, bytes))
        return; // the connection is gone: reap() ends the request
    if (tokens > 0 && r.truth.firstTokenMs < 0)
        r.truth.firstTokenMs = now;
    for (int i = 0; i < tokens; ++i)
        r.truth.tokenMs.push_back(now);
    r.truth.events += events;
    if (finish)
        finishRequest(r, r.outcome);
}

void SimServer::Private::cut(Request& r)
{
    r.keepAlive = false;
    r.conn->closing = true;
    Connection* c = r.conn;
    finishRequest(r, "cut");
    if (!c->dead)
        c->socket->disconnectFromHost();
}

void SimServer::Private::finishRequest(Request& r, const char* outcome)
{
    Connection* c = r.conn;
    GroundTruth& t = r.truth;
    t.finishedMs = simNowMs();
    t.outcome = outcome;
    if (r.stream)
        t.outputTokens = int(t.tokenMs.size());
    const std::string_view kind(outcome);
    if (kind == "completed") {
        t.finishReason = r.finishReason;
        if (std::string_view(r.finishReason) == "stop")
            ++m_successStop;
        else
            ++m_successLength;
        m_e2e.observe(std::max(0.0, t.finishedMs - t.acceptedMs) / 1000.0);
        if (t.admittedMs >= 0 && t.firstGeneratedMs >= 0 && t.lastGeneratedMs >= 0) {
            const RequestPhases p = requestPhases(t);
            m_queue.observe(p.queueMs / 1000.0);
            m_prefill.observe(p.prefillMs / 1000.0);
            m_decode.observe(p.decodeMs / 1000.0);
            m_inference.observe(p.inferenceMs / 1000.0);
        }
    } else if (kind == "aborted" || kind == "cut") {
        t.finishReason = "abort";
        ++m_successAbort;
    }
    if (r.inModel) {
        m_model.abort(r.id);
        r.inModel = false;
    }
    const bool keepAlive = r.keepAlive;
    m_requests.erase(r.id);
    --m_inFlight;
    ++m_finishedTotal;
    recordTruth(std::move(t));
    c->active.reset(); // r is gone from here on
    if (c->dead || c->closing)
        return;
    if (!keepAlive)
        closeConnection(c);
    else
        processBuffer(c);
}

void SimServer::Private::dropConnections()
{
    std::vector<QTcpSocket*> sockets;
    sockets.reserve(m_connections.size());
    for (const auto& [socket, conn] : m_connections)
        sockets.push_back(socket);
    for (QTcpSocket* socket : sockets) {
        QObject::disconnect(socket, nullptr, nullptr, nullptr);
        const auto it = m_connections.find(socket);
        Connection* c = it->second.get();
        c->dead = true;
        if (c->active)
            finishRequest(*c->active, "aborted");
        m_connections.erase(it);
        socket->abort();
        // Not deleted at once: a queued reap() may still name this socket, and must not find a new one there.
        socket->deleteLater();
    }
}

SimServer::SimServer(SimServerOptions options, QObject* parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(options)))
{ }

SimServer::~SimServer()
{
    d->m_listener->close();
    d->dropConnections();
}

bool SimServer::listen(const QHostAddress& address, quint16 port)
{
    d->m_listener->setListenBacklogSize(d->m_options.listenBacklog);
    if (!d->m_listener->listen(address, port)) {
        d->m_error = QStringLiteral("cannot listen on %1:%2: %3")
                         .arg(address.toString())
                         .arg(port)
                         .arg(d->m_listener->errorString());
        return false;
    }
    d->m_error.clear();
    d->m_clock.restart();
    d->m_lastEndMs = 0;
    d->m_chained = false;
    qCDebug(lcSim) << "listening on" << baseUrl().toString() << "model" << d->m_options.params.modelId << "time scale"
                   << d->m_options.timeScale;
    return true;
}

void SimServer::close()
{
    d->m_listener->close();
    d->dropConnections();
}

bool SimServer::isListening() const
{
    return d->m_listener->isListening();
}

QHostAddress SimServer::serverAddress() const
{
    return d->m_listener->serverAddress();
}

quint16 SimServer::serverPort() const
{
    return d->m_listener->serverPort();
}

QUrl SimServer::baseUrl() const
{
    if (!isListening())
        return {};
    QHostAddress host = serverAddress();
    if (host == QHostAddress::AnyIPv4 || host == QHostAddress::Any)
        host = QHostAddress(QHostAddress::LocalHost);
    else if (host == QHostAddress::AnyIPv6)
        host = QHostAddress(QHostAddress::LocalHostIPv6);
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host.toString());
    url.setPort(serverPort());
    return url;
}

QString SimServer::errorString() const
{
    return d->m_error;
}

const SimServerOptions& SimServer::options() const
{
    return d->m_options;
}

int SimServer::inFlight() const
{
    return d->m_inFlight.load();
}

int SimServer::peakInFlight() const
{
    return d->m_peakInFlight.load();
}

void SimServer::resetPeakInFlight()
{
    d->m_peakInFlight.store(d->m_inFlight.load());
}

} // namespace kp::sim
