#include "telemetry/scraper.h"

#include "client/errorwords.h"
#include "client/networkclient.h"
#include "metrics/phrase.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>

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
}

void TelemetryScraper::setOptions(const TelemetryOptions& options)
{
    m_options = options;
    m_facts = ServerFacts {};
    m_facts.metricsUrl = options.metricsUrl.toString(QUrl::RemoveUserInfo);
    m_names = nullptr;
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
    const QNetworkRequest req
        = client.request(url, std::max(kMinTimeoutMs, static_cast<int>(m_options.intervalS * 2000.0)));
    return m_nam->get(req);
}

QString TelemetryScraper::failure(QNetworkReply* reply)
{
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 0 && (status < 200 || status >= 300))
        return QStringLiteral("HTTP %1").arg(status);
    if (reply->error() != QNetworkReply::NoError)
        return errorWords(reply->error()); // written to run.json: English under any language
    return {};
}

void TelemetryScraper::prepare(std::function<void()> done)
{
    m_prepared = std::move(done);
    if (!m_options.enabled()) {
        finishPrepare();
        return;
    }
    m_preparePending = 1;
    if (!m_options.versionUrl.isEmpty()) {
        ++m_preparePending;
        QNetworkReply* reply = get(m_options.versionUrl);
        connect(reply, &QNetworkReply::finished, this, [this, reply] {
            reply->deleteLater();
            if (failure(reply).isEmpty())
                m_facts.readVersion(reply->readAll());
            if (--m_preparePending == 0)
                finishPrepare();
        });
    }
    if (!m_options.modelsUrl.isEmpty()) {
        ++m_preparePending;
        QNetworkReply* reply = get(m_options.modelsUrl);
        connect(reply, &QNetworkReply::finished, this, [this, reply] {
            reply->deleteLater();
            if (failure(reply).isEmpty())
                m_facts.readModels(reply->readAll());
            if (--m_preparePending == 0)
                finishPrepare();
        });
    }
    QNetworkReply* reply = get(m_options.metricsUrl);
    connect(reply, &QNetworkReply::finished, this, [this, reply] {
        reply->deleteLater();
        const QString url = m_options.metricsUrl.toString(QUrl::RemoveUserInfo);
        const QString failed = failure(reply);
        Sentence unusable; // the answer came but holds no metrics Kneepoint reads
        if (failed.isEmpty()) {
            const PromText text = PromText::parse(reply->readAll());
            m_names = detectServerMetrics(text);
            if (!m_names) {
                unusable = text.samples.empty()
                    ? sentence("TelemetryScraper", "no Prometheus samples")
                    : sentence("TelemetryScraper", "none of vLLM's, SGLang's or TGI's metric names");
            } else {
                m_facts.metricsEngine = QString::fromLatin1(m_names->engine);
                if (m_names->modelLabel) {
                    const char* probe = m_names->running ? m_names->running : m_names->waiting;
                    m_facts.metricsModel = QString::fromUtf8(text.labelOf(probe, m_names->modelLabel));
                }
            }
        }
        m_available = failed.isEmpty() && unusable.isEmpty();
        if (!m_available) {
            // The environment is written to files: in English; the note is for the window.
            m_facts.metricsUnavailable
                = QStringLiteral("%1: %2").arg(url, failed.isEmpty() ? unusable.english() : failed);
            Q_EMIT note(phrase("TelemetryScraper", "no server metrics (%1: %2); the sweep goes on without them")
                            .arg(url, failed.isEmpty() ? unusable.text() : failed));
        }
        if (--m_preparePending == 0)
            finishPrepare();
    });
}

void TelemetryScraper::finishPrepare()
{
    if (auto done = std::exchange(m_prepared, {}))
        done();
}

void TelemetryScraper::beginStep()
{
    m_samples.clear();
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

void TelemetryScraper::scrape()
{
    if (!m_inStep || m_inFlight)
        return;
    QNetworkReply* reply = get(m_options.metricsUrl);
    m_inFlight = reply;
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onMetrics(reply); });
}

void TelemetryScraper::onMetrics(QNetworkReply* reply)
{
    reply->deleteLater();
    if (reply != m_inFlight)
        return;
    m_inFlight = nullptr;
    const double atS = double(m_clock.nsecsElapsed()) * 1e-9;
    if (failure(reply).isEmpty() && m_names) {
        const PromText text = PromText::parse(reply->readAll());
        ServerSample sample = ServerSample::extract(text, *m_names, atS);
        m_samples.push_back(sample);
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
    if (!m_inFlight) {
        m_finalIssued = true;
        scrape();
    }
}

void TelemetryScraper::completeStep()
{
    m_inStep = false;
    m_finishing = false;
    StepTelemetry telemetry;
    telemetry.samples = std::move(m_samples);
    m_samples.clear();
    telemetry.stats
        = ServerStepStats::derive(telemetry.samples, m_facts.metricsEngine, m_facts.metricsModel, m_facts.timeScale);
    if (auto done = std::exchange(m_stepDone, {}))
        done(std::move(telemetry));
}

void TelemetryScraper::abort()
{
    m_timer.stop();
    m_inStep = false;
    m_finishing = false;
    m_stepDone = {};
    m_prepared = {};
    if (QNetworkReply* reply = std::exchange(m_inFlight, nullptr)) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

} // namespace kp
