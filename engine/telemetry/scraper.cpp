#include "telemetry/scraper.h"

#include "client/errorwords.h"
#include "client/networkclient.h"
#include "metrics/phrase.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>
#include <QThread>

#include <algorithm>
#include <cmath>

namespace kp {

namespace {
constexpr int kMinTimeoutMs = 2000;
} // namespace

TelemetryScraper::TelemetryScraper(QObject* parent)
    : QObject(parent)
    , m_timer(this)
{
    qRegisterMetaType<kp::ServerSample>();
    connect(&m_timer, &QTimer::timeout, this, &TelemetryScraper::scrape);
}

TelemetryScraper::~TelemetryScraper()
{
    abort();
    if (m_parseThread) {
        // A parse still running posts its result to this object; it is dropped with it.
        m_parseThread->quit();
        m_parseThread->wait();
        delete m_parser;
    }
}

void TelemetryScraper::setOptions(const TelemetryOptions& options)
{
    m_options = options;
    m_facts = ServerFacts {};
    m_endpoints.clear();
    m_samples = ServerSeries(options.maxStepSamples);
    m_stats = {};
    for (const QUrl& url : options.metricsUrls) {
        if (url.isValid() && !url.isEmpty()) {
            Endpoint e;
            e.samples = ServerSeries(options.maxStepSamples);
            e.url = url;
            e.display = url.toString(QUrl::RemoveUserInfo);
            m_endpoints.push_back(std::move(e));
        }
    }
    if (!m_endpoints.empty())
        m_facts.metricsUrl = m_endpoints.front().display;
    for (const Endpoint& e : m_endpoints)
        m_facts.metricsUrls << e.display;
    m_available = false;
    if (m_nam) {
        delete m_nam;
        m_nam = nullptr;
    }
}

QNetworkReply* TelemetryScraper::get(const QUrl& url)
{
    const NetworkClient client(m_options.transport, m_options.headers);
    if (!m_nam)
        m_nam = client.makeManager(this);
    return m_nam->get(client.request(url, timeoutMs()));
}

int TelemetryScraper::timeoutMs() const
{
    return std::max(kMinTimeoutMs, static_cast<int>(m_options.intervalS * 2000.0));
}

QString TelemetryScraper::failure(QNetworkReply* reply) const
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 0 && (status < 200 || status >= 300))
        return QStringLiteral("HTTP %1").arg(status);
    // Written to run.json: English under any language. Qt ends a transfer that is silent for the
    // request's transfer timeout as "operation canceled" (abort() disconnects before it cancels).
    if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError)
        return QStringLiteral("no answer within %1 s").arg(timeoutMs() / 1000.0);
    if (reply->error() != QNetworkReply::NoError)
        return errorWords(reply->error());
    return {};
}

QNetworkReply* TelemetryScraper::fetch(const QUrl& url, std::function<void(Fetched)> done)
{
    QNetworkReply* reply = get(url);
    auto callback = std::make_shared<std::function<void(Fetched)>>(std::move(done));
    const qint64 cap = std::max<qint64>(1, m_options.maxBodyBytes);
    // Qt keeps the whole body in memory: past the cap, keep the cap's worth and stop the transfer.
    connect(reply, &QNetworkReply::readyRead, this, [reply, callback, cap] {
        if (reply->bytesAvailable() <= cap || !*callback)
            return;
        Fetched f;
        f.body = reply->read(cap);
        f.cut = true;
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status != 0 && (status < 200 || status >= 300))
            f.failure = QStringLiteral("HTTP %1").arg(status);
        reply->disconnect();
        reply->abort();
        reply->deleteLater();
        std::exchange(*callback, {})(std::move(f));
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, callback, cap] {
        reply->deleteLater();
        if (!*callback)
            return;
        Fetched f;
        f.failure = failure(reply);
        if (f.failure.isEmpty()) {
            f.cut = reply->bytesAvailable() > cap;
            f.body = reply->read(cap);
        }
        std::exchange(*callback, {})(std::move(f));
    });
    return reply;
}

void TelemetryScraper::prepare(std::function<void()> done)
{
    m_prepared = std::move(done);
    if (!m_options.enabled()) {
        finishPrepare();
        return;
    }
    m_preparePending = 1; // until every request is out
    if (!m_options.versionUrl.isEmpty()) {
        ++m_preparePending;
        fetch(m_options.versionUrl, [this](Fetched f) {
            if (f.failure.isEmpty() && !f.cut)
                m_facts.readVersion(f.body);
            if (--m_preparePending == 0)
                finishPrepare();
        });
    }
    if (!m_options.modelsUrl.isEmpty()) {
        ++m_preparePending;
        fetch(m_options.modelsUrl, [this](Fetched f) {
            if (f.failure.isEmpty() && !f.cut)
                m_facts.readModels(f.body);
            if (--m_preparePending == 0)
                finishPrepare();
        });
    }
    for (std::size_t i = 0; i < m_endpoints.size(); ++i) {
        ++m_preparePending;
        fetch(m_endpoints[i].url, [this, i](Fetched f) {
            Endpoint& e = m_endpoints[i];
            const QString failed = f.failure;
            Sentence unusable; // the answer came but holds no metrics Kneepoint reads
            if (failed.isEmpty()) {
                if (f.cut)
                    noteCut(e);
                const PromText text = f.cut ? PromText::parseCut(f.body) : PromText::parse(f.body);
                e.names = detectServerMetrics(text);
                e.exporter = !e.names && detectGpuMetrics(text);
                if (!e.names && !e.exporter) {
                    unusable = text.samples.empty()
                        ? sentence("TelemetryScraper", "no Prometheus samples")
                        : sentence("TelemetryScraper", "none of vLLM's, SGLang's or TGI's metric names");
                } else if (e.names && m_facts.metricsEngine.isEmpty()) {
                    m_facts.metricsEngine = QString::fromLatin1(e.names->engine);
                    if (e.names->modelLabel) {
                        const char* probe = e.names->running ? e.names->running : e.names->waiting;
                        m_facts.metricsModel = QString::fromUtf8(text.labelOf(probe, e.names->modelLabel));
                    }
                }
            }
            e.usable = failed.isEmpty() && unusable.isEmpty();
            if (!e.usable) {
                // The environment is written to files: in English; the note is for the window.
                const QString line
                    = QStringLiteral("%1: %2").arg(e.display, failed.isEmpty() ? unusable.english() : failed);
                m_facts.metricsUnavailable = m_facts.metricsUnavailable.isEmpty()
                    ? line
                    : m_facts.metricsUnavailable + QStringLiteral("; ") + line;
                Q_EMIT note(phrase("TelemetryScraper", "no server metrics (%1: %2); the sweep goes on without them")
                                .arg(e.display, failed.isEmpty() ? unusable.text() : failed));
            }
            m_available
                = std::any_of(m_endpoints.begin(), m_endpoints.end(), [](const Endpoint& x) { return x.usable; });
            if (--m_preparePending == 0)
                finishPrepare();
        });
    }
    if (--m_preparePending == 0)
        finishPrepare();
}

void TelemetryScraper::finishPrepare()
{
    if (auto done = std::exchange(m_prepared, {}))
        done();
}

std::size_t TelemetryScraper::heldSamples() const
{
    std::size_t n = m_samples.size();
    for (const Endpoint& e : m_endpoints)
        n += e.samples.size();
    return n;
}

void TelemetryScraper::beginStep()
{
    m_samples.clear();
    m_stats = {};
    for (Endpoint& e : m_endpoints) {
        e.samples.clear();
        e.stats = {};
        e.round.reset();
        e.cutThisStep = 0;
    }
    m_finishing = m_finalIssued = false;
    m_stepDone = {};
    if (!m_available)
        return;
    m_inStep = true;
    m_clock.start();
    scrape();
    // The interval is on the server's clock: a simulator running F times faster is read F times as often.
    m_timer.start(std::max(50, static_cast<int>(std::lround(m_options.intervalS * 1000.0 / m_facts.timeScale))));
}

bool TelemetryScraper::keepApart() const
{
    const auto usable
        = std::count_if(m_endpoints.begin(), m_endpoints.end(), [](const Endpoint& e) { return e.usable; });
    return usable > 1 || std::any_of(m_endpoints.begin(), m_endpoints.end(), [](const Endpoint& e) {
        return e.usable && e.exporter;
    });
}

void TelemetryScraper::scrape()
{
    if (!m_inStep || !m_inFlight.empty() || m_parsing > 0)
        return;
    for (std::size_t i = 0; i < m_endpoints.size(); ++i) {
        if (!m_endpoints[i].usable)
            continue;
        // The reply is known only once fetch returns; its callback runs from the event loop, later.
        auto self = std::make_shared<QNetworkReply*>(nullptr);
        *self = fetch(m_endpoints[i].url, [this, self, i](Fetched f) { onMetrics(*self, int(i), std::move(f)); });
        m_inFlight.push_back(*self);
    }
}

void TelemetryScraper::onMetrics(QNetworkReply* reply, int endpoint, Fetched fetched)
{
    const auto it = std::find(m_inFlight.begin(), m_inFlight.end(), reply);
    if (it == m_inFlight.end())
        return;
    m_inFlight.erase(it);
    Endpoint& e = m_endpoints[std::size_t(endpoint)];
    if (fetched.failure.isEmpty()) {
        if (fetched.cut) {
            ++e.cutThisStep;
            noteCut(e);
        }
        if (!m_parseThread) {
            m_parseThread = new QThread(this);
            m_parseThread->setObjectName(QStringLiteral("kp-metrics-parse"));
            m_parser = new QObject;
            m_parser->moveToThread(m_parseThread);
            m_parseThread->start();
        }
        ++m_parsing;
        const double atS = double(m_clock.nsecsElapsed()) * 1e-9;
        const ServerMetricNames* names = e.names;
        const quint64 generation = m_generation;
        QMetaObject::invokeMethod(
            m_parser,
            [this, body = std::move(fetched.body), cut = fetched.cut, names, atS, generation, endpoint] {
                const PromText text = cut ? PromText::parseCut(body) : PromText::parse(body);
                ServerSample sample;
                if (names)
                    sample = ServerSample::extract(text, *names, atS);
                sample.atS = atS;
                if (const GpuMetricNames* gpu = detectGpuMetrics(text))
                    sample.extractGpu(text, *gpu);
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, endpoint, sample = std::move(sample)] {
                        onParsed(generation, endpoint, sample);
                    },
                    Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }
    if (m_inFlight.empty() && m_parsing == 0)
        finishRound();
}

void TelemetryScraper::onParsed(quint64 generation, int endpoint, ServerSample sample)
{
    if (generation != m_generation)
        return;
    --m_parsing;
    m_endpoints[std::size_t(endpoint)].round = std::move(sample);
    if (m_inFlight.empty() && m_parsing == 0)
        finishRound();
}

void TelemetryScraper::noteCut(Endpoint& e)
{
    if (std::exchange(e.cutSaid, true))
        return;
    Q_EMIT note(phrase("TelemetryScraper",
        "the metrics of %1 are longer than %2 MiB: each scrape is read up to there and the metrics after "
        "it are left out")
                    .arg(e.display)
                    .arg(double(m_options.maxBodyBytes) / (1024 * 1024), 0, 'g', 3));
}

void TelemetryScraper::finishRound()
{
    std::vector<ServerSample> parts;
    std::size_t usable = 0;
    const bool apart = keepApart(); // one URL's series would only repeat the combined one
    for (Endpoint& e : m_endpoints) {
        usable += e.usable ? 1 : 0;
        if (!e.round)
            continue;
        parts.push_back(*e.round);
        if (apart) {
            e.round->url = e.display;
            e.stats.add(*e.round);
            e.samples.add(std::move(*e.round));
        }
        e.round.reset();
    }
    if (!parts.empty()) {
        const double atS = double(m_clock.nsecsElapsed()) * 1e-9;
        ServerSample sample = parts.size() == 1 ? parts.front() : ServerSample::combine(parts, atS);
        // A round some URL did not answer would make the added-up counters dip, which reads as a reset.
        if (parts.size() < usable)
            sample.dropCounters();
        m_stats.add(sample);
        m_samples.add(sample);
        Q_EMIT sampled(sample);
    }
    if (!m_finishing)
        return;
    if (!m_finalIssued) {
        m_finalIssued = true;
        scrape();
        return;
    }
    completeStep();
}

void TelemetryScraper::endStep(std::function<void(StepTelemetry)> done)
{
    m_timer.stop();
    if (!m_inStep) {
        done(StepTelemetry {});
        return;
    }
    m_stepDone = std::move(done);
    m_finishing = true;
    if (m_inFlight.empty() && m_parsing == 0) {
        m_finalIssued = true;
        scrape();
    }
}

void TelemetryScraper::completeStep()
{
    m_inStep = false;
    m_finishing = false;
    StepTelemetry telemetry;
    telemetry.samples = m_samples.take();
    telemetry.stats = m_stats.stats(m_facts.metricsEngine, m_facts.metricsModel, m_facts.timeScale);
    m_stats = {};
    int cut = 0;
    for (const Endpoint& e : m_endpoints)
        cut += e.cutThisStep;
    if (telemetry.stats)
        telemetry.stats->scrapesCut = cut;
    if (telemetry.stats && keepApart()) {
        for (Endpoint& e : m_endpoints) {
            if (!e.usable)
                continue;
            const QString engine = e.names ? QString::fromLatin1(e.names->engine) : QString();
            std::optional<ServerStepStats> st = e.stats.stats(engine, {}, m_facts.timeScale);
            e.stats = {};
            if (!st) {
                st.emplace();
                st->engine = engine;
            }
            st->url = e.display;
            st->scrapesCut = e.cutThisStep;
            // KV usage of all servers: the mean of their means (the combined samples), the highest of their highs.
            if (st->kvUsageMax && (!telemetry.stats->kvUsageMax || *st->kvUsageMax > *telemetry.stats->kvUsageMax))
                telemetry.stats->kvUsageMax = st->kvUsageMax;
            telemetry.stats->servers.push_back(std::move(*st));
            telemetry.serverSamples.push_back(e.samples.take());
        }
    }
    for (Endpoint& e : m_endpoints) {
        e.samples.clear();
        e.stats = {};
    }
    if (auto done = std::exchange(m_stepDone, {}))
        done(std::move(telemetry));
}

void TelemetryScraper::abort()
{
    ++m_generation;
    m_parsing = 0;
    m_timer.stop();
    m_inStep = false;
    m_finishing = false;
    m_stepDone = {};
    m_prepared = {};
    for (QNetworkReply* reply : std::exchange(m_inFlight, {})) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

} // namespace kp
