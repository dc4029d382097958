#pragma once

#include "client/requestbuilder.h"
#include "client/transport.h"
#include "telemetry/environment.h"
#include "telemetry/servermetrics.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <functional>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace kp {

struct TelemetryOptions
{
    // Every URL is scraped each interval: model servers (a known engine's names) and GPU exporters
    // (DCGM's or AMD's names). Empty: no scraping (and no /version, /v1/models).
    QList<QUrl> metricsUrls;
    QUrl versionUrl; // GET /version; empty: not asked
    QUrl modelsUrl; // GET /v1/models; empty: not asked
    double intervalS = 1.0; // on the server's clock (ServerFacts::timeScale), at least 50 ms
    HeaderList headers; // sent with every scrape (Authorization, the target's extra headers)
    TransportOptions transport; // proxy and TLS verification as the load uses them

    bool enabled() const
    {
        return std::any_of(
            metricsUrls.begin(), metricsUrls.end(), [](const QUrl& u) { return u.isValid() && !u.isEmpty(); });
    }
};

// Scrapes a server's Prometheus /metrics while steps run. Lives in (and is used from) one thread
// with an event loop: the sweep's controller thread.
//   prepare(): GET /version, /v1/models and each metrics URL once per sweep; a URL that does not answer
//              with metrics of a known engine or GPU exporter gets a note() and is not scraped.
//   beginStep(): a scrape of every URL at once (the baseline), then one every interval; a round ends
//              when every URL has answered and gives one combined sample (and one per URL).
//   endStep(done): a last scrape, then done(samples and their statistics).
class TelemetryScraper : public QObject
{
    Q_OBJECT
public:
    explicit TelemetryScraper(QObject* parent = nullptr);
    ~TelemetryScraper() override;

    void setOptions(const TelemetryOptions& options);
    const TelemetryOptions& options() const { return m_options; }

    void prepare(std::function<void()> done);
    void beginStep();
    // done may run before endStep returns (nothing to wait for).
    void endStep(std::function<void(StepTelemetry)> done);
    void abort(); // drops what is in flight; no callback runs

    bool available() const { return m_available; }
    const ServerFacts& facts() const { return m_facts; }

Q_SIGNALS:
    void note(const QString& text);
    void sampled(const kp::ServerSample& sample); // each scrape of the running step

private:
    struct Endpoint
    {
        QUrl url;
        QString display; // without user info
        const ServerMetricNames* names = nullptr; // a model server's
        bool exporter = false; // GPU metrics without a known engine's
        bool usable = false;
        std::optional<ServerSample> round; // this round's sample
        std::vector<ServerSample> samples;
    };

    QNetworkReply* get(const QUrl& url);
    void scrape();
    void onMetrics(QNetworkReply* reply, int endpoint);
    void finishRound();
    bool keepApart() const;
    void finishPrepare();
    void completeStep();
    static QString failure(QNetworkReply* reply);

    TelemetryOptions m_options;
    QNetworkAccessManager* m_nam = nullptr;
    ServerFacts m_facts;
    std::vector<Endpoint> m_endpoints;
    bool m_available = false;
    int m_preparePending = 0;
    std::function<void()> m_prepared;
    QTimer m_timer;
    QElapsedTimer m_clock;
    bool m_inStep = false;
    std::vector<QNetworkReply*> m_inFlight; // this round's replies still to come
    bool m_finishing = false;
    bool m_finalIssued = false;
    std::function<void(StepTelemetry)> m_stepDone;
    std::vector<ServerSample> m_samples;
};

} // namespace kp
