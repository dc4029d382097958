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
class QThread;

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
    // A /metrics body is read up to this many bytes; a longer one is cut there (its last, perhaps
    // partial, metric family left out) and the cut is said once per URL and counted per step.
    qint64 maxBodyBytes = qint64(16) << 20;
    TransportOptions transport; // proxy and TLS verification as the load uses them
    // The scrapes a step keeps for its metrics file, of all URLs together and of each URL: a longer step's
    // are thinned evenly (ServerSeries). The step's statistics are folded from every scrape as it comes.
    std::size_t maxStepSamples = ServerSeries::kDefaultLimit;

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
// A step holds its statistics folded as the scrapes come (ServerStatsAccumulator) and a bounded series of
// them (ServerSeries) for its metrics file: its memory does not grow with the step's length.
// A scrape's text is parsed on a thread of its own, so a large body costs the controller thread (the
// dispatch timer's) only its arrival; a round ends when every URL's text is parsed.
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
    // The samples the running step holds (all URLs together and each URL's): at most
    // maxStepSamples per series, however many scrapes it took.
    std::size_t heldSamples() const;
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
        bool cutSaid = false; // the note that its body is cut was given (once per sweep)
        int cutThisStep = 0; // scrapes of this step whose body was cut
        std::optional<ServerSample> round; // this round's sample
        ServerStatsAccumulator stats; // this step's, every scrape
        ServerSeries samples;
    };
    // What one GET gave: the body (at most maxBodyBytes), whether it was cut there, why it failed.
    struct Fetched
    {
        QByteArray body;
        bool cut = false;
        QString failure;
    };

    QNetworkReply* get(const QUrl& url);
    int timeoutMs() const;
    // GET url; done runs once, when the body is complete, cut at the cap, or failed.
    QNetworkReply* fetch(const QUrl& url, std::function<void(Fetched)> done);
    void scrape();
    void onMetrics(QNetworkReply* reply, int endpoint, Fetched fetched);
    void onParsed(quint64 generation, int endpoint, ServerSample sample);
    void noteCut(Endpoint& e);
    void finishRound();
    bool keepApart() const;
    void finishPrepare();
    void completeStep();
    QString failure(QNetworkReply* reply) const;

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
    int m_parsing = 0; // this round's texts still being parsed
    quint64 m_generation = 0; // bumped by abort(): parses of an earlier one are dropped
    QThread* m_parseThread = nullptr; // started at the first scrape
    QObject* m_parser = nullptr; // lives in m_parseThread
    bool m_finishing = false;
    bool m_finalIssued = false;
    std::function<void(StepTelemetry)> m_stepDone;
    ServerStatsAccumulator m_stats; // the step's, all URLs together
    ServerSeries m_samples;
};

} // namespace kp
