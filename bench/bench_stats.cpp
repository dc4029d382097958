// CPU time of a step's finish (StepMetrics::fromRecords and bootstrapIntervals, what StepRunner::finish
// runs on the controller thread) for steps of many streamed requests, against the former way of each part:
// percentiles from a full sort of the values, and a bootstrap that copies the drawn records and recomputes
// fromRecords per resample (kept here, for this comparison only).
//
// The records are generated, deterministically: Poisson arrivals, exponential TTFT, `--tokens` chunks per
// request at exponential gaps around a speed of the request's own.

#include "metrics/latencystats.h"
#include "metrics/requestlatencies.h"
#include "metrics/stepintervals.h"
#include "metrics/stepmetrics.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <vector>

#include <malloc.h>
#include <sys/resource.h>

using namespace kp;

namespace {

double cpuSeconds()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

double peakRssMiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

double unit(std::mt19937_64& random)
{
    return double(random() >> 11) * 0x1.0p-53;
}

double exponential(std::mt19937_64& random, double mean)
{
    return -mean * std::log1p(-unit(random));
}

std::vector<RequestRecord> makeRecords(qint64 count, int tokens, quint64 seed)
{
    constexpr double ns = 1e6; // per ms
    std::mt19937_64 random(seed);
    std::vector<RequestRecord> records(static_cast<std::size_t>(count));
    double sent = 0;
    for (RequestRecord& r : records) {
        sent += exponential(random, 5.0 * ns); // 200 req/s
        r.scheduledNs = r.sentNs = qint64(sent);
        const double speed = 0.5 + unit(random);
        double t = sent + exponential(random, 120.0 * ns);
        r.chunkNs.reserve(std::size_t(tokens));
        for (int c = 0; c < tokens; ++c) {
            r.chunkNs.push_back(qint64(t));
            t += exponential(random, 15.0 * speed * ns);
        }
        r.firstTokenNs = r.firstContentNs = r.chunkNs.front();
        r.lastTokenNs = r.chunkNs.back();
        r.endNs = r.lastTokenNs + 1;
        r.promptTokens = 100 + int(random() % 900);
        r.outputTokens = tokens;
        r.outputTokensFromUsage = true;
    }
    return records;
}

// The former bootstrap: each resample copies the drawn records and recomputes every figure.
StepIntervals formerBootstrap(const std::vector<RequestRecord>& records, double durationS,
    const MetricsOptions& options, const StepMetrics& point, quint64 seed)
{
    StepIntervals out;
    const qint64 n = qint64(records.size());
    const int resamples = int(std::clamp<qint64>(kBootstrapBudget / n, kMinResamples, kMaxResamples));
    std::mt19937_64 random(seed);
    std::map<QString, std::vector<double>> draws;
    std::vector<RequestRecord> sample(records.size());
    for (int b = 0; b < resamples; ++b) {
        for (RequestRecord& r : sample)
            r = records[std::size_t(random() % quint64(n))];
        for (const auto& [key, v] : intervalFigures(StepMetrics::fromRecords(sample, durationS, options)))
            draws[key].push_back(v);
    }
    const std::map<QString, double> estimates = intervalFigures(point);
    for (auto& [key, values] : draws) {
        std::sort(values.begin(), values.end());
        out.figures[key] = Interval { std::min(LatencyStats::numpyPercentile(values, 2.5), estimates.at(key)),
            std::max(LatencyStats::numpyPercentile(values, 97.5), estimates.at(key)) };
    }
    out.method = StepIntervals::Method::Bootstrap;
    out.samples = resamples;
    out.seed = seed;
    return out;
}

// The former percentiles: a full sort of the values.
LatencyStats sortedStats(std::vector<double> values, const std::vector<double>& percentiles)
{
    LatencyStats s;
    std::sort(values.begin(), values.end());
    s.count = qint64(values.size());
    s.median = LatencyStats::numpyMedian(values);
    for (double p : percentiles)
        s.percentiles.emplace_back(p, LatencyStats::numpyPercentile(values, p));
    return s;
}

// Heap bytes in use (glibc's count: what malloc handed out and was not freed, mmapped blocks included).
double heapBytes()
{
    const struct mallinfo2 info = mallinfo2();
    return double(info.uordblks) + double(info.hblkhd);
}

// What a record held in memory costs: the heap growth of `count` records as a step keeps them (an id as the
// runner writes it, `tokens` chunk times grown by push_back as the accumulator grows them, no text), before
// and after the runner's shrink_to_fit of the chunk times.
void recordBytes(qint64 count, const std::vector<int>& tokenCounts)
{
    std::printf("sizeof(RequestRecord) = %zu bytes\n", sizeof(RequestRecord));
    std::printf("tokens  records   bytes/record as grown  shrunk  of which chunk times  not chunk times\n");
    for (int tokens : tokenCounts) {
        const double before = heapBytes();
        std::vector<RequestRecord> records(static_cast<std::size_t>(count));
        qint64 i = 0;
        for (RequestRecord& r : records) {
            r.index = i;
            r.requestId = QStringLiteral("kneepoint-0-%1").arg(i++);
            for (int c = 0; c < tokens; ++c)
                r.chunkNs.push_back(qint64(c) * 15'000'000);
            r.outputTokens = tokens;
        }
        const double grown = (heapBytes() - before) / double(count);
        for (RequestRecord& r : records)
            r.chunkNs.shrink_to_fit();
        const double shrunk = (heapBytes() - before) / double(count);
        double chunkBytes = 0; // what the chunk times hold on the heap (ChunkTimes::heapBytes)
        for (const RequestRecord& r : records)
            chunkBytes += double(r.chunkNs.heapBytes());
        chunkBytes /= double(count);
        std::printf("%-7d %-9lld %21.0f  %6.0f  %20.0f  %15.0f\n", tokens, static_cast<long long>(count), grown, shrunk,
            chunkBytes, shrunk - chunkBytes);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("CPU time of a step's finish for many streamed requests"));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("sizes"), QStringLiteral("Requests per step, comma-separated."),
        QStringLiteral("LIST"), QStringLiteral("10000,100000,1000000") });
    parser.addOption({ QStringLiteral("tokens"), QStringLiteral("Chunks per request."), QStringLiteral("N"),
        QStringLiteral("200") });
    parser.addOption({ QStringLiteral("former-up-to"),
        QStringLiteral("Run the former bootstrap for steps of at most N requests (it takes minutes beyond)."),
        QStringLiteral("N"), QStringLiteral("10000") });
    parser.addOption({ QStringLiteral("record-bytes"),
        QStringLiteral("Instead: the resident bytes of N records held in memory, at 0, 1, 16, 200 and 1000 chunk "
                       "times each."),
        QStringLiteral("N") });
    parser.process(app);
    if (parser.isSet(QStringLiteral("record-bytes"))) {
        recordBytes(parser.value(QStringLiteral("record-bytes")).toLongLong(), { 0, 1, 16, 200, 1000 });
        return 0;
    }
    const int tokens = parser.value(QStringLiteral("tokens")).toInt();
    const qint64 formerUpTo = parser.value(QStringLiteral("former-up-to")).toLongLong();

    MetricsOptions options; // the defaults a step runs with: P99 of TTFT, TPOT, ITL
    std::printf("requests  events      fromRecords  bootstrap  finish   | ITL by sort  by selection | former "
                "bootstrap  ratio | peak RSS\n");
    for (const QString& word : parser.value(QStringLiteral("sizes")).split(u',')) {
        const qint64 count = word.toLongLong();
        if (count < 2)
            continue;
        const std::vector<RequestRecord> records = makeRecords(count, tokens, 20261204);
        const double durationS = double(StepMetrics::stepDurationNs(records)) / 1e9;

        double t = cpuSeconds();
        const StepMetrics m = StepMetrics::fromRecords(records, durationS, options);
        const double fromRecordsS = cpuSeconds() - t;
        t = cpuSeconds();
        const StepIntervals intervals = bootstrapIntervals(records, durationS, options, m);
        const double bootstrapS = cpuSeconds() - t;

        // The pooled ITL alone, the largest distribution: a full sort against the selections compute makes.
        std::vector<double> itls;
        itls.reserve(std::size_t(count) * std::size_t(tokens - 1));
        for (const RequestRecord& r : records) {
            for (std::size_t i = 1; i < r.chunkNs.size(); ++i)
                itls.push_back(RequestLatencies::itlMs(r, i));
        }
        t = cpuSeconds();
        const LatencyStats bySort = sortedStats(itls, options.percentiles);
        const double sortS = cpuSeconds() - t;
        t = cpuSeconds();
        const LatencyStats bySelection = LatencyStats::compute(std::move(itls), options.percentiles);
        const double selectS = cpuSeconds() - t;
        if (bySort.median != bySelection.median || bySort.percentiles != bySelection.percentiles)
            std::fprintf(stderr, "ITL figures differ between sort and selection\n");

        QString former = QStringLiteral("(skipped)");
        if (count <= formerUpTo) {
            t = cpuSeconds();
            const StepIntervals slow = formerBootstrap(records, durationS, options, m, kBootstrapSeed);
            const double formerS = cpuSeconds() - t;
            former = QStringLiteral("%1 s  %2x").arg(formerS, 0, 'f', 2).arg(formerS / bootstrapS, 0, 'f', 0);
            const Interval a = *slow.find(u"p99_itl_ms");
            const Interval b = *intervals.find(u"p99_itl_ms");
            if (a != b)
                std::fprintf(
                    stderr, "p99_itl_ms intervals differ: [%g, %g] vs [%g, %g]\n", a.low, a.high, b.low, b.high);
        }
        std::printf("%-9lld %-11lld %8.2f s  %7.2f s  %6.2f s | %8.2f s  %8.2f s | %-20s | %.0f MiB\n",
            static_cast<long long>(count), static_cast<long long>(count) * tokens, fromRecordsS, bootstrapS,
            fromRecordsS + bootstrapS, sortS, selectS, qPrintable(former), peakRssMiB());
        std::fflush(stdout);
    }
    return 0;
}
