// kneepoint-cli compare RUN RUN...: curves, deltas against a baseline, analyses and settings side by side.
#include "cli.h"
#include "cliverbs.h"

#include "metrics/phrase.h"
#include "runs/comparison.h"
#include "runs/regressiongate.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "store/runwriter.h"
#include "sweep/analysiswords.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace kp::cli {

#ifdef KNEEPOINT_CLI_EXPORT
// cmd_export.cpp: the comparison report (HTML, Markdown with its charts, PDF), drawn with the desktop
// application's code.
bool writeComparisonReport(
    const std::vector<SavedRun>& runs, const Comparison& comparison, const QString& path, QString* error);
#endif

namespace {

const char* const kCompareUsage
    = R"(Usage: kneepoint-cli compare RUN RUN... [--baseline RUN] [--metric ttft] [--percentile 99]
                             [--json] [--out FILE.json|.csv|.txt|.html|.md|.pdf] [--data-dir DIR]

Compares saved runs: each run's curve of one metric over the offered load, the other runs' deltas
in % against the baseline at equal load (interpolated linearly between the baseline's steps where
the loads differ; never extrapolated: outside the baseline's range there is no delta, and the
table says so), knee, saturation and SLO capacity side by side, and the settings and environment
values that differ between the runs (secrets are never shown).

RUN is a run's id, its name, or a run directory. The baseline is the first RUN unless --baseline
names one. --metric: ttft, tpot, itl, e2el, throughput, output_throughput or prefix_cache_hit_rate
(percent: the server's figure, else the cached tokens the responses reported). --percentile: mean,
median or a percentile the runs recorded (99, 99.9, p95); throughputs and the hit rate ignore it.
--out FILE.html, .md or .pdf writes the comparison report: the runs, their curves overlaid, the
findings side by side, the deltas and the differences (HTML is one self-contained file; Markdown
writes its charts beside it as PNG).

Regression gate: kneepoint-cli compare BASE NEW --fail-if 'ttft.p99>+10%' --fail-if 'slo_capacity<-5%'
[--junit FILE.xml]. Each --fail-if is METRIC>CHANGE or METRIC<CHANGE: METRIC is ttft, tpot, itl or e2el
with .mean, .median or .pNN (ttft.p99, e2el.p99.9), throughput, output_throughput, goodput, error_rate
(percent of requests), slo_capacity, knee, saturation or peak_throughput; CHANGE is a signed percentage
of BASE's value (+10%, -5%) or an amount in the metric's unit (+25ms, +0.5s, -2 req/s, +1 point of
error_rate). One verdict line per condition: FAIL (it holds), noise (it holds, but inside both runs'
95% confidence intervals), pass, or unknown (a run lacks the figure). Exit code 5 when a condition
FAILs, and with --fail-on-unknown also when a verdict is unknown. --junit writes the verdicts as JUnit
XML, one testcase per condition.)";

QString numberText(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'f', 2) : QStringLiteral("-");
}

QString findingText(const Finding& f, bool users)
{
    if (!f.found)
        return QStringLiteral("-");
    return (f.lowerBound ? QStringLiteral(">= ") : QString()) + loadWord(f.offered, users);
}

QString table(const QList<QStringList>& rows, const QString& indent)
{
    QList<int> widths;
    for (const QStringList& row : rows) {
        for (qsizetype c = 0; c < row.size(); ++c) {
            if (widths.size() <= c)
                widths << 0;
            widths[c] = std::max(widths[c], int(row[c].size()));
        }
    }
    QString out;
    for (const QStringList& row : rows) {
        QString line = indent;
        for (qsizetype c = 0; c < row.size(); ++c)
            line += c + 1 == row.size() ? row[c] : row[c].leftJustified(widths[c] + 2);
        out += line.trimmed().isEmpty() ? QString() : line.trimmed().prepend(indent) + QLatin1Char('\n');
    }
    return out;
}

QString comparisonText(const Comparison& c)
{
    const QString metric = c.metric == CompareMetric::Throughput ? QStringLiteral("Request throughput")
        : c.metric == CompareMetric::OutputThroughput            ? QStringLiteral("Output throughput")
        : c.metric == CompareMetric::PrefixCacheHitRate
        ? QStringLiteral("Prefix-cache hit rate")
        : QStringLiteral("%1 %2").arg(c.statistic.label(), compareMetricKey(c.metric).toUpper());
    const QString column = QStringLiteral("%1 (%2)").arg(metric, compareMetricUnit(c.metric));
    const CompareCurve& base = c.curves[std::size_t(c.baseline)];
    QString out = QStringLiteral("%1 against the baseline %2 (%3)\n").arg(column, base.name, base.id);
    bool anyInterpolated = false;
    for (std::size_t r = 0; r < c.curves.size(); ++r) {
        const CompareCurve& curve = c.curves[r];
        const bool isBase = int(r) == c.baseline;
        out += QStringLiteral("\n%1 (%2)%3%4\n")
                   .arg(curve.name, curve.id, isBase ? QStringLiteral(", baseline") : QString(),
                       curve.predicted ? QStringLiteral(", predicted by a twin, not a measurement") : QString());
        QList<QStringList> rows;
        if (isBase)
            rows << QStringList { QStringLiteral("load"), column, QString() };
        else
            rows << QStringList { QStringLiteral("load"), column, QStringLiteral("baseline"), QStringLiteral("delta"),
                QString() };
        for (std::size_t i = 0; i < curve.points.size(); ++i) {
            const ComparePoint& p = curve.points[i];
            const QString load = loadWord(p.offered, curve.concurrencyMode);
            if (isBase) {
                rows << QStringList { load, numberText(p.value), p.missing };
                continue;
            }
            const CompareDelta& d = c.deltas[r][i];
            anyInterpolated = anyInterpolated || d.interpolated;
            rows << QStringList { load, numberText(p.value),
                numberText(d.baselineValue) + (d.interpolated ? QStringLiteral("*") : QString()),
                d.percent ? QStringLiteral("%1%2%")
                                .arg(*d.percent >= 0 ? QStringLiteral("+") : QString())
                                .arg(*d.percent, 0, 'f', 1)
                          : QStringLiteral("-"),
                d.reason };
        }
        out += table(rows, QStringLiteral("  "));
    }
    if (anyInterpolated)
        out += QStringLiteral("\n* the baseline interpolated between its two neighbouring steps\n");

    out += QStringLiteral("\nAnalysis\n");
    QList<QStringList> rows { { QStringLiteral("run"), QStringLiteral("knee"), QStringLiteral("saturation"),
        QStringLiteral("SLO capacity"), QStringLiteral("peak throughput") } };
    QStringList reasons;
    for (std::size_t r = 0; r < c.curves.size(); ++r) {
        const AnalysisResult& a = c.analyses[r];
        const bool users = a.concurrencyMode;
        rows << QStringList { c.curves[r].name, findingText(a.knee, users), findingText(a.saturation, users),
            findingText(a.sloCapacity, users),
            a.peakStep >= 0 ? QStringLiteral("%1 req/s").arg(a.peakThroughput, 0, 'f', 2) : QStringLiteral("-") };
        for (const auto& [label, f] : { std::pair { "knee", &a.knee }, std::pair { "saturation", &a.saturation },
                 std::pair { "SLO capacity", &a.sloCapacity } }) {
            if (!f->found && !f->reason.isEmpty())
                reasons
                    << QStringLiteral("  %1, no %2: %3").arg(c.curves[r].name, QLatin1String(label), f->reason.text());
        }
    }
    out += table(rows, QStringLiteral("  "));
    for (const QString& reason : reasons)
        out += reason + QLatin1Char('\n');

    out += QStringLiteral("\nDifferences (settings and environment)\n");
    if (c.differences.empty()) {
        out += QStringLiteral("  none\n");
    } else {
        QList<QStringList> diff;
        QStringList header { QStringLiteral("key") };
        for (const CompareCurve& curve : c.curves)
            header << curve.name;
        diff << header;
        for (const SettingDifference& d : c.differences) {
            QStringList row { d.key };
            for (const QString& v : d.values)
                row << (v.isNull() ? QStringLiteral("-") : v.left(48));
            diff << row;
        }
        out += table(diff, QStringLiteral("  "));
    }
    return out;
}

} // namespace

int runCompare(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption baseline(QStringLiteral("baseline"),
        QStringLiteral("The run the others are compared against (default: the first)."), QStringLiteral("RUN"));
    const QCommandLineOption metric(QStringLiteral("metric"),
        QStringLiteral(
            "ttft | tpot | itl | e2el | throughput | output_throughput | prefix_cache_hit_rate (default ttft)."),
        QStringLiteral("METRIC"));
    const QCommandLineOption percentile(QStringLiteral("percentile"),
        QStringLiteral("mean | median | a percentile such as 99 or 99.9 (default 99)."), QStringLiteral("P"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON object on stdout."));
    const QCommandLineOption out(QStringLiteral("out"),
        QStringLiteral("Write the comparison to FILE: .json, .csv or .txt."), QStringLiteral("FILE"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Runs directory."), QStringLiteral("DIR"));
    const QCommandLineOption failIf(QStringLiteral("fail-if"),
        QStringLiteral("A regression condition, METRIC>CHANGE or METRIC<CHANGE (ttft.p99>+10%); repeatable. Exit "
                       "code 5 when one holds."),
        QStringLiteral("CONDITION"));
    const QCommandLineOption junit(QStringLiteral("junit"),
        QStringLiteral("With --fail-if: write the verdicts as JUnit XML to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption failOnUnknown(QStringLiteral("fail-on-unknown"),
        QStringLiteral("With --fail-if: an unknown verdict (a run lacks the figure, the runs share no load) fails "
                       "the gate too (exit code 5)."));
    p.addOptions({ baseline, metric, percentile, json, out, dataDir, failIf, junit, failOnUnknown });
    p.addPositionalArgument(
        QStringLiteral("RUN"), QStringLiteral("Run ids, names or directories."), QStringLiteral("RUN..."));
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kCompareUsage))
        return *exit;
    CompareMetric which = CompareMetric::Ttft;
    if (p.isSet(metric)) {
        const auto m = compareMetricFromKey(p.value(metric));
        if (!m) {
            say(QStringLiteral("error: --metric: unknown metric \"%1\" (ttft, tpot, itl, e2el, throughput, "
                               "output_throughput, prefix_cache_hit_rate)")
                    .arg(p.value(metric)));
            return ExitBadInput;
        }
        which = *m;
    }
    CompareStatistic statistic;
    if (p.isSet(percentile)) {
        const auto s = CompareStatistic::parse(p.value(percentile));
        if (!s) {
            say(QStringLiteral("error: --percentile: \"%1\" is not mean, median or a percentile between 0 and 100")
                    .arg(p.value(percentile)));
            return ExitBadInput;
        }
        statistic = *s;
    }
    std::vector<GateCondition> conditions;
    for (const QString& text : p.values(failIf)) {
        QString error;
        const auto condition = parseGateCondition(text, &error);
        if (!condition) {
            say(QStringLiteral("error: --fail-if %1").arg(error));
            return ExitBadInput;
        }
        conditions.push_back(*condition);
    }
    if (p.isSet(failOnUnknown) && conditions.empty()) {
        say(QStringLiteral("error: --fail-on-unknown: there is nothing to judge without --fail-if conditions"));
        return ExitBadInput;
    }
    if (p.isSet(junit) && conditions.empty()) {
        say(QStringLiteral("error: --junit %1: there is nothing to write without --fail-if conditions")
                .arg(p.value(junit)));
        return ExitBadInput;
    }
    enum class OutKind { None, Json, Csv, Text, Report } outKind = OutKind::None;
    if (p.isSet(out)) {
        const QString suffix = QFileInfo(p.value(out)).suffix().toLower();
        if (suffix == QLatin1String("json"))
            outKind = OutKind::Json;
        else if (suffix == QLatin1String("csv"))
            outKind = OutKind::Csv;
        else if (suffix == QLatin1String("txt"))
            outKind = OutKind::Text;
#ifdef KNEEPOINT_CLI_EXPORT
        else if (suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("md")
            || suffix == QLatin1String("pdf"))
            outKind = OutKind::Report;
#endif
        else {
            say(QStringLiteral("error: --out %1: unsupported file type \".%2\"; compare writes .json, .csv and .txt")
                    .arg(p.value(out), suffix));
            return ExitBadInput;
        }
    }

    QStringList names = p.positionalArguments();
    const RunCatalog catalog(p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory());
    QStringList dirs;
    for (const QString& name : names) {
        const auto dir = resolveRun(catalog, name);
        if (!dir)
            return ExitBadInput;
        dirs << *dir;
    }
    int baselineIndex = 0;
    if (p.isSet(baseline)) {
        const auto dir = resolveRun(catalog, p.value(baseline), QStringLiteral("--baseline: "));
        if (!dir)
            return ExitBadInput;
        baselineIndex = int(dirs.indexOf(*dir));
        if (baselineIndex < 0) {
            dirs.prepend(*dir);
            baselineIndex = 0;
        }
    }
    if (dirs.size() < 2) {
        say(QStringLiteral("error: compare needs at least two runs: kneepoint-cli compare RUN RUN... "
                           "(\"kneepoint-cli runs\" lists them)"));
        return ExitBadInput;
    }
    if (!conditions.empty() && dirs.size() != 2) {
        say(QStringLiteral("error: --fail-if judges two runs, BASE and NEW; got %1 (kneepoint-cli compare BASE NEW "
                           "--fail-if ...)")
                .arg(dirs.size()));
        return ExitBadInput;
    }
    std::vector<SavedRun> runs;
    for (const QString& dir : dirs) {
        SavedRunRead read = readSavedRun(dir);
        if (!read.ok()) {
            say(QStringLiteral("error: %1").arg(read.error));
            return ExitBadInput;
        }
        for (const QString& w : read.run->warnings)
            say(QStringLiteral("warning: %1").arg(w));
        runs.push_back(std::move(*read.run));
    }
    // A gate judges the server: a predicted run would pass or fail on the twin's error instead.
    for (const SavedRun& run : runs) {
        if (conditions.empty() || !run.predicted())
            continue;
        say(QStringLiteral("error: --fail-if judges measured runs; %1 (%2) is a prediction: %3. Gate a measured run "
                           "instead, or compare without --fail-if to see the prediction beside it")
                .arg(run.name, run.dir, predictionSentence(*run.prediction).english()));
        return ExitBadInput;
    }
    Comparison comparison = compareRuns(runs, baselineIndex, which, statistic);
    // Runs imported from files without the default statistic (an old SGLang file keeps medians only):
    // the highest one they record, said on stderr. A statistic asked for with --percentile stays.
    const auto anyValue = [](const Comparison& c) {
        for (const CompareCurve& curve : c.curves) {
            for (const ComparePoint& point : curve.points) {
                if (point.value && std::isfinite(*point.value))
                    return true;
            }
        }
        return false;
    };
    if (!p.isSet(percentile) && !anyValue(comparison)) {
        for (const char* word : { "99.9", "99", "95", "90", "median", "mean" }) {
            const std::optional<CompareStatistic> other = CompareStatistic::parse(QString::fromLatin1(word));
            if (!other || other->label() == statistic.label())
                continue;
            Comparison tried = compareRuns(runs, baselineIndex, which, *other);
            if (anyValue(tried)) {
                say(QStringLiteral("note: no run records %1 %3; comparing %2 %3, the highest they record")
                        .arg(statistic.label(), other->label(), compareMetricKey(which).toUpper()));
                comparison = std::move(tried);
                statistic = *other;
                break;
            }
        }
    }
#ifdef KNEEPOINT_CLI_EXPORT
    if (outKind == OutKind::Report) {
        QString error;
        if (!writeComparisonReport(runs, comparison, p.value(out), &error)) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitFailure;
        }
        say(QStringLiteral("wrote %1").arg(p.value(out)));
    } else
#endif
        if (outKind != OutKind::None) {
        const QByteArray bytes = outKind == OutKind::Json
            ? QJsonDocument(comparisonJson(comparison)).toJson(QJsonDocument::Indented)
            : outKind == OutKind::Csv ? comparisonCsv(comparison)
                                      : comparisonText(comparison).toUtf8();
        QString error;
        if (!writeFileAtomically(p.value(out), bytes, &error)) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitFailure;
        }
        say(QStringLiteral("wrote %1").arg(p.value(out)));
    }
    std::vector<GateVerdict> verdicts;
    if (!conditions.empty()) {
        const SavedRun& base = runs[std::size_t(baselineIndex)];
        const SavedRun& next = runs[std::size_t(1 - baselineIndex)];
        verdicts = evaluateGate(base, next, conditions);
        if (p.isSet(junit)) {
            QString error;
            if (!writeFileAtomically(
                    p.value(junit), gateJunitXml(verdicts, base, next, p.isSet(failOnUnknown)), &error)) {
                say(QStringLiteral("error: --junit: %1").arg(error));
                return ExitFailure;
            }
            say(QStringLiteral("wrote %1").arg(p.value(junit)));
        }
    }
    if (p.isSet(json)) {
        QJsonObject object = comparisonJson(comparison);
        if (!conditions.empty())
            object.insert(QLatin1String("gate"), gateJson(verdicts));
        writeOut(QJsonDocument(object).toJson(QJsonDocument::Indented));
    } else if (outKind == OutKind::None) {
        writeOut(comparisonText(comparison).toUtf8());
    }
    if (!conditions.empty() && !p.isSet(json)) {
        const SavedRun& base = runs[std::size_t(baselineIndex)];
        const SavedRun& next = runs[std::size_t(1 - baselineIndex)];
        QString text = QStringLiteral("%1Regression gate: BASE %2 (%3), NEW %4 (%5)\n")
                           .arg(outKind == OutKind::None ? QStringLiteral("\n") : QString(), base.name, base.id,
                               next.name, next.id);
        for (const GateVerdict& v : verdicts)
            text += v.line + QLatin1Char('\n');
        if (p.isSet(failOnUnknown) && !gateFailed(verdicts) && gateFailed(verdicts, true))
            text += QStringLiteral("The gate fails: a verdict is unknown (--fail-on-unknown).\n");
        writeOut(text.toUtf8());
    }
    return gateFailed(verdicts, p.isSet(failOnUnknown)) ? ExitRegression : ExitOk;
}

} // namespace kp::cli
