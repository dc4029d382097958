#include "load/arrivalschedule.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <numeric>

using namespace kp;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

ArrivalOptions gamma(double rate, double burstiness, std::uint64_t seed = 42)
{
    ArrivalOptions options;
    options.rate = rate;
    options.burstiness = burstiness;
    options.seed = seed;
    return options;
}

qint64 secondsToNs(double seconds)
{
    return std::llround(seconds * 1e9);
}

struct GapStats
{
    double mean = 0;
    double cv = 0;
};

// Gaps between successive sends, the first one (from t = 0) included, in seconds.
GapStats gapStats(const std::vector<qint64>& offsets)
{
    std::vector<double> gaps;
    qint64 previous = 0;
    for (qint64 t : offsets) {
        gaps.push_back(static_cast<double>(t - previous) / 1e9);
        previous = t;
    }
    const double n = static_cast<double>(gaps.size());
    const double mean = std::accumulate(gaps.begin(), gaps.end(), 0.0) / n;
    double squares = 0;
    for (double g : gaps)
        squares += (g - mean) * (g - mean);
    return { mean, std::sqrt(squares / n) / mean };
}

bool isNonDecreasing(const std::vector<qint64>& offsets)
{
    return std::is_sorted(offsets.begin(), offsets.end());
}

} // namespace

class TestArrivals : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void infiniteRateSendsAllAtOnce();
    void lastArrivalIsExactlyNOverRate_data();
    void lastArrivalIsExactlyNOverRate();
    void firstRequestWaitsOneGap();
    void constantSpacing_data();
    void constantSpacing();
    void gapStatistics_data();
    void gapStatistics();
    void rescalingKeepsTheShape();
    void deterministicForASeed();
    void smallCounts();
    void linearRampFromZero();
    void linearRampPoissonCounts();
    void rampDown();
    void rateAt();
    void invalidOptions_data();
    void invalidOptions();
    void streamKeepsTheRecordedSchedule();
    void streamHoldsNoSchedule();
    void streamReplaysAShardsShare();
};

void TestArrivals::infiniteRateSendsAllAtOnce()
{
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(100, gamma(inf, 0.5));
    QCOMPARE(offsets.size(), std::size_t(100));
    for (qint64 t : offsets)
        QCOMPARE(t, qint64(0));
}

void TestArrivals::lastArrivalIsExactlyNOverRate_data()
{
    QTest::addColumn<qint64>("count");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("burstiness");

    QTest::addRow("Poisson, 1000 at 20/s") << qint64(1000) << 20.0 << 1.0;
    QTest::addRow("bursty, 997 at 3.3/s") << qint64(997) << 3.3 << 0.5;
    QTest::addRow("regular, 500 at 7/s") << qint64(500) << 7.0 << 4.0;
    QTest::addRow("very bursty, 64 at 0.25/s") << qint64(64) << 0.25 << 0.1;
    QTest::addRow("constant, 10 at 3/s") << qint64(10) << 3.0 << inf;
    QTest::addRow("one request") << qint64(1) << 10.0 << 1.0;
}

void TestArrivals::lastArrivalIsExactlyNOverRate()
{
    QFETCH(qint64, count);
    QFETCH(double, rate);
    QFETCH(double, burstiness);

    for (std::uint64_t seed : { 0u, 1u, 2025u }) {
        const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(count, gamma(rate, burstiness, seed));
        QCOMPARE(offsets.size(), std::size_t(count));
        QCOMPARE(offsets.back(), secondsToNs(static_cast<double>(count) / rate));
        QVERIFY(isNonDecreasing(offsets));
        QVERIFY(offsets.front() >= 0);
    }
}

void TestArrivals::firstRequestWaitsOneGap()
{
    // The reference draws a gap before the first request too: nothing is sent at t = 0 unless the rate is inf.
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(50, gamma(10.0, 1.0));
    QVERIFY(offsets.front() > 0);
}

void TestArrivals::constantSpacing_data()
{
    QTest::addColumn<bool>("byDistribution"); // Distribution::Constant, or burstiness = inf as the reference spells it
    QTest::addRow("Distribution::Constant") << true;
    QTest::addRow("burstiness inf") << false;
}

void TestArrivals::constantSpacing()
{
    QFETCH(bool, byDistribution);
    ArrivalOptions options = gamma(4.0, byDistribution ? 1.0 : inf);
    if (byDistribution)
        options.distribution = ArrivalOptions::Distribution::Constant;
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(8, options);
    QCOMPARE(offsets,
        (std::vector<qint64> { 250'000'000, 500'000'000, 750'000'000, 1'000'000'000, 1'250'000'000, 1'500'000'000,
            1'750'000'000, 2'000'000'000 }));
}

void TestArrivals::gapStatistics_data()
{
    QTest::addColumn<double>("burstiness");
    QTest::addRow("burstiness 0.5: CV sqrt(2)") << 0.5;
    QTest::addRow("burstiness 1 (Poisson): CV 1") << 1.0;
    QTest::addRow("burstiness 4: CV 0.5") << 4.0;
    QTest::addRow("burstiness 0.2: CV sqrt(5)") << 0.2;
}

void TestArrivals::gapStatistics()
{
    QFETCH(double, burstiness);
    // Without the rescaling, gaps are gamma(shape b, scale 1 / (rate b)): mean 1 / rate, CV 1 / sqrt(b).
    // 40,000 gaps: the standard error of the mean is CV / 200 (0.7% at CV sqrt 2), of the CV about 1% for
    // shape 0.5; the tolerances are several times that, and the seeds are fixed.
    constexpr qint64 count = 40'000;
    constexpr double rate = 10.0;
    const double expectedCv = 1.0 / std::sqrt(burstiness);
    for (std::uint64_t seed : { 7u, 8u, 9u }) {
        ArrivalOptions options = gamma(rate, burstiness, seed);
        options.rescaleToTarget = false;
        const GapStats stats = gapStats(ArrivalSchedule::offsetsNs(count, options));
        QVERIFY2(std::abs(stats.mean * rate - 1.0) < 0.04 * expectedCv,
            qPrintable(QStringLiteral("mean gap %1 s, seed %2").arg(stats.mean).arg(seed)));
        QVERIFY2(std::abs(stats.cv / expectedCv - 1.0) < 0.05,
            qPrintable(QStringLiteral("CV %1, expected %2, seed %3").arg(stats.cv).arg(expectedCv).arg(seed)));
    }
}

void TestArrivals::rescalingKeepsTheShape()
{
    // The rescaling multiplies every time by one factor: the mean rate becomes exact, the CV is unchanged.
    ArrivalOptions options = gamma(10.0, 0.5, 11);
    const std::vector<qint64> scaled = ArrivalSchedule::offsetsNs(20'000, options);
    options.rescaleToTarget = false;
    const std::vector<qint64> raw = ArrivalSchedule::offsetsNs(20'000, options);
    const GapStats a = gapStats(scaled);
    const GapStats b = gapStats(raw);
    QCOMPARE(a.mean, 0.1);
    QVERIFY2(std::abs(a.cv - b.cv) < 1e-6, qPrintable(QStringLiteral("%1 vs %2").arg(a.cv).arg(b.cv)));
    QVERIFY(std::abs(static_cast<double>(raw.back() - scaled.back())) > 0);
}

void TestArrivals::deterministicForASeed()
{
    const std::vector<qint64> a = ArrivalSchedule::offsetsNs(1000, gamma(5.0, 0.7, 123));
    const std::vector<qint64> b = ArrivalSchedule::offsetsNs(1000, gamma(5.0, 0.7, 123));
    const std::vector<qint64> c = ArrivalSchedule::offsetsNs(1000, gamma(5.0, 0.7, 124));
    QCOMPARE(a, b);
    QVERIFY(a != c);
    // A shorter schedule draws the same gaps: only the final rescaling differs.
    ArrivalOptions raw = gamma(5.0, 0.7, 123);
    raw.rescaleToTarget = false;
    const std::vector<qint64> longer = ArrivalSchedule::offsetsNs(100, raw);
    const std::vector<qint64> shorter = ArrivalSchedule::offsetsNs(10, raw);
    QCOMPARE(std::vector<qint64>(longer.begin(), longer.begin() + 10), shorter);
}

void TestArrivals::smallCounts()
{
    QVERIFY(ArrivalSchedule::offsetsNs(0, gamma(10.0, 1.0)).empty());
    QVERIFY(ArrivalSchedule::offsetsNs(-3, gamma(10.0, 1.0)).empty());
    QCOMPARE(ArrivalSchedule::offsetsNs(1, gamma(10.0, 1.0)), std::vector<qint64> { 100'000'000 });
    QCOMPARE(ArrivalSchedule::offsetsNs(2, gamma(inf, 1.0)), (std::vector<qint64> { 0, 0 }));
}

void TestArrivals::linearRampFromZero()
{
    // Rate 0 -> 10/s over 10 s: L(t) = t^2 / 2 during the ramp (50 requests), then 50 + 10 (t - 10).
    // Constant spacing puts request k at L^-1(k + 1).
    ArrivalOptions options = gamma(10.0, 1.0);
    options.distribution = ArrivalOptions::Distribution::Constant;
    options.rampUpSeconds = 10.0;
    options.rampStartRate = 0.0;
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(60, options);
    QCOMPARE(offsets.size(), std::size_t(60));
    QCOMPARE(offsets[0], secondsToNs(std::sqrt(2.0)));
    QCOMPARE(offsets[7], secondsToNs(4.0));
    QCOMPARE(offsets[49], secondsToNs(10.0));
    QCOMPARE(offsets[50], secondsToNs(10.1));
    QCOMPARE(offsets[59], secondsToNs(11.0));
    QVERIFY(isNonDecreasing(offsets));

    // Starting at 5/s: L(t) = 5 t + t^2 / 4 for t <= 10 (75 requests).
    options.rampStartRate = 5.0;
    const std::vector<qint64> from5 = ArrivalSchedule::offsetsNs(80, options);
    QCOMPARE(from5[74], secondsToNs(10.0));
    QCOMPARE(from5[79], secondsToNs(10.5));
    // L(t) = 24 -> t = 4 (5 * 4 + 16 / 4 = 24).
    QCOMPARE(from5[23], secondsToNs(4.0));
}

void TestArrivals::linearRampPoissonCounts()
{
    // Rate 0 -> 100/s over 100 s: L(50 s) = 1250, L(100 s) = 5000; the last request lands where L = N.
    ArrivalOptions options = gamma(100.0, 1.0, 5);
    options.rampUpSeconds = 100.0;
    const qint64 count = 10'000;
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(count, options);
    QVERIFY(isNonDecreasing(offsets));
    QCOMPARE(offsets.back(), secondsToNs(150.0)); // 5000 + 100 (t - 100) = 10000
    const auto before = [&](double seconds) {
        return std::count_if(offsets.begin(), offsets.end(), [&](qint64 t) { return t < secondsToNs(seconds); });
    };
    QVERIFY2(std::abs(before(50.0) - 1250) < 4 * std::sqrt(1250.0), qPrintable(QString::number(before(50.0))));
    QVERIFY2(std::abs(before(100.0) - 5000) < 4 * std::sqrt(5000.0), qPrintable(QString::number(before(100.0))));
}

void TestArrivals::rampDown()
{
    // 20/s down to 10/s over 2 s: L(2) = 30, so the 30th request leaves at exactly 2 s.
    ArrivalOptions options = gamma(10.0, 1.0);
    options.distribution = ArrivalOptions::Distribution::Constant;
    options.rampUpSeconds = 2.0;
    options.rampStartRate = 20.0;
    const std::vector<qint64> offsets = ArrivalSchedule::offsetsNs(40, options);
    QCOMPARE(offsets[29], secondsToNs(2.0));
    QCOMPARE(offsets[39], secondsToNs(3.0));
    QVERIFY(isNonDecreasing(offsets));
}

void TestArrivals::rateAt()
{
    ArrivalOptions options = gamma(10.0, 1.0);
    QCOMPARE(ArrivalSchedule::rateAt(3.0, options), 10.0);
    options.rampUpSeconds = 4.0;
    options.rampStartRate = 2.0;
    QCOMPARE(ArrivalSchedule::rateAt(0.0, options), 2.0);
    QCOMPARE(ArrivalSchedule::rateAt(2.0, options), 6.0);
    QCOMPARE(ArrivalSchedule::rateAt(4.0, options), 10.0);
    QCOMPARE(ArrivalSchedule::rateAt(100.0, options), 10.0);
}

void TestArrivals::invalidOptions_data()
{
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("burstiness");
    QTest::addColumn<double>("rampSeconds");
    QTest::addColumn<double>("rampStart");
    QTest::addColumn<QString>("error");

    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::addRow("rate 0") << 0.0 << 1.0 << 0.0 << 0.0 << QStringLiteral("the request rate must be greater than 0");
    QTest::addRow("negative rate") << -1.0 << 1.0 << 0.0 << 0.0 << QStringLiteral("the request rate");
    QTest::addRow("NaN rate") << nan << 1.0 << 0.0 << 0.0 << QStringLiteral("the request rate");
    QTest::addRow("burstiness 0") << 1.0 << 0.0 << 0.0 << 0.0
                                  << QStringLiteral("the burstiness must be greater than 0");
    QTest::addRow("negative ramp") << 1.0 << 1.0 << -1.0 << 0.0 << QStringLiteral("the ramp-up time");
    QTest::addRow("ramp to inf") << inf << 1.0 << 5.0 << 0.0 << QStringLiteral("a ramp-up needs a finite target rate");
    QTest::addRow("negative ramp start") << 5.0 << 1.0 << 5.0 << -2.0 << QStringLiteral("the ramp-up start rate");
    QTest::addRow("valid") << 5.0 << 1.0 << 5.0 << 0.0 << QString();
}

void TestArrivals::invalidOptions()
{
    QFETCH(double, rate);
    QFETCH(double, burstiness);
    QFETCH(double, rampSeconds);
    QFETCH(double, rampStart);
    QFETCH(QString, error);

    ArrivalOptions options = gamma(rate, burstiness);
    options.rampUpSeconds = rampSeconds;
    options.rampStartRate = rampStart;
    const QString message = ArrivalSchedule::validate(options);
    QVERIFY2(error.isEmpty() ? message.isEmpty() : message.startsWith(error), qPrintable(message));
    QCOMPARE(ArrivalSchedule::offsetsNs(5, options).empty(), !error.isEmpty());
}

// The times made one at a time are the ones this seed has always given: recorded from the schedule as
// it was computed whole, before it was streamed.
void TestArrivals::streamKeepsTheRecordedSchedule()
{
    const std::vector<qint64> g = ArrivalSchedule::offsetsNs(1000, gamma(5.0, 0.7, 123));
    QCOMPARE(g.size(), std::size_t(1000));
    QCOMPARE(g[0], 56'689'399);
    QCOMPARE(g[1], 91'483'740);
    QCOMPARE(g[499], 101'901'953'561);
    QCOMPARE(g[999], 200'000'000'000);

    ArrivalOptions ramp = gamma(40.0, 1.0, 7);
    ramp.rampUpSeconds = 2.0;
    ramp.rampStartRate = 5.0;
    const std::vector<qint64> r = ArrivalSchedule::offsetsNs(300, ramp);
    QCOMPARE(r[0], 29'421'494);
    QCOMPARE(r[1], 262'473'002);
    QCOMPARE(r[149], 4'678'145'570);
    QCOMPARE(r[299], 8'375'000'000);

    ArrivalOptions raw = gamma(5.0, 0.7, 123);
    raw.rescaleToTarget = false;
    const std::vector<qint64> n = ArrivalSchedule::offsetsNs(50, raw);
    QCOMPARE(n[0], 57'694'331);
    QCOMPARE(n[49], 10'807'616'079);

    const std::vector<qint64> log { 0, 100, 250, 400, 1000 };
    QCOMPARE(ArrivalSchedule::replayOffsetsNs(log, 8, 3.0, 1.0),
        (std::vector<qint64> {
            0, 133'333'333, 333'333'333, 533'333'333, 1'333'333'333, 1'666'666'667, 1'800'000'000, 2'000'000'000 }));
}

// A day at a constant 25,000 req/s is two thousand million requests: their times, all at once, would be
// 16 GB. The stream gives them one at a time.
void TestArrivals::streamHoldsNoSchedule()
{
    const qint64 count = 2'000'000'000;
    ArrivalOptions options = gamma(25'000.0, inf);
    options.distribution = ArrivalOptions::Distribution::Constant;
    ArrivalStream stream(count, options);
    QCOMPARE(stream.size(), count);
    QVERIFY(!stream.atEnd());
    QCOMPARE(stream.peek(), 40'000);
    stream.next();
    QCOMPARE(stream.peek(), 80'000);
    for (int i = 0; i < 998; ++i)
        stream.next();
    QCOMPARE(stream.peek(), 1000 * 40'000);

    ArrivalStream two(2, options);
    two.next();
    QCOMPARE(two.peek(), 80'000);
    two.next();
    QVERIFY(two.atEnd());
    two.next(); // past the end stays at the end
    QVERIFY(two.atEnd());

    QVERIFY(ArrivalStream().atEnd());
    QVERIFY(ArrivalStream(10, gamma(-1.0, 1.0)).atEnd());
    QVERIFY(ArrivalStream(0, gamma(1.0, 1.0)).atEnd());
}

// A shard sends every stride-th request of the whole log's schedule, from its own first one.
void TestArrivals::streamReplaysAShardsShare()
{
    const std::vector<qint64> log { 0, 100, 250, 400, 1000 };
    const std::vector<qint64> all = ArrivalSchedule::replayOffsetsNs(log, 23, 3.0, 1.0);
    ArrivalStream shard = ArrivalStream::replay(log, 2, 3, 7, 3.0, 1.0);
    QCOMPARE(shard.size(), 7);
    std::vector<qint64> got;
    for (; !shard.atEnd(); shard.next())
        got.push_back(shard.peek());
    std::vector<qint64> expected;
    for (std::size_t i = 2; i < all.size(); i += 3)
        expected.push_back(all[i]);
    QCOMPARE(got, expected);
    QVERIFY(ArrivalStream::replay({}, 0, 1, 5, 1.0, 1.0).atEnd());
    QVERIFY(ArrivalStream::replay(log, 0, 0, 5, 1.0, 1.0).atEnd());
}

QTEST_GUILESS_MAIN(TestArrivals)
#include "tst_arrivals.moc"
