// How much load the simulator sustains on one core: requests/s with short streams, events/s with
// many long ones, and the cost of a realistic load in real time. The server runs on its own thread
// (one core at most: it is single-threaded); a raw-socket driver loads it from the main thread.

#include "sim/filelimit.h"
#include "sim/simhost.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <vector>

#include <pthread.h>
#include <sched.h>

using namespace kp::sim;

namespace {

double cpuSeconds(clockid_t clock)
{
    timespec ts {};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

bool pinCurrentThread(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

int usableCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return 1;
    return CPU_COUNT(&set);
}

void runFor(double seconds)
{
    QEventLoop loop;
    QTimer::singleShot(int(seconds * 1000), &loop, &QEventLoop::quit);
    loop.exec();
}

QByteArray streamRequest(const QString& model, int maxTokens)
{
    const QByteArray body = QJsonDocument(
        QJsonObject { { QStringLiteral("model"), model },
            { QStringLiteral("prompt"), QStringLiteral("a b c d e f g h") },
            { QStringLiteral("max_tokens"), maxTokens }, { QStringLiteral("ignore_eos"), true },
            { QStringLiteral("stream"),
                true } }).toJson(QJsonDocument::Compact);
    return "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

// Keeps `connections` streams going; with repeat, each connection sends its next request as soon as the
// previous response ends. Counts SSE events by their "\n\n" terminators and responses by the final chunk.
class Driver : public QObject
{
public:
    Driver(const QUrl& url, int connections, QByteArray request, bool repeat)
        : m_request(std::move(request))
        , m_repeat(repeat)
    {
        m_streams.resize(std::size_t(connections));
        for (Stream& s : m_streams) {
            s.socket = new QTcpSocket(this);
            Stream* stream = &s;
            connect(s.socket, &QTcpSocket::readyRead, this, [this, stream] { onData(*stream); });
            connect(s.socket, &QTcpSocket::disconnected, this, [this] { ++failures; });
            s.socket->connectToHost(QHostAddress::LocalHost, quint16(url.port()));
            s.socket->write(m_request);
        }
    }

    quint64 responses = 0;
    quint64 events = 0;
    quint64 failures = 0;

private:
    struct Stream
    {
        QTcpSocket* socket = nullptr;
        QByteArray tail; // the last bytes read, for terminators split across reads
    };

    void onData(Stream& s)
    {
        const QByteArray data = s.socket->readAll();
        const QByteArray joined = s.tail + data;
        const qsizetype from = s.tail.size() > 0 ? s.tail.size() - 1 : 0;
        for (qsizetype at = joined.indexOf("\n\n", from); at >= 0; at = joined.indexOf("\n\n", at + 2))
            ++events;
        s.tail = joined.right(8);
        if (s.tail.endsWith("\r\n0\r\n\r\n")) {
            ++responses;
            s.tail.clear();
            if (m_repeat)
                s.socket->write(m_request);
        }
    }

    std::vector<Stream> m_streams;
    QByteArray m_request;
    bool m_repeat;
};

QJsonObject serverStats(const QUrl& url, const QByteArray& method)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, quint16(url.port()));
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(method + " /debug/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    QByteArray reply;
    while (socket.waitForReadyRead(5000))
        reply += socket.readAll();
    reply += socket.readAll();
    return QJsonDocument::fromJson(reply.mid(reply.indexOf("\r\n\r\n") + 4)).object();
}

struct Result
{
    double seconds = 0;
    double responses = 0;
    double events = 0;
    double serverCpu = 0;
    double driverCpu = 0;
    QJsonObject stats;
    quint64 failures = 0;
};

Result measure(const SimServerOptions& options, int connections, int maxTokens, bool repeat, double warmup,
    double seconds, bool pin)
{
    SimHost host;
    if (!host.start(options)) {
        std::fprintf(stderr, "bench_sim: %s\n", qUtf8Printable(host.errorString()));
        std::exit(1);
    }
    clockid_t serverClock {};
    QMetaObject::invokeMethod(
        host.server(),
        [&] {
            if (pin)
                pinCurrentThread(0);
            pthread_getcpuclockid(pthread_self(), &serverClock);
        },
        Qt::BlockingQueuedConnection);

    Driver driver(host.baseUrl(), connections, streamRequest(options.params.modelId, maxTokens), repeat);
    runFor(warmup);
    // The blocking stats request stops the driver for a moment; let it drain what piled up meanwhile.
    serverStats(host.baseUrl(), "DELETE");
    runFor(0.5);
    const quint64 responses0 = driver.responses;
    const quint64 events0 = driver.events;
    const double server0 = cpuSeconds(serverClock);
    const double driver0 = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    QElapsedTimer wall;
    wall.start();
    runFor(seconds);
    Result r;
    r.seconds = double(wall.nsecsElapsed()) * 1e-9;
    r.responses = double(driver.responses - responses0);
    r.events = double(driver.events - events0);
    r.serverCpu = cpuSeconds(serverClock) - server0;
    r.driverCpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - driver0;
    r.stats = serverStats(host.baseUrl(), "GET");
    r.failures = driver.failures;
    return r;
}

void report(const char* title, const Result& r, bool perRequest)
{
    const double rate = (perRequest ? r.responses : r.events) / r.seconds;
    const double cpuUs = r.serverCpu / (perRequest ? r.responses : r.events) * 1e6;
    std::printf("%s\n  %.0f %s/s (%.0f requests/s, %.0f events/s); server thread %.0f%% of a core, %.2f us per %s;"
                " driver %.0f%% of a core\n  max delivery lag %.2f ms (wall), clock resyncs %lld, failures %llu\n",
        title, rate, perRequest ? "requests" : "events", r.responses / r.seconds, r.events / r.seconds,
        100.0 * r.serverCpu / r.seconds, cpuUs, perRequest ? "request" : "event", 100.0 * r.driverCpu / r.seconds,
        r.stats.value(QStringLiteral("max_delivery_lag_wall_ms")).toDouble(),
        static_cast<long long>(r.stats.value(QStringLiteral("resyncs")).toDouble()),
        static_cast<unsigned long long>(r.failures));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Measures the requests/s and events/s kneepoint-sim sustains."));
    parser.addHelpOption();
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
        QStringLiteral("Measured seconds per scenario (default 5)."), QStringLiteral("S"), QStringLiteral("5"));
    const QCommandLineOption pinOption(QStringLiteral("pin"),
        QStringLiteral("Pin the server thread to CPU 0 and the driver to CPU 1 (on a quiet machine only: a CPU "
                       "shared with other work halves both)."));
    parser.addOptions({ secondsOption, pinOption });
    parser.process(app);
    const double seconds = std::max(1.0, parser.value(secondsOption).toDouble());
    const bool pin = parser.isSet(pinOption) && usableCpus() >= 2;
    if (pin)
        pinCurrentThread(1);
    raiseFileLimit();
    std::printf("kneepoint-sim benchmark: server thread %s, driver on the main thread; %.0f s per scenario\n\n",
        pin ? "pinned to CPU 0, driver to CPU 1" : "unpinned", seconds);

    // 1. Requests: short streams back to back on keep-alive connections; the model is nearly free at
    //    this time scale, so the figure is the server's own cost per request.
    SimServerOptions quick;
    quick.timeScale = 1000;
    report("requests: 256 keep-alive connections, 1-token streams back to back, default preset, time scale 1000",
        measure(quick, 256, 1, true, 1.0, seconds, pin), true);

    // 2. Events: 2,000 open streams that never end within the run, all in one batch.
    SimServerOptions wide;
    wide.timeScale = 1000;
    wide.params.maxModelLen = 1 << 20;
    wide.params.maxNumSeqs = 4096;
    wide.params.maxNumBatchedTokens = 1 << 16;
    wide.params.kvCapacityTokens = 1 << 30;
    wide.params.perKvTokenMs = 0;
    report("events: 2,000 concurrent streams, batch of 2,000, time scale 1000",
        measure(wide, 2000, 1 << 19, false, 1.0, seconds, pin), false);

    // 3. Real time: the default preset's full batch (256 streams of 200 tokens, back to back) at time
    //    scale 1, its highest token rate: what a real sweep costs the simulator.
    SimServerOptions realTime;
    report("real time: 256 connections, 200-token streams back to back, default preset, time scale 1",
        measure(realTime, 256, 200, true, 2.0, seconds, pin), false);
    return 0;
}
