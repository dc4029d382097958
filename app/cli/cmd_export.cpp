// kneepoint-cli export RUN: a saved run's charts (PNG, SVG, PDF) or its report (HTML, Markdown, PDF) and
// steps table (CSV, JSON), drawn by the desktop application's chart and report code, with no display.
#include "cli.h"
#include "cliverbs.h"

#include "charts/ttftbreakdownchart.h"
#include "export/chartset.h"
#include "export/comparereport.h"
#include "export/runreport.h"
#include "kit/liverun.h"
#include "kit/openrun.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "runs/steptimeline.h"
#include "serve/servercomparison.h"
#include "store/runwriter.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace kp::cli {

namespace {

const char* const kExportUsage = R"(Usage: kneepoint-cli export RUN --out FILE [--format FORMAT] [options]
       kneepoint-cli export RUN --timeline --out FILE.csv

Writes a saved run's chart or report. RUN is a run's id (its directory name), its name, or a
directory path. FORMAT is png, svg or pdf for one chart (--chart), html, md or pdf for the report
with --report (md also writes its charts as PNG files beside FILE), csv or json for the steps
table; without --format it comes from FILE's suffix (a .pdf is the chart unless --report is given).
With --timeline, a CSV of every step second by second (one row per step and second).

Options:
  --out FILE               where to write (required)
  --format FORMAT          png | svg | pdf | html | md | csv | json
  --report                 the whole report (html, md, pdf), not one chart
  --timeline               every step second by second, as CSV (from steps/NNN.requests.jsonl
                           and steps/NNN.metrics.jsonl)
  --chart latency|throughput|prefix_cache|gpu|pareto|timeline|timeline_latency|
          timeline_server|gantt
                               which chart (default latency); the timeline charts and gantt
                               draw one step (--step); gpu needs a run with GPU figures
  --step N                 the step of a timeline or gantt chart (its number in the steps table)
  --second S               gantt: the second of the step whose scheduled requests are drawn
                           (default 0)
  --metric ttft|tpot|itl|e2el  the latency on the load-latency chart (default: the analysed one)
  --percentile P           its upper curve (default: the SLO's percentile, else 99)
  --log                    logarithmic latency axis
  --scale S                PNG pixel ratio: 1 (default), 2 for slides
  --size WxH               the chart's size in logical pixels (default 1200x720)
  --data-dir DIR           the runs directory (default $XDG_DATA_HOME/Kneepoint/Kneepoint/runs)
  --no-records             ignore the per-request records (faster for big runs; no histograms
                           or failure examples in the report))";

// RUN --timeline: one row per step and second, from each step's request records and scrapes. A step
// without its request records is named in a note and left out.
int writeTimelineCsv(const QString& dir, const QString& path)
{
    const SavedRunRead read = readSavedRun(dir);
    if (!read.ok()) {
        say(QStringLiteral("error: %1").arg(read.error));
        return ExitBadInput;
    }
    const SavedRun& run = *read.run;
    for (const QString& w : run.warnings)
        say(QStringLiteral("warning: %1").arg(w));
    if (run.predicted()) {
        say(QStringLiteral("error: %1: no per-request records: predicted (a twin's prediction has no timeline)")
                .arg(run.dir));
        return ExitBadInput;
    }
    QByteArray csv = timelineCsvHeader();
    QStringList untimed; // steps whose records carry no send times
    int written = 0;
    qint64 rows = 0;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const SavedStep& step = run.steps[i];
        const int number = int(i) + 1; // as in the steps table and the report
        if (step.requestsPath.isEmpty()) {
            QString expected = QDir(run.dir).relativeFilePath(step.resultPath);
            if (expected.endsWith(QLatin1String(".json")))
                expected = expected.left(expected.size() - 5) + QStringLiteral(".requests.jsonl");
            say(QStringLiteral("note: step %1 (%2) has no request records (%3 in %4): left out of the timeline")
                    .arg(number)
                    .arg(step.load, expected, run.dir));
            continue;
        }
        if (!step.noTimeline.isEmpty()) {
            say(QStringLiteral("note: step %1 (%2): %3: left out of the timeline")
                    .arg(number)
                    .arg(step.load, step.noTimeline));
            untimed << QStringLiteral("step %1: %2").arg(number).arg(step.noTimeline);
            continue;
        }
        // A bad line is skipped and named, as in the report and the charts; an unreadable file leaves
        // the step out.
        std::vector<RequestRecord> records;
        QString error;
        QStringList skipped;
        const bool readOk = readRequestRecords(step.requestsPath, &records, &error, &skipped);
        for (const QString& s : skipped)
            say(QStringLiteral("warning: %1").arg(s));
        if (!readOk) {
            say(QStringLiteral("note: step %1 (%2): %3: left out of the timeline").arg(number).arg(step.load, error));
            continue;
        }
        std::vector<ServerSample> samples;
        if (!step.metricsPath.isEmpty()) {
            QFile file(step.metricsPath);
            if (file.open(QIODevice::ReadOnly))
                samples = StepTelemetry::samplesFromJsonl(file.readAll());
            else
                say(QStringLiteral("note: %1: cannot read: %2; step %3's server figures are left empty")
                        .arg(step.metricsPath, file.errorString())
                        .arg(number));
        }
        const StepTimeline timeline = StepTimeline::compute(records, samples, step.metrics.durationS);
        for (const QString& note : timeline.leftOutNotes(step.requestsPath, step.metricsPath, step.metrics.durationS))
            say(QStringLiteral("note: step %1 (%2): %3").arg(number).arg(step.load, note));
        csv += timelineCsvRows(number, timelineLoad(step.load, step.setup, step.metrics), timeline);
        rows += qint64(timeline.seconds.size());
        ++written;
    }
    if (written == 0 && !untimed.isEmpty()) {
        say(QStringLiteral("error: no timeline to write for %1: %2").arg(run.dir, untimed.join(QStringLiteral("; "))));
        return ExitBadInput;
    }
    if (written == 0) {
        say(QStringLiteral("error: no step of %1 has request records (steps/NNN.requests.jsonl): no timeline to write")
                .arg(run.dir));
        return ExitBadInput;
    }
    QString error;
    if (!writeFileAtomically(path, csv, &error)) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitFailure;
    }
    say(QStringLiteral("Wrote %1 (%2 rows, %3 of %4 steps)").arg(path).arg(rows).arg(written).arg(run.steps.size()));
    return ExitOk;
}

} // namespace

// Whether this command line needs a QApplication (charts are drawn with Qt Widgets).
bool verbNeedsGui(const QStringList& arguments)
{
    const QString verb = arguments.value(1);
    if (verb == QLatin1String("export"))
        return !arguments.contains(QStringLiteral("--help")) && !arguments.contains(QStringLiteral("-h"));
    if (verb == QLatin1String("compare")) {
        // Only a report (.html, .md, .pdf) draws charts.
        for (qsizetype i = 2; i < arguments.size(); ++i) {
            QString file;
            if (arguments[i] == QLatin1String("--out"))
                file = arguments.value(i + 1);
            else if (arguments[i].startsWith(QLatin1String("--out=")))
                file = arguments[i].mid(6);
            const std::optional<ui::ReportFormat> f = ui::reportFormatForPath(file);
            if (f && (*f == ui::ReportFormat::Html || *f == ui::ReportFormat::Markdown || *f == ui::ReportFormat::Pdf))
                return true;
        }
    }
    return false;
}

bool writeComparisonReport(
    const std::vector<SavedRun>& runs, const Comparison& comparison, const QString& path, QString* error)
{
    const std::optional<ui::ReportFormat> format = ui::reportFormatForPath(path);
    QStringList dirs;
    for (const SavedRun& run : runs)
        dirs << run.dir;
    // One server sweep's runs: the group's comparison too, with the twin's check drawn beside the curves.
    const QString group = serverGroupOf(dirs);
    const std::optional<ServerComparison> server
        = group.isEmpty() ? std::nullopt : readServerComparison(group, dirs, nullptr);
    if (!server) {
        const ui::CompareReport report(&runs, &comparison);
        return report.write(format.value_or(ui::ReportFormat::Html), path, error);
    }
    std::vector<SavedRun> named = runs;
    nameRunsByConfiguration(named, *server);
    const Comparison c = compareRuns(named, comparison.baseline, comparison.metric, comparison.statistic);
    ui::CompareReport report(&named, &c);
    report.setServerComparison(&*server);
    say(QStringLiteral("note: the runs are one server sweep's (%1): the report holds its comparison and the twin's "
                       "check")
            .arg(group));
    return report.write(format.value_or(ui::ReportFormat::Html), path, error);
}

int runExport(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("Output file."), QStringLiteral("FILE"));
    const QCommandLineOption format(
        QStringLiteral("format"), QStringLiteral("Output format."), QStringLiteral("FORMAT"));
    const QCommandLineOption report(QStringLiteral("report"), QStringLiteral("The whole report."));
    const QCommandLineOption chart(
        QStringLiteral("chart"), QStringLiteral("latency | throughput."), QStringLiteral("CHART"));
    const QCommandLineOption metric(
        QStringLiteral("metric"), QStringLiteral("ttft | tpot | itl | e2el."), QStringLiteral("METRIC"));
    const QCommandLineOption percentile(
        QStringLiteral("percentile"), QStringLiteral("Upper curve percentile."), QStringLiteral("P"));
    const QCommandLineOption log(QStringLiteral("log"), QStringLiteral("Logarithmic latency axis."));
    const QCommandLineOption scale(QStringLiteral("scale"), QStringLiteral("PNG pixel ratio."), QStringLiteral("S"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Chart size WxH."), QStringLiteral("WxH"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Runs directory."), QStringLiteral("DIR"));
    const QCommandLineOption noRecords(QStringLiteral("no-records"), QStringLiteral("Ignore request records."));
    const QCommandLineOption timeline(QStringLiteral("timeline"), QStringLiteral("Every step second by second."));
    const QCommandLineOption stepOption(
        QStringLiteral("step"), QStringLiteral("The step of a timeline or gantt chart."), QStringLiteral("N"));
    const QCommandLineOption secondOption(
        QStringLiteral("second"), QStringLiteral("The second of a gantt chart."), QStringLiteral("S"));
    p.addOptions({ out, format, report, chart, metric, percentile, log, scale, size, dataDir, noRecords, timeline,
        stepOption, secondOption });
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kExportUsage))
        return *exit;
    const QStringList pos = p.positionalArguments();
    if (pos.size() != 1) {
        say(pos.isEmpty() ? QStringLiteral("error: export needs a RUN (id, name or directory); see --help")
                          : QStringLiteral("error: export takes one RUN, got %1").arg(pos.size()));
        return ExitBadInput;
    }
    if (!p.isSet(out) || p.value(out).isEmpty()) {
        say(QStringLiteral("error: --out FILE is required"));
        return ExitBadInput;
    }
    const QString path = p.value(out);
    const QString formatKey = p.isSet(format) ? p.value(format).toLower() : QFileInfo(path).suffix().toLower();
    const bool chartFormat = formatKey == QLatin1String("png") || formatKey == QLatin1String("svg")
        || (formatKey == QLatin1String("pdf") && !p.isSet(report));
    const std::optional<ui::ReportFormat> reportFormat = ui::reportFormatFromKey(formatKey);
    if (!chartFormat && !reportFormat) {
        say(formatKey.isEmpty()
                ? QStringLiteral("error: --out %1 has no suffix; give --format png|svg|pdf|html|md|csv|json").arg(path)
                : QStringLiteral("error: --format %1: expected png, svg, pdf, html, md, csv or json").arg(formatKey));
        return ExitBadInput;
    }
    // The RUN's directory, looked up once the options are known to be good.
    const auto runDirectory = [&] {
        return resolveRun(RunCatalog(p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory()), pos.constFirst());
    };
    if (p.isSet(timeline)) {
        if (formatKey != QLatin1String("csv")) {
            say(QStringLiteral("error: --timeline is written as csv, not %1 (--out FILE.csv)")
                    .arg(formatKey.isEmpty() ? path : formatKey));
            return ExitBadInput;
        }
        for (const QCommandLineOption* other : { &report, &chart, &noRecords }) {
            if (p.isSet(*other)) {
                say(QStringLiteral("error: --timeline and --%1 do not go together").arg(other->names().constFirst()));
                return ExitBadInput;
            }
        }
        const std::optional<QString> dir = runDirectory();
        if (!dir)
            return ExitBadInput;
        return writeTimelineCsv(*dir, path);
    }
    if (p.isSet(report)
        && (chartFormat || *reportFormat == ui::ReportFormat::Csv || *reportFormat == ui::ReportFormat::Json)) {
        say(QStringLiteral("error: --report is written as html, md or pdf, not %1").arg(formatKey));
        return ExitBadInput;
    }

    ui::ChartOptions options;
    if (p.isSet(chart)) {
        const std::optional<ui::ChartKind> kind = ui::ChartOptions::kindFromKey(p.value(chart));
        if (!kind) {
            say(QStringLiteral("error: --chart %1: expected latency, throughput, prefix_cache, gpu, ttft_breakdown, "
                               "pareto, timeline, timeline_latency, timeline_server or gantt")
                    .arg(p.value(chart)));
            return ExitBadInput;
        }
        options.kind = *kind;
    }
    const bool stepChart = ui::ChartOptions::isStepChart(options.kind);
    for (const QCommandLineOption* o : { &stepOption, &secondOption }) {
        if (!p.isSet(*o))
            continue;
        bool ok = false;
        const int v = p.value(*o).toInt(&ok);
        if (!ok || v < (o == &stepOption ? 1 : 0)) {
            say(QStringLiteral("error: --%1 %2: expected a whole number from %3")
                    .arg(o->names().constFirst(), p.value(*o),
                        o == &stepOption ? QStringLiteral("1") : QStringLiteral("0")));
            return ExitBadInput;
        }
        (o == &stepOption ? options.step : options.second) = v;
    }
    if (stepChart && !p.isSet(stepOption)) {
        say(QStringLiteral("error: --chart %1 draws one step: give --step N").arg(p.value(chart)));
        return ExitBadInput;
    }
    if (!stepChart && p.isSet(stepOption)) {
        say(QStringLiteral("error: --step goes with --chart timeline, timeline_latency, timeline_server or gantt"));
        return ExitBadInput;
    }
    if (p.isSet(secondOption) && options.kind != ui::ChartKind::Gantt) {
        say(QStringLiteral("error: --second goes with --chart gantt"));
        return ExitBadInput;
    }
    std::optional<LatencyMetric> chosenMetric;
    if (p.isSet(metric)) {
        chosenMetric = latencyMetricFromKey(p.value(metric).toLower());
        if (!chosenMetric) {
            say(QStringLiteral("error: --metric %1: expected ttft, tpot, itl or e2el").arg(p.value(metric)));
            return ExitBadInput;
        }
    }
    if (p.isSet(percentile)) {
        QString word = p.value(percentile);
        if (word.startsWith(u'p') || word.startsWith(u'P'))
            word.remove(0, 1);
        bool ok = false;
        const double v = word.toDouble(&ok);
        if (!ok || !(v > 0) || !(v < 100)) {
            say(QStringLiteral("error: --percentile %1: expected a number between 0 and 100, e.g. 99 or 99.9")
                    .arg(p.value(percentile)));
            return ExitBadInput;
        }
        options.percentile = v;
    }
    options.logScale = p.isSet(log);
    double pixelRatio = 1.0;
    if (p.isSet(scale)) {
        bool ok = false;
        pixelRatio = p.value(scale).toDouble(&ok);
        if (!ok || pixelRatio < 0.5 || pixelRatio > 4) {
            say(QStringLiteral("error: --scale %1: expected a pixel ratio from 0.5 to 4, e.g. 2").arg(p.value(scale)));
            return ExitBadInput;
        }
    }
    QSize chartSize = ui::ChartExport::kDefaultSize;
    if (p.isSet(size)) {
        static const QRegularExpression wxh(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
        const QRegularExpressionMatch m = wxh.match(p.value(size));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0;
        const int h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 200 || h < 150 || w > 8000 || h > 8000) {
            say(QStringLiteral("error: --size %1: expected WIDTHxHEIGHT from 200x150 to 8000x8000").arg(p.value(size)));
            return ExitBadInput;
        }
        chartSize = QSize(w, h);
    }

    const std::optional<QString> dir = runDirectory();
    if (!dir)
        return ExitBadInput;
    QString error;
    const std::optional<ui::OpenedRun> opened = ui::openRunDirectory(*dir, &error, !p.isSet(noRecords));
    if (!opened) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitBadInput;
    }
    for (const QString& w : opened->warnings)
        say(QStringLiteral("warning: %1").arg(w));
    ui::LiveRun run(nullptr);
    opened->showIn(&run);

    if (reportFormat && !chartFormat) {
        const ui::RunReport r(&run, opened->meta);
        if (!r.write(*reportFormat, path, &error)) {
            say(QStringLiteral("error: %1").arg(error));
            return ExitFailure;
        }
        say(QStringLiteral("Wrote %1").arg(path));
        return ExitOk;
    }

    if (run.steps().empty()) {
        say(QStringLiteral("error: %1 has no finished step to draw").arg(*dir));
        return ExitBadInput;
    }
    if (stepChart) {
        if (options.step > int(run.steps().size())) {
            say(QStringLiteral("error: --step %1: %2 has steps 1 to %3")
                    .arg(options.step)
                    .arg(*dir)
                    .arg(run.steps().size()));
            return ExitBadInput;
        }
        const ui::StepReport& step = run.steps()[std::size_t(options.step - 1)];
        if (step.timeline.isEmpty() && opened->meta.predicted()) {
            say(QStringLiteral("error: step %1 of %2: no per-request records: predicted (a twin's prediction has "
                               "no requests to draw)")
                    .arg(options.step)
                    .arg(*dir));
            return ExitBadInput;
        }
        if (step.timeline.isEmpty() && !step.noTimeline.isEmpty()) {
            say(QStringLiteral("error: step %1 of %2 has no timeline: %3")
                    .arg(options.step)
                    .arg(*dir, step.noTimeline));
            return ExitBadInput;
        }
        if (step.timeline.isEmpty()) {
            say(QStringLiteral("error: step %1 of %2 has no request records (steps/NNN.requests.jsonl)%3: no timeline "
                               "to draw")
                    .arg(options.step)
                    .arg(*dir, p.isSet(noRecords) ? QStringLiteral(" read (--no-records)") : QString()));
            return ExitBadInput;
        }
        if (options.kind == ui::ChartKind::Gantt && options.second >= int(step.timeline.seconds.size())) {
            say(QStringLiteral("error: --second %1: step %2 lasted seconds 0 to %3")
                    .arg(options.second)
                    .arg(options.step)
                    .arg(step.timeline.seconds.size() - 1));
            return ExitBadInput;
        }
    }
    if (options.kind == ui::ChartKind::Gpu) {
        const bool anyGpu = std::any_of(run.steps().begin(), run.steps().end(), [](const ui::StepReport& s) {
            return s.server.stats && (s.server.stats->gpuUtilisationMean || s.server.stats->gpuFbUsedMaxMiB);
        });
        if (!anyGpu) {
            say(QStringLiteral("error: no step of %1 has GPU figures: add a DCGM or AMD exporter URL to "
                               "target.metrics_urls, or run the simulator with --gpus N")
                    .arg(*dir));
            return ExitBadInput;
        }
    }
    if (options.kind == ui::ChartKind::TtftBreakdown
        && ui::TtftBreakdownChart::bars(
            run.steps(), run.info().profile.load.mode == LoadMode::Concurrency ? LoadMode::Concurrency : LoadMode::Rate)
               .empty()) {
        say(QStringLiteral("error: no step of %1 has the server's queue and prefill times (vLLM's "
                           "request_queue_time_seconds and request_prefill_time_seconds on /metrics): no TTFT "
                           "breakdown to draw")
                .arg(*dir));
        return ExitBadInput;
    }
    options.metric = chosenMetric ? *chosenMetric : run.info().analysisOptions.metric;
    // Without --percentile, a run that lacks the analysed percentile (an imported file) is drawn with the
    // highest one it has, and the title says which; a run whose every request failed is drawn as such. A
    // percentile asked for by name that no step has is refused, naming those the run has.
    if (options.kind == ui::ChartKind::Latency && options.percentile && !ui::everyRequestFailed(run.steps())) {
        const double pct = *options.percentile;
        bool any = false;
        QStringList recorded;
        for (const ui::StepReport& s : run.steps()) {
            const LatencyStats& st = s.metrics.stats(options.metric);
            any = any || ui::percentileValue(st, pct).has_value();
            for (const auto& [q, v] : st.percentiles) {
                const QString w = QStringLiteral("P") + LatencyStats::percentileWord(q);
                if (isKnown(v) && !recorded.contains(w))
                    recorded << w;
            }
            const QString median = QStringLiteral("P50");
            if (ui::percentileValue(st, 50).has_value() && !recorded.contains(median))
                recorded << median;
        }
        if (!any) {
            say(QStringLiteral("error: no step of %1 has P%2 %3; the run has %4")
                    .arg(opened->meta.name, LatencyStats::percentileWord(pct),
                        latencyMetricKey(options.metric).toUpper(),
                        recorded.isEmpty()
                            ? QStringLiteral("no %1 value at all").arg(latencyMetricKey(options.metric).toUpper())
                            : recorded.join(QStringLiteral(", "))));
            return ExitBadInput;
        }
    }
    const ui::ChartFileFormat chartFileFormat = formatKey == QLatin1String("png") ? ui::ChartFileFormat::Png
        : formatKey == QLatin1String("svg")                                       ? ui::ChartFileFormat::Svg
                                                                                  : ui::ChartFileFormat::Pdf;
    ui::ChartSet charts(&run);
    ui::ChartPanel* panel = charts.panel(options);
    const ui::ChartCaption caption = charts.caption(options, opened->meta);
    if (!ui::ChartExport::write(panel, caption, chartFileFormat, path, chartSize, pixelRatio, &error)) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitFailure;
    }
    say(QStringLiteral("Wrote %1").arg(path));
    return ExitOk;
}

} // namespace kp::cli
