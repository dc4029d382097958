// The client's own limits, per transport, against a kneepoint-sim started by bench/run_all.sh:
// open-loop request rate at sub-millisecond dispatch lag, streamed events per core, concurrent streams
// held, timing error against the simulator's ground truth, SSE parser throughput and file loading
// times. Prints one JSON object per line; run_all.sh turns them into the table of docs/BENCHMARKS.md.
// With --write-run DIR every record is also written to a run directory from the thread that runs the
// dispatch timer, as the CLI does (RunWriter's writer thread; with --write-sync the way it was before
// that thread: a line serialised and written there, one write() each), so its cost shows in the CPU per
// request and the dispatch lag.

#include "client/apiformats.h"
#include "client/qnamtransport.h"
#include "client/responseaccumulator.h"
#include "client/sockettransport.h"
#include "client/sseparser.h"
#include "dataset/dataset.h"
#include "load/steprunner.h"
#include "metrics/resultjson.h"
#include "profile/profilestore.h"
#include "sim/filelimit.h"
#include "store/runwriter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

#include <sys/resource.h>
#include <time.h>

using namespace kp;

namespace {

void emitLine(QJsonObject object)
{
    const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::printf("%s\n", line.constData());
    std::fflush(stdout);
}

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? double(parts[1].toLongLong()) * 4096.0 / (1024.0 * 1024.0) : 0.0;
}

double peakRssMiB()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

double threadCpuNs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

double processCpuNs()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec))
        * 1e3;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * double(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - double(lo));
}

QByteArray http(const QByteArray& verb, const QUrl& url)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkReply* reply = nam.sendCustomRequest(QNetworkRequest(url), verb);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

struct Bench
{
    QUrl base;
    TransportKind kind = TransportKind::Socket;
    int workers = 0;
    QString model;
    int stepIndex = 0;
    RunWriter* writer = nullptr; // --write-run
    bool writeSync = false; // --write-sync
    std::map<int, std::unique_ptr<QFile>> syncFiles;
    double dispatchWriteCpuNs = 0; // the dispatch thread's CPU in write(), this step

    // One record on the dispatch thread: handed to the writer thread, or (--write-sync) serialised and
    // written with one unbuffered write.
    void write(int step, const RequestRecord& record)
    {
        QString error;
        if (!writeSync) {
            if (!writer->appendRequest(step, record, &error))
                qFatal("bench_client: %s", qPrintable(error));
            return;
        }
        auto& file = syncFiles[step];
        if (!file) {
            file = std::make_unique<QFile>(writer->requestsPath(step));
            if (!file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered))
                qFatal("bench_client: %s: %s", qPrintable(file->fileName()), qPrintable(file->errorString()));
        }
        QByteArray line = requestRecordToJson(record);
        line += '\n';
        if (file->write(line) != line.size())
            qFatal("bench_client: %s: %s", qPrintable(file->fileName()), qPrintable(file->errorString()));
    }

    std::unique_ptr<Transport> transport() const
    {
        TransportOptions o;
        o.kind = kind;
        o.workers = workers;
        if (kind == TransportKind::Qnam)
            return std::make_unique<QnamTransport>(o);
        return std::make_unique<SocketTransport>(o);
    }

    StepConfig step(int prompts, int inputLen, int outputLen, bool stream)
    {
        StepConfig s;
        s.index = ++stepIndex;
        s.request.backend = Backend::OpenAi;
        s.request.url = base.resolved(QUrl(QStringLiteral("/v1/completions")));
        s.request.model = model;
        s.request.ignoreEos = true;
        s.request.stream = stream;
        RandomDatasetOptions data;
        data.numPrompts = std::min(prompts, 1000);
        data.inputLen = inputLen;
        data.outputLen = outputLen;
        data.rangeRatio = 0.0;
        data.seed = 5;
        s.prompts = randomDataset(data).prompts;
        s.numPrompts = prompts;
        return s;
    }

    // Runs a step; onSnapshot may stop it.
    StepResult run(
        Transport* t, StepConfig s, const std::function<void(StepRunner&, const LiveSnapshot&)>& onSnapshot = {})
    {
        StepRunner runner(t, MetricsOptions {});
        StepResult out;
        QEventLoop loop;
        if (writer) {
            // After the last record, everything is written before the runner reads the CPU clock at the
            // step's end, so the writer thread's work counts in the step's CPU per request.
            const int step = s.index;
            const int expected = s.numPrompts;
            QObject::connect(&runner, &StepRunner::requestFinished, &loop,
                [this, step, expected, written = 0](const RequestRecord& record) mutable {
                    const double before = threadCpuNs();
                    write(step, record);
                    dispatchWriteCpuNs += threadCpuNs() - before;
                    QString error;
                    if (++written == expected && !writer->flushRequests(&error))
                        qFatal("bench_client: %s", qPrintable(error));
                });
        }
        QObject::connect(&runner, &StepRunner::finished, &loop, [&](const StepResult& r) {
            out = r;
            loop.quit();
        });
        if (onSnapshot)
            QObject::connect(
                &runner, &StepRunner::snapshot, &loop, [&](const LiveSnapshot& snap) { onSnapshot(runner, snap); });
        const int index = s.index;
        dispatchWriteCpuNs = 0;
        runner.start(std::move(s));
        loop.exec();
        if (writer) {
            QString error;
            if (!writer->writeStep(index, "{}", &error))
                qFatal("bench_client: %s", qPrintable(error));
            syncFiles.erase(index);
        }
        return out;
    }

    // With --write-run: the recording cost per request, on the dispatch thread during the step, and in
    // all (every thread's CPU) from the step's records written again, alone, the same way.
    void insertWriteCost(QJsonObject& o, const StepResult& res)
    {
        if (!writer || res.records.empty())
            return;
        const double n = double(res.records.size());
        o.insert(QStringLiteral("write_dispatch_cpu_per_request_us"), dispatchWriteCpuNs / n / 1e3);
        const int step = 1000 + res.config.index;
        const double before = processCpuNs();
        for (const RequestRecord& r : res.records)
            write(step, r);
        QString error;
        if (!writer->writeStep(step, "{}", &error))
            qFatal("bench_client: %s", qPrintable(error));
        syncFiles.erase(step);
        o.insert(QStringLiteral("write_cpu_per_request_us"), (processCpuNs() - before) / n / 1e3);
    }

    QJsonObject base_(const char* scenario) const
    {
        return { { QStringLiteral("scenario"), QString::fromLatin1(scenario) },
            { QStringLiteral("client"), transportKindName(kind) },
            { QStringLiteral("writes"),
                !writer         ? QStringLiteral("none")
                    : writeSync ? QStringLiteral("sync")
                                : QStringLiteral("thread") } };
    }

    static QJsonObject health(const StepResult& r)
    {
        const ClientHealth& h = r.metrics.clientHealth;
        return { { QStringLiteral("dispatch_lag_p50_ms"), r.metrics.dispatchLag.median },
            { QStringLiteral("dispatch_lag_p99_ms"), r.dispatchLagP99Ms },
            { QStringLiteral("loop_lag_p99_ms"), h.loopLagP99Ms }, { QStringLiteral("cpu_cores"), h.cpuCores },
            { QStringLiteral("cpu_per_request_us"), h.cpuPerRequestUs },
            { QStringLiteral("cpu_per_event_us"), h.cpuPerEventUs }, { QStringLiteral("client_bound"), r.clientBound },
            { QStringLiteral("flag_reason"), h.reason }, { QStringLiteral("completed"), r.metrics.completed },
            { QStringLiteral("failed"), r.metrics.failed } };
    }

    // (1) Open loop, constant arrivals, 1-token answers not streamed: the highest rate whose p99 dispatch
    // lag stays under 1 ms with every request answered.
    void rate(const QList<int>& rates, double seconds)
    {
        const auto t = transport();
        run(t.get(), step(200, 8, 1, false)); // connections up, caches warm
        int best = 0;
        int misses = 0;
        for (int r : rates) {
            StepConfig s = step(std::max(200, int(r * seconds)), 8, 1, false);
            s.rate = r;
            s.burstiness = std::numeric_limits<double>::infinity();
            const StepResult res = run(t.get(), s);
            QJsonObject o = base_("rate");
            o.insert(QStringLiteral("rate"), r);
            o.insert(QStringLiteral("achieved_rps"), res.metrics.requestThroughput);
            const QJsonObject h = health(res);
            for (auto it = h.begin(); it != h.end(); ++it)
                o.insert(it.key(), it.value());
            insertWriteCost(o, res);
            emitLine(o);
            if (res.metrics.failed == 0 && res.dispatchLagP99Ms < 1.0)
                best = std::max(best, r);
            // The ladder goes on while the client keeps up at all; two rungs far behind end it.
            if (res.metrics.failed == 0 && res.dispatchLagP99Ms < 20.0)
                misses = 0;
            else if (++misses >= 2)
                break;
        }
        QJsonObject o = base_("rate_best");
        o.insert(QStringLiteral("rate"), best);
        emitLine(o);
    }

    // (2) Streams as fast as the server writes them (on A: saturating), or as a real-time server paces
    // them (on B: paced, the same event rate for every client): events/s, CPU per event and per request.
    void stream(int users, int tokens, int prompts, const QString& label)
    {
        const auto t = transport();
        StepConfig s = step(prompts, 8, tokens, true);
        s.mode = LoadMode::Concurrency;
        s.concurrency = users;
        const StepResult res = run(t.get(), s);
        qint64 events = 0;
        for (const RequestRecord& r : res.records)
            events += qint64(r.chunkNs.size());
        QJsonObject o = base_("stream");
        o.insert(QStringLiteral("load"), label);
        o.insert(QStringLiteral("users"), users);
        o.insert(QStringLiteral("events"), events);
        o.insert(QStringLiteral("events_per_s"), double(events) / res.durationS);
        const double cores = res.metrics.clientHealth.cpuCores;
        o.insert(QStringLiteral("events_per_core_s"), cores > 0 ? double(events) / res.durationS / cores : 0.0);
        const QJsonObject h = health(res);
        for (auto it = h.begin(); it != h.end(); ++it)
            o.insert(it.key(), it.value());
        insertWriteCost(o, res);
        emitLine(o);
    }

    // (3) Concurrent streams: N requests at once with outputs that outlast the hold; how many are
    // streaming (first token seen) and the resident memory per stream.
    void hold(int streams, double holdS)
    {
        const auto t = transport();
        run(t.get(), step(4, 8, 2, true)); // threads and libraries loaded before the baseline
        http("DELETE", base.resolved(QUrl(QStringLiteral("/debug/requests"))));
        const double baseRss = rssMiB();
        StepConfig s = step(streams, 8, 20000, true);
        s.rate = std::numeric_limits<double>::infinity();
        double peakRss = 0;
        QElapsedTimer sinceAllSent;
        const StepResult res = run(t.get(), s, [&](StepRunner& runner, const LiveSnapshot& snap) {
            if (snap.sent < streams || !runner.isRunning())
                return;
            if (!sinceAllSent.isValid())
                sinceAllSent.start();
            peakRss = std::max(peakRss, rssMiB());
            if (sinceAllSent.elapsed() > holdS * 1000)
                runner.stop();
        });
        int streaming = 0;
        for (const RequestRecord& r : res.records)
            streaming += r.firstTokenNs >= 0 ? 1 : 0;
        QJsonObject o = base_("hold");
        o.insert(QStringLiteral("requested"), streams);
        o.insert(QStringLiteral("streaming"), streaming);
        o.insert(QStringLiteral("rss_base_mib"), baseRss);
        o.insert(QStringLiteral("rss_peak_mib"), peakRss);
        o.insert(QStringLiteral("rss_per_stream_kib"), streaming > 0 ? (peakRss - baseRss) * 1024.0 / streaming : 0.0);
        o.insert(QStringLiteral("cpu_cores"), res.metrics.clientHealth.cpuCores);
        o.insert(QStringLiteral("loop_lag_p99_ms"), res.metrics.clientHealth.loopLagP99Ms);
        emitLine(o);
        http("DELETE", base.resolved(QUrl(QStringLiteral("/debug/requests"))));
    }

    // (4) |client - server| for TTFT and every inter-token gap, Poisson arrivals at `rate`.
    void timing(double rate, int prompts, int tokens, const char* label)
    {
        const auto t = transport();
        run(t.get(), step(8, 8, 2, true));
        http("DELETE", base.resolved(QUrl(QStringLiteral("/debug/requests"))));
        StepConfig s = step(prompts, 32, tokens, true);
        s.rate = rate;
        s.seed = 3;
        const StepResult res = run(t.get(), s);
        const QJsonObject truth
            = QJsonDocument::fromJson(http("GET", base.resolved(QUrl(QStringLiteral("/debug/requests"))))).object();
        const double scale = truth.value(u"time_scale").toDouble(1.0);
        std::map<QString, QJsonObject> byId;
        for (const auto& v : truth.value(u"requests").toArray())
            byId[v.toObject().value(u"request_id").toString()] = v.toObject();
        std::vector<double> ttftErr, itlErr;
        for (const RequestRecord& r : res.records) {
            const auto it = byId.find(r.requestId);
            if (it == byId.end() || !r.success())
                continue;
            const QJsonObject& g = it->second;
            const QJsonArray tokenMs = g.value(u"token_ms").toArray();
            const double serverTtft
                = (g.value(u"first_token_ms").toDouble() - g.value(u"accepted_ms").toDouble()) / scale;
            ttftErr.push_back(std::abs(double(r.firstTokenNs - r.sentNs) / 1e6 - serverTtft));
            if (qsizetype(r.chunkNs.size()) != tokenMs.size())
                continue;
            for (qsizetype i = 1; i < tokenMs.size(); ++i) {
                const double server = (tokenMs[i].toDouble() - tokenMs[i - 1].toDouble()) / scale;
                const double client = double(r.chunkNs[size_t(i)] - r.chunkNs[size_t(i - 1)]) / 1e6;
                itlErr.push_back(std::abs(client - server));
            }
        }
        QJsonObject o = base_("timing");
        o.insert(QStringLiteral("load"), QString::fromLatin1(label));
        o.insert(QStringLiteral("rate"), rate);
        o.insert(QStringLiteral("matched"), qint64(ttftErr.size()));
        o.insert(QStringLiteral("ttft_err_p50_ms"), percentile(ttftErr, 50));
        o.insert(QStringLiteral("ttft_err_p99_ms"), percentile(ttftErr, 99));
        o.insert(QStringLiteral("itl_err_p50_ms"), percentile(itlErr, 50));
        o.insert(QStringLiteral("itl_err_p99_ms"), percentile(itlErr, 99));
        const QJsonObject h = health(res);
        for (auto it = h.begin(); it != h.end(); ++it)
            o.insert(it.key(), it.value());
        emitLine(o);
    }
};

// nsecsElapsed() is this thread's CPU time since start() or restart().
class ThreadCpuTimer
{
public:
    void start() { m_start = now(); }
    void restart() { m_start = now(); }
    qint64 nsecsElapsed() const { return now() - m_start; }

private:
    static qint64 now()
    {
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return qint64(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
    }
    qint64 m_start = 0;
};

// (5) SSE parsing: the parser alone, and the whole per-response path (parser, event classification,
// record) a transport runs for every read.
void parserBench(int megabytes)
{
    QByteArray event = "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1700000000,\"model\":"
                       "\"kneepoint/sim-default\",\"choices\":[{\"index\":0,\"text\":\" word\",\"logprobs\":null,"
                       "\"finish_reason\":null}],\"usage\":null}\n\n";
    QByteArray stream;
    stream.reserve(qsizetype(megabytes) * 1024 * 1024 + event.size());
    qint64 events = 0;
    while (stream.size() < qsizetype(megabytes) * 1024 * 1024) {
        stream += event;
        ++events;
    }
    stream += "data: [DONE]\n\n";
    constexpr qsizetype kRead = 16 * 1024;
    const double mb = double(stream.size()) / 1e6;

    // The thread's CPU time, not the wall clock: on a busy machine the figures stay the code's own.
    ThreadCpuTimer timer;
    timer.start();
    SseParser parser;
    std::vector<SseEvent> out;
    qint64 seen = 0;
    for (qsizetype pos = 0; pos < stream.size(); pos += kRead) {
        out.clear();
        seen += parser.feed(QByteArrayView(stream).sliced(pos, std::min(kRead, stream.size() - pos)), out);
    }
    const double parserS = double(timer.nsecsElapsed()) / 1e9;

    // The per-event classification alone: the fast path (simdjson) against the nlohmann DOM reference,
    // over the same events in this run.
    const std::vector<SseEvent> sample = SseParser().feed(QByteArrayView(stream).first(4 * 1024 * 1024));
    const auto classifyNs = [&sample, &timer](auto classify) {
        int choices = 0;
        timer.restart();
        for (const SseEvent& e : sample)
            choices += classify(e.data).kind == SseChunk::Kind::Choices ? 1 : 0;
        const double ns = double(timer.nsecsElapsed()) / double(sample.size());
        return choices == int(sample.size()) ? ns : -1.0; // every event of the sample has choices
    };
    const double fastNs = classifyNs([](QByteArrayView d) { return SseChunk::classify(d); });
    const double domNs = classifyNs([](QByteArrayView d) { return SseChunk::classifyDom(d); });
    // The typed formats' text deltas as the simulator sends them (Responses, Messages): their fast path
    // against their nlohmann path.
    const auto typedNs = [&timer](ApiFormat format, const QByteArray& data, bool fast) {
        constexpr int kEvents = 200'000;
        int choices = 0;
        timer.restart();
        for (int i = 0; i < kEvents; ++i) {
            const SseChunk chunk = fast ? classifyEvent(format, {}, data) : classifyEventDom(format, {}, data);
            choices += chunk.kind == SseChunk::Kind::Choices ? 1 : 0;
        }
        const double ns = double(timer.nsecsElapsed()) / kEvents;
        return choices == kEvents ? ns : -1.0;
    };
    const QByteArray responsesDelta = R"({"type":"response.output_text.delta","sequence_number":7,)"
                                      R"("item_id":"msg_1","output_index":0,"content_index":0,"delta":" word"})";
    const QByteArray messagesDelta
        = R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" word"}})";
    const double responsesNs = typedNs(ApiFormat::Responses, responsesDelta, true);
    const double responsesDomNs = typedNs(ApiFormat::Responses, responsesDelta, false);
    const double messagesNs = typedNs(ApiFormat::Messages, messagesDelta, true);
    const double messagesDomNs = typedNs(ApiFormat::Messages, messagesDelta, false);

    HttpRequest req;
    req.url = QUrl(QStringLiteral("http://127.0.0.1/v1/completions"));
    timer.restart();
    ResponseAccumulator acc(req, 0);
    acc.onResponseStarted(200, 1);
    for (qsizetype pos = 0; pos < stream.size(); pos += kRead)
        acc.onData(QByteArrayView(stream).sliced(pos, std::min(kRead, stream.size() - pos)), pos);
    const RequestRecord record = acc.finish(stream.size(), FailureClass::None, {});
    const double fullS = double(timer.nsecsElapsed()) / 1e9;

    emitLine({ { QStringLiteral("scenario"), QStringLiteral("parser") }, { QStringLiteral("mb"), mb },
        { QStringLiteral("events"), seen }, { QStringLiteral("parser_mb_s"), mb / parserS },
        { QStringLiteral("parser_events_s"), double(seen) / parserS }, { QStringLiteral("full_mb_s"), mb / fullS },
        { QStringLiteral("full_events_s"), double(record.chunkNs.size()) / fullS },
        { QStringLiteral("classify_ns"), fastNs }, { QStringLiteral("classify_dom_ns"), domNs },
        { QStringLiteral("classify_responses_ns"), responsesNs },
        { QStringLiteral("classify_responses_dom_ns"), responsesDomNs },
        { QStringLiteral("classify_messages_ns"), messagesNs },
        { QStringLiteral("classify_messages_dom_ns"), messagesDomNs },
        { QStringLiteral("full_ok"), record.success() && qint64(record.chunkNs.size()) == events },
        { QStringLiteral("full_error"), record.errorMessage.left(200) } });
}

// (6) Profile, dataset (ShareGPT layout, generated at the given size) and result-file loading.
void loadBench(const QString& profilePath, const QString& sharegptPath, int sharegptMb, int prompts)
{
    QJsonObject o { { QStringLiteral("scenario"), QStringLiteral("load") } };
    QElapsedTimer timer;
    timer.start();
    constexpr int kProfiles = 200;
    bool ok = true;
    for (int i = 0; i < kProfiles; ++i)
        ok = ok && ProfileStore::load(profilePath).ok();
    o.insert(QStringLiteral("profile_ms"), double(timer.nsecsElapsed()) / 1e6 / kProfiles);
    o.insert(QStringLiteral("profile_ok"), ok);

    if (!QFile::exists(sharegptPath)) {
        QFile f(sharegptPath);
        if (f.open(QIODevice::WriteOnly)) {
            std::mt19937_64 rng(1);
            static const char* words[] = { "the", "model", "serving", "latency", "token", "batch", "cache", "request",
                "throughput", "queue", "memory", "prefill", "decode", "scheduler", "gpu", "kernel" };
            auto text = [&](int n) {
                QByteArray t;
                for (int i = 0; i < n; ++i) {
                    if (i)
                        t += ' ';
                    t += words[rng() % 16];
                }
                return t;
            };
            f.write("[\n");
            qint64 written = 2;
            for (int id = 0; written < qint64(sharegptMb) * 1024 * 1024; ++id) {
                const QByteArray item = (id ? ",\n" : "") + QByteArrayLiteral("{\"id\": \"c") + QByteArray::number(id)
                    + "\", \"conversations\": [{\"from\": \"human\", \"value\": \"" + text(40 + int(rng() % 400))
                    + "\"}, {\"from\": \"gpt\", \"value\": \"" + text(20 + int(rng() % 500))
                    + "\"}, {\"from\": \"human\", \"value\": \"" + text(30) + "\"}]}";
                f.write(item);
                written += item.size();
            }
            f.write("\n]\n");
        }
    }
    const double fileMb = double(QFile(sharegptPath).size()) / 1e6;
    const double rssBefore = peakRssMiB();
    ShareGptOptions options;
    options.numPrompts = prompts;
    timer.restart();
    const DatasetResult data = loadShareGpt(sharegptPath, options);
    const double dataS = double(timer.nsecsElapsed()) / 1e9;
    o.insert(QStringLiteral("sharegpt_mb"), fileMb);
    o.insert(QStringLiteral("sharegpt_prompts"), qint64(data.prompts.size()));
    o.insert(QStringLiteral("sharegpt_s"), dataS);
    o.insert(QStringLiteral("sharegpt_mb_s"), fileMb / dataS);
    o.insert(QStringLiteral("sharegpt_peak_rss_growth_mib"), peakRssMiB() - rssBefore);

    // A detailed result file: 10,000 requests of 200 events each.
    std::vector<RequestRecord> records(10000);
    for (std::size_t i = 0; i < records.size(); ++i) {
        RequestRecord& r = records[i];
        r.index = qint64(i);
        r.scheduledNs = r.sentNs = qint64(i) * 1'000'000;
        r.firstByteNs = r.firstTokenNs = r.firstContentNs = r.sentNs + 20'000'000;
        for (int k = 0; k < 200; ++k)
            r.chunkNs.push_back(r.firstTokenNs + qint64(k) * 15'000'000);
        r.lastTokenNs = r.endNs = r.chunkNs.back();
        r.httpStatus = 200;
        r.promptTokens = 200;
        r.outputTokens = 200;
        r.outputTokensFromUsage = true;
        r.generatedText = QStringLiteral("word ").repeated(200);
    }
    const StepMetrics metrics = StepMetrics::fromRecords(records, 13.0, MetricsOptions {});
    StepSetup setup;
    setup.backend = QStringLiteral("openai");
    setup.numPrompts = qint64(records.size());
    const QByteArray file = ResultJson::write(setup, metrics, records, 2);
    timer.restart();
    const ResultFileContents back = ResultJson::read(file, QStringLiteral("bench"));
    const double readMs = double(timer.nsecsElapsed()) / 1e6;
    o.insert(QStringLiteral("result_mb"), double(file.size()) / 1e6);
    o.insert(QStringLiteral("result_read_ms"), readMs);
    o.insert(QStringLiteral("result_ok"), back.ok());
    emitLine(o);
}

QList<int> intList(const QString& text)
{
    QList<int> out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out << part.toInt();
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Client benchmarks (see bench/run_all.sh)."));
    p.addHelpOption();
    const QCommandLineOption scenario(
        QStringLiteral("scenario"), QStringLiteral("rate|stream|hold|timing|parser|load"), QStringLiteral("NAME"));
    const QCommandLineOption url(QStringLiteral("url"), QStringLiteral("Simulator base URL."), QStringLiteral("URL"));
    const QCommandLineOption transport(
        QStringLiteral("transport"), QStringLiteral("socket|qnam"), QStringLiteral("KIND"), QStringLiteral("socket"));
    const QCommandLineOption workers(QStringLiteral("workers"), QStringLiteral("Worker threads (0: one per core)."),
        QStringLiteral("N"), QStringLiteral("0"));
    const QCommandLineOption rates(QStringLiteral("rates"), QStringLiteral("rate: the ladder."), QStringLiteral("LIST"),
        QStringLiteral("500,1000,2000"));
    const QCommandLineOption seconds(
        QStringLiteral("seconds"), QStringLiteral("rate: seconds per rung."), QStringLiteral("S"), QStringLiteral("2"));
    const QCommandLineOption users(QStringLiteral("users"), QStringLiteral("stream: concurrent users; hold: streams."),
        QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption tokens(QStringLiteral("tokens"), QStringLiteral("Output tokens per request."),
        QStringLiteral("N"), QStringLiteral("500"));
    const QCommandLineOption prompts(
        QStringLiteral("prompts"), QStringLiteral("Requests in the step."), QStringLiteral("N"), QStringLiteral("400"));
    const QCommandLineOption rate(
        QStringLiteral("rate"), QStringLiteral("timing: req/s."), QStringLiteral("R"), QStringLiteral("20"));
    const QCommandLineOption label(QStringLiteral("label"),
        QStringLiteral("timing: low|high; stream: saturating|paced."), QStringLiteral("TEXT"), QStringLiteral("low"));
    const QCommandLineOption megabytes(
        QStringLiteral("mb"), QStringLiteral("parser/load: size in MB."), QStringLiteral("N"), QStringLiteral("64"));
    const QCommandLineOption profile(
        QStringLiteral("profile"), QStringLiteral("load: a profile file."), QStringLiteral("FILE"));
    const QCommandLineOption sharegpt(QStringLiteral("sharegpt"),
        QStringLiteral("load: ShareGPT file (generated when missing)."), QStringLiteral("FILE"));
    const QCommandLineOption writeRun(QStringLiteral("write-run"),
        QStringLiteral("rate|stream|hold|timing: write every record to a run directory (made; must not exist)."),
        QStringLiteral("DIR"));
    const QCommandLineOption writeSync(QStringLiteral("write-sync"),
        QStringLiteral("With --write-run: serialise and write each record on the dispatch thread."));
    p.addOptions({ scenario, url, transport, workers, rates, seconds, users, tokens, prompts, rate, label, megabytes,
        profile, sharegpt, writeRun, writeSync });
    p.process(app);
    sim::raiseFileLimit();

    const QString which = p.value(scenario);
    if (which == QLatin1String("parser")) {
        parserBench(p.value(megabytes).toInt());
        return 0;
    }
    if (which == QLatin1String("load")) {
        loadBench(p.value(profile), p.value(sharegpt), p.value(megabytes).toInt(), 1000);
        return 0;
    }
    Bench b;
    b.base = QUrl(p.value(url));
    b.kind = transportKindFromName(p.value(transport)).value_or(TransportKind::Socket);
    b.workers = p.value(workers).toInt();
    RunWriter writer;
    if (p.isSet(writeRun)) {
        QString error;
        if (!writer.open(p.value(writeRun), &error)) {
            std::fprintf(stderr, "bench_client: %s\n", qPrintable(error));
            return 1;
        }
        b.writer = &writer;
        b.writeSync = p.isSet(writeSync);
    }
    const QJsonObject models
        = QJsonDocument::fromJson(http("GET", b.base.resolved(QUrl(QStringLiteral("/v1/models"))))).object();
    b.model = models.value(u"data").toArray().at(0).toObject().value(u"id").toString();
    if (b.model.isEmpty()) {
        std::fprintf(stderr, "bench_client: no model at %s\n", qPrintable(b.base.toString()));
        return 1;
    }
    if (which == QLatin1String("rate"))
        b.rate(intList(p.value(rates)), p.value(seconds).toDouble());
    else if (which == QLatin1String("stream"))
        b.stream(p.value(users).toInt(), p.value(tokens).toInt(), p.value(prompts).toInt(),
            p.isSet(label) ? p.value(label) : QStringLiteral("saturating"));
    else if (which == QLatin1String("hold"))
        b.hold(p.value(users).toInt(), p.value(seconds).toDouble());
    else if (which == QLatin1String("timing"))
        b.timing(
            p.value(rate).toDouble(), p.value(prompts).toInt(), p.value(tokens).toInt(), qPrintable(p.value(label)));
    else {
        std::fprintf(stderr, "bench_client: unknown --scenario %s\n", qPrintable(which));
        return 2;
    }
    return 0;
}
