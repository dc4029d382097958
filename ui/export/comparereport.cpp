#include "export/comparereport.h"

#include "charts/comparechart.h"
#include "export/chartexport.h"
#include "kit/openrun.h"
#include "kit/runmeta.h"
#include "kit/uiformat.h"
#include "metrics/phrase.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>

#include <QRegularExpression>
#include <algorithm>

#include <cmath>

namespace kp::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("kp::ui::CompareReport", text);
}

QString findingWord(const Finding& f, bool users)
{
    if (!f.found || !std::isfinite(f.offered))
        return UiFormat::unknown();
    return (f.lowerBound ? QStringLiteral("≥ ") : QString()) + ReportNumber::load(f.offered) + u' '
        + (users ? QStringLiteral("users") : QStringLiteral("req/s"));
}

QString value(std::optional<double> v, CompareMetric metric)
{
    if (!v)
        return UiFormat::unknown();
    if (metric == CompareMetric::Throughput)
        return ReportNumber::rate(*v);
    if (metric == CompareMetric::OutputThroughput)
        return ReportNumber::tokens(*v);
    if (metric == CompareMetric::PrefixCacheHitRate)
        return QString::number(*v, 'f', 1) + u'%';
    return ReportNumber::ms(*v);
}

QString percent(std::optional<double> p)
{
    if (!p || !std::isfinite(*p))
        return UiFormat::unknown();
    return (*p > 0 ? QStringLiteral("+") : QString()) + QString::number(*p, 'f', 1) + u'%';
}

bool secretKey(const QString& key)
{
    static const QRegularExpression secret(
        // "tokenizer" (a result file's tokenizer_id: a model name) is no credential.
        QStringLiteral("authorization|api[-_ ]?key|apikey|token(?!izer)|secret|password|passwd|cookie|credential"),
        QRegularExpression::CaseInsensitiveOption);
    return secret.match(key.section(u'.', -1)).hasMatch();
}

} // namespace

CompareReport::CompareReport(const std::vector<SavedRun>* runs, const Comparison* comparison)
    : m_runs(runs)
    , m_comparison(comparison)
{ }

QString CompareReport::title() const
{
    QStringList names;
    for (const SavedRun& r : *m_runs)
        names << r.name;
    return tr("Kneepoint comparison: %1").arg(names.join(QStringLiteral(" vs ")));
}

ReportTable CompareReport::runsTable() const
{
    ReportTable t;
    t.header = { tr("Run"), tr("Date"), tr("Target"), tr("Model"), tr("Status"), tr("Steps") };
    t.numeric = { false, false, false, false, false, true };
    for (std::size_t i = 0; i < m_runs->size(); ++i) {
        const RunMeta m = runMeta((*m_runs)[i]);
        const QString name = m.predicted() ? tr("%1 (predicted)").arg(m.name) : m.name;
        t.rows << QStringList { int(i) == m_comparison->baseline ? tr("%1 (baseline)").arg(name) : name, m.dateText(),
            m.target, m.model, UiFormat::statusWord(m.status), QString::number((*m_runs)[i].steps.size()) };
    }
    return t;
}

ReportTable CompareReport::findingsTable() const
{
    ReportTable t;
    t.header << tr("Finding");
    t.numeric << false;
    for (const SavedRun& r : *m_runs) {
        t.header << r.name;
        t.numeric << true;
    }
    const auto& analyses = m_comparison->analyses;
    auto row = [&](const QString& name, auto pick) {
        QStringList cells { name };
        for (const AnalysisResult& a : analyses)
            cells << pick(a);
        t.rows << cells;
    };
    auto finding = [](const Finding AnalysisResult::*member) {
        return [member](const AnalysisResult& a) { return findingWord(a.*member, a.concurrencyMode); };
    };
    row(tr("Knee"), finding(&AnalysisResult::knee));
    row(tr("Throughput knee"), finding(&AnalysisResult::throughputKnee));
    row(tr("Saturation"), finding(&AnalysisResult::saturation));
    row(tr("Collapse"), finding(&AnalysisResult::collapse));
    row(tr("SLO capacity"), finding(&AnalysisResult::sloCapacity));
    row(tr("Recommended"), finding(&AnalysisResult::recommended));
    row(tr("Peak throughput (req/s)"), [](const AnalysisResult& a) {
        return a.peakStep >= 0 ? ReportNumber::rate(a.peakThroughput) : UiFormat::unknown();
    });
    return t;
}

ReportTable CompareReport::deltasTable() const
{
    const Comparison& c = *m_comparison;
    const QString unit = compareMetricUnit(c.metric);
    ReportTable t;
    t.header
        = { tr("Run"), tr("Offered"), tr("Value (%1)").arg(unit), tr("Baseline (%1)").arg(unit), tr("Δ"), tr("Note") };
    t.numeric = { false, true, true, true, true, false };
    for (std::size_t i = 0; i < c.deltas.size() && i < c.curves.size(); ++i) {
        if (int(i) == c.baseline)
            continue;
        for (const CompareDelta& d : c.deltas[i]) {
            QString note = d.reason;
            if (note.isEmpty() && d.interpolated)
                note = tr("baseline interpolated");
            t.rows << QStringList { c.curves[i].name, ReportNumber::load(d.offered), value(d.value, c.metric),
                value(d.baselineValue, c.metric), percent(d.percent), note };
        }
    }
    return t;
}

ReportTable CompareReport::differencesTable() const
{
    ReportTable t;
    t.header << tr("Setting");
    for (const SavedRun& r : *m_runs)
        t.header << r.name;
    for (const SettingDifference& d : m_comparison->differences) {
        QStringList cells { d.key };
        for (qsizetype i = 0; i < qsizetype(m_runs->size()); ++i) {
            const QString v = d.values.value(i);
            cells << (secretKey(d.key) && !v.isEmpty() && !v.startsWith(QLatin1String("${")) ? redactedPlaceholder()
                                                                                             : v);
        }
        t.rows << cells;
    }
    return t;
}

ReportTable CompareReport::serverTable(const ServerComparison& g)
{
    const bool perGpu = g.unit == ParetoUnit::Gpu;
    ReportTable t;
    t.header = { tr("Configuration"), tr("State"), tr("Knee"), tr("SLO capacity"), tr("Per GPU"), tr("Peak req/s"),
        perGpu ? tr("Best tok/s per GPU") : tr("Best tok/s"), tr("On the group's front"),
        g.hasSlo ? tr("Twin: SLO capacity") : tr("Twin: knee"), tr("Twin error") };
    t.numeric = { false, false, true, true, true, true, true, true, true, true };
    auto load = [](const std::optional<double>& v, bool users, bool lowerBound = false) {
        if (!v || !std::isfinite(*v))
            return UiFormat::unknown();
        return (lowerBound ? QStringLiteral("≥ ") : QString()) + ReportNumber::load(*v) + u' '
            + (users ? tr("users") : tr("req/s"));
    };
    for (int i = 0; i < int(g.runs.size()); ++i) {
        const ServerRunFigures& r = g.runs[std::size_t(i)];
        const bool users = r.concurrencyMode;
        QString state = UiFormat::statusWord(r.outcome.state);
        if (i == g.best)
            state = tr("%1, best").arg(state);
        QString twin;
        if (i == g.twinSource)
            twin = tr("fitted here");
        else if (r.twinPredicted)
            twin = load(r.twinPredicted, users);
        else
            twin = r.measured && g.twinSource >= 0 ? r.twinNote : UiFormat::unknown();
        t.rows << QStringList { r.outcome.combination.label(), state, load(r.knee, users),
            load(r.sloCapacity, users, r.sloCapacityLowerBound),
            r.sloCapacityPerGpu ? load(r.sloCapacityPerGpu, users) : UiFormat::unknown(),
            r.peakThroughput ? ReportNumber::rate(*r.peakThroughput) : UiFormat::unknown(),
            r.bestPerUnit ? ReportNumber::tokens(*r.bestPerUnit) : UiFormat::unknown(),
            r.measured ? QString::number(r.onGroupFront) : UiFormat::unknown(),
            twin.isEmpty() ? UiFormat::unknown() : twin,
            i == g.twinSource ? UiFormat::unknown() : twinErrorText(r.twinError) };
    }
    return t;
}

ReportDoc CompareReport::document(const QString& imageStem) const
{
    const Comparison& c = *m_comparison;
    ReportDoc doc(title());
    QString baseline
        = c.baseline >= 0 && c.baseline < int(m_runs->size()) ? (*m_runs)[std::size_t(c.baseline)].name : QString();
    doc.paragraph(tr("Baseline: %1. Deltas are at equal offered load; where the baseline has no step at a load, its "
                     "value is interpolated between its two neighbouring steps (never extrapolated).")
                      .arg(baseline));
    for (const SavedRun& run : *m_runs) {
        if (run.predicted()) // said before any figure, so that no reader takes it for a measurement
            doc.paragraph(tr("%1: %2").arg(run.name, predictionSentence(*run.prediction).text()));
    }

    if (m_group) {
        doc.heading(2, tr("Server configurations"));
        doc.paragraph(m_group->bestSentence);
        doc.table(serverTable(*m_group));
        if (m_group->twinSource >= 0)
            doc.paragraph(
                tr("The twin fitted on %1 was set to each other configuration's parameters and run at its loads; its "
                   "curves are dashed beside the measured ones, and its error is the predicted figure against the "
                   "measured one.")
                    .arg(m_group->runs[std::size_t(m_group->twinSource)].outcome.combination.label()));
        else if (!m_group->twinNote.isEmpty())
            doc.paragraph(tr("No twin check: %1.").arg(m_group->twinNote));
    }

    doc.heading(2, tr("Runs"));
    doc.table(runsTable());

    doc.heading(2, tr("Curves"));
    CompareChart chart;
    chart.setPalette(ChartExport::exportPalette());
    chart.setComparison(&c);
    if (m_group)
        chart.setPredictions(twinPredictions(*m_group, *m_runs));
    ChartCaption caption;
    caption.title = tr("Comparison · %1").arg(chart.curveTitle());
    QStringList names;
    for (const CompareCurve& curve : c.curves)
        names << (curve.predicted ? tr("%1 (predicted)").arg(curve.name) : curve.name);
    caption.subtitle = names.join(QStringLiteral(" · "));
    caption.note = tr("▲ marks each run's knee. The baseline's line is the thicker one.").toHtmlEscaped();
    if (std::any_of(c.curves.begin(), c.curves.end(), [](const CompareCurve& curve) { return curve.predicted; })
        || chart.predictionCount() > 0)
        caption.note += u' ' + tr("Dashed lines are a twin's predictions, not measurements.").toHtmlEscaped();
    doc.image(QStringLiteral("%1-%2.png").arg(imageStem, compareMetricKey(c.metric)), caption.title,
        ChartExport::png(&chart, caption, ChartExport::kDefaultSize, 2.0), ChartExport::kDefaultSize);
    if (c.metric != CompareMetric::Throughput) {
        const Comparison throughput = compareRuns(*m_runs, c.baseline, CompareMetric::Throughput, c.statistic);
        chart.setComparison(&throughput);
        caption.title = tr("Comparison · %1").arg(chart.curveTitle());
        doc.image(QStringLiteral("%1-throughput.png").arg(imageStem), caption.title,
            ChartExport::png(&chart, caption, ChartExport::kDefaultSize, 2.0), ChartExport::kDefaultSize);
        chart.setComparison(nullptr);
    }

    ParetoChart pareto;
    pareto.setPalette(ChartExport::exportPalette());
    pareto.setFronts(compareParetoFronts(*m_runs));
    if (pareto.hasData()) {
        caption.title = tr("Interactivity against throughput: the Pareto fronts");
        caption.note = tr("Large dots joined by a line: the steps no other step of the run beats on both output "
                          "tok/s per user (1000 / median TPOT) and %1.")
                           .arg(pareto.verticalTitle())
                           .toHtmlEscaped();
        doc.image(QStringLiteral("%1-pareto.png").arg(imageStem), caption.title,
            ChartExport::png(&pareto, caption, ChartExport::kDefaultSize, 2.0), ChartExport::kDefaultSize);
    }

    doc.heading(2, tr("Knee and capacity"));
    doc.table(findingsTable());

    doc.heading(2, tr("Deltas against %1").arg(baseline));
    const ReportTable deltas = deltasTable();
    if (deltas.rows.isEmpty())
        doc.paragraph(tr("No run has a load within the baseline's range."));
    else
        doc.table(deltas);

    doc.heading(2, tr("What differs"));
    const ReportTable differences = differencesTable();
    if (differences.rows.isEmpty())
        doc.paragraph(tr("The runs' profiles and environments are the same."));
    else
        doc.table(differences);
    return doc;
}

bool CompareReport::write(ReportFormat format, const QString& path, QString* error) const
{
    switch (format) {
    case ReportFormat::Html:
        return writeExportFile(path, document().html(ReportDoc::ImageMode::DataUri), error);
    case ReportFormat::Pdf:
        return writeExportFile(path, document().pdf(), error);
    case ReportFormat::Csv:
    case ReportFormat::Json: {
        // Files for machines: the same comparison, its reasons and the runs' analyses in English.
        const EnglishPhrases english;
        const Comparison c
            = compareRuns(*m_runs, m_comparison->baseline, m_comparison->metric, m_comparison->statistic);
        return writeExportFile(path,
            format == ReportFormat::Csv ? comparisonCsv(c)
                                        : QJsonDocument(comparisonJson(c)).toJson(QJsonDocument::Indented),
            error);
    }
    case ReportFormat::Markdown: {
        std::vector<std::pair<QString, QByteArray>> images;
        const QByteArray md = document(QFileInfo(path).completeBaseName()).markdown(&images);
        return writeMarkdownWithImages(path, md, images, error);
    }
    }
    return false;
}

} // namespace kp::ui
