#include "export/runreport.h"

#include "charts/gpuchart.h"
#include "charts/loadlatencychart.h"
#include "charts/paretochart.h"
#include "charts/prefixcachechart.h"
#include "charts/ttftbreakdownchart.h"
#include "export/chartset.h"
#include "kit/liverun.h"
#include "kit/stepstablemodel.h"
#include "kit/uiformat.h"
#include "metrics/filewrite.h"
#include "metrics/jsonvalues.h"
#include "metrics/phrase.h"
#include "profile/profilestore.h"
#include "sweep/analysistext.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("kp::ui::RunReport", text);
}

bool isSecretName(const QString& name)
{
    static const QRegularExpression secret(
        // "tokenizer" (a result file's tokenizer_id: a model name) is no credential.
        QStringLiteral("authorization|api[-_ ]?key|apikey|token(?!izer)|secret|password|passwd|cookie|credential"),
        QRegularExpression::CaseInsensitiveOption);
    return secret.match(name).hasMatch();
}

QJsonValue redactValue(const QString& key, const QJsonValue& value)
{
    if (value.isObject())
        return redactSecrets(value.toObject());
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue& v : value.toArray())
            out.append(redactValue(QString(), v));
        return out;
    }
    if (value.isString() && isSecretName(key)) {
        const QString s = value.toString();
        static const QRegularExpression variable(QStringLiteral("^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$"));
        if (s.isEmpty() || variable.match(s).hasMatch())
            return s;
        return redactedPlaceholder();
    }
    return value;
}

QString sloWords(const Slo& slo)
{
    QStringList parts;
    if (slo.ttftMs)
        parts << QStringLiteral("%1 TTFT ≤ %2 ms")
                     .arg(UiFormat::percentileWord(slo.ttftP()), ReportNumber::ms(*slo.ttftMs));
    if (slo.tpotMs)
        parts << QStringLiteral("%1 TPOT ≤ %2 ms")
                     .arg(UiFormat::percentileWord(slo.tpotP()), ReportNumber::ms(*slo.tpotMs));
    if (slo.e2elMs)
        parts << QStringLiteral("%1 E2EL ≤ %2 ms")
                     .arg(UiFormat::percentileWord(slo.e2elP()), ReportNumber::ms(*slo.e2elMs));
    if (slo.ttfcMs)
        parts << QStringLiteral("%1 TTFC ≤ %2 ms")
                     .arg(UiFormat::percentileWord(slo.ttfcP()), ReportNumber::ms(*slo.ttfcMs));
    if (slo.maxErrorRate)
        parts << QStringLiteral("errors ≤ %1%").arg(QString::number(*slo.maxErrorRate * 100, 'g', 4));
    return parts.join(QStringLiteral(", "));
}

QString jsonScalar(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Double:
        return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    default:
        return {};
    }
}

QList<std::pair<QString, QString>> objectRows(const QJsonObject& object, const QStringList& skip = {})
{
    QList<std::pair<QString, QString>> rows;
    const QJsonObject clean = redactSecrets(object);
    for (auto it = clean.begin(); it != clean.end(); ++it) {
        if (skip.contains(it.key()) || it.value().isNull())
            continue;
        rows << std::pair { it.key(), jsonScalar(it.value()) };
    }
    return rows;
}

QList<std::pair<QString, QString>> serverRows(const ServerInfo& s)
{
    QList<std::pair<QString, QString>> rows;
    auto add = [&rows](const char* key, const QString& value) {
        if (!value.isEmpty())
            rows << std::pair { QString::fromLatin1(key), value };
    };
    auto addInt = [&add](const char* key, const std::optional<int>& v) {
        if (v)
            add(key, QString::number(*v));
    };
    add("engine", s.engine);
    add("engine_version", s.engineVersion);
    add("host", s.host);
    addInt("port", s.port);
    addInt("max_num_seqs", s.maxNumSeqs);
    addInt("max_num_batched_tokens", s.maxNumBatchedTokens);
    addInt("max_model_len", s.maxModelLen);
    if (s.gpuMemoryUtilization)
        add("gpu_memory_utilization", QString::number(*s.gpuMemoryUtilization, 'g', 4));
    addInt("tensor_parallel_size", s.tensorParallelSize);
    addInt("pipeline_parallel_size", s.pipelineParallelSize);
    add("hardware", s.hardware);
    add("notes", s.notes);
    return rows;
}

QString stepFlags(const StepReport& s)
{
    QStringList flags;
    if (s.partial)
        flags << QCoreApplication::translate("kp::ui::RunReport", "partial");
    if (s.clientBound)
        flags << QCoreApplication::translate("kp::ui::RunReport", "client-bound");
    if (s.config.purpose == QLatin1String("repeat") || s.config.purpose == QLatin1String("manual")
        || s.config.purpose == QLatin1String("refine"))
        flags << UiFormat::purposeWord(s.config.purpose);
    return UiFormat::joined(flags);
}

QString sloVerdict(const StepReport& s)
{
    if (!s.meetsSlo)
        return UiFormat::unknown();
    return *s.meetsSlo ? QStringLiteral("met") : QStringLiteral("missed");
}

std::optional<double> statValue(const LatencyStats& stats, double percentile)
{
    return percentileValue(stats, percentile);
}

std::optional<double> meanValue(const LatencyStats& stats)
{
    return stats.reported() && isKnown(stats.mean) ? std::optional<double>(stats.mean) : std::nullopt;
}

// A count a foreign file may lack: "—" in text, an empty cell in CSV, null in JSON.
QString countText(qint64 value)
{
    return isKnown(value) ? QString::number(value) : UiFormat::unknown();
}

// A figure of a step with the derived mark (UiFormat::derivedMark) when the file's other fields gave it.
QString mark(const QString& text, const StepMetrics& m, const char* key)
{
    return UiFormat::marked(text, m, key);
}

// One value of an imported run's file_settings: the value, or the values the files hold.
QString settingText(const QJsonValue& v)
{
    if (!v.isArray())
        return jsonScalar(v);
    QStringList values;
    for (const QJsonValue& item : v.toArray())
        values << jsonScalar(item);
    return values.join(QStringLiteral(", "));
}

} // namespace

namespace ReportNumber {

QString ms(std::optional<double> value)
{
    if (!value || !std::isfinite(*value))
        return UiFormat::unknown();
    const double a = std::abs(*value);
    return QString::number(*value, 'f', a < 10 ? 2 : a < 100 ? 1 : 0);
}

QString rate(double value)
{
    if (!std::isfinite(value))
        return UiFormat::unknown();
    const double a = std::abs(value);
    return QString::number(value, 'f', a < 100 ? 2 : a < 1000 ? 1 : 0);
}

QString tokens(double value)
{
    if (!std::isfinite(value))
        return UiFormat::unknown();
    return QString::number(value, 'f', std::abs(value) < 10 ? 1 : 0);
}

QString load(double value)
{
    if (std::isinf(value))
        return QStringLiteral("inf");
    if (std::isnan(value))
        return UiFormat::unknown();
    QString s = QString::number(value, 'f', std::abs(value) < 10 ? 2 : std::abs(value) < 1000 ? 1 : 0);
    if (s.contains(u'.')) {
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(u'.'))
            s.chop(1);
    }
    return s;
}

} // namespace ReportNumber

std::optional<ReportFormat> reportFormatFromKey(const QString& key)
{
    const QString k = key.toLower();
    if (k == QLatin1String("html") || k == QLatin1String("htm"))
        return ReportFormat::Html;
    if (k == QLatin1String("md") || k == QLatin1String("markdown"))
        return ReportFormat::Markdown;
    if (k == QLatin1String("pdf"))
        return ReportFormat::Pdf;
    if (k == QLatin1String("csv"))
        return ReportFormat::Csv;
    if (k == QLatin1String("json"))
        return ReportFormat::Json;
    return std::nullopt;
}

std::optional<ReportFormat> reportFormatForPath(const QString& path)
{
    return reportFormatFromKey(QFileInfo(path).suffix());
}

QJsonObject redactSecrets(const QJsonObject& object)
{
    QJsonObject out;
    for (auto it = object.begin(); it != object.end(); ++it)
        out.insert(it.key(), redactValue(it.key(), it.value()));
    return out;
}

bool writeExportFile(const QString& path, const QByteArray& data, QString* error)
{
    QString message;
    if (!writeFileAtomically(path, data, &message)) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

bool writeMarkdownWithImages(const QString& path, const QByteArray& markdown,
    const std::vector<std::pair<QString, QByteArray>>& images, QString* error)
{
    const QDir dir = QFileInfo(path).absoluteDir();
    for (const auto& [name, png] : images) {
        if (!writeExportFile(dir.filePath(name), png, error))
            return false;
    }
    return writeExportFile(path, markdown, error);
}

RunReport::RunReport(const LiveRun* run, RunMeta meta)
    : m_run(run)
    , m_meta(std::move(meta))
{ }

double RunReport::percentile() const
{
    return m_run->hasInfo() ? m_run->info().analysisOptions.percentile : 99.0;
}

ReportTable RunReport::runTable() const
{
    ReportTable t;
    t.header = { tr("Field"), tr("Value") };
    auto add = [&t](const QString& key, const QString& value) {
        if (!value.isEmpty())
            t.rows << QStringList { key, value };
    };
    add(tr("Run"), m_meta.name);
    add(tr("Id"), m_meta.id);
    add(tr("Date"), m_meta.dateText());
    add(tr("Target"), m_meta.target);
    add(tr("Model"), m_meta.model);
    add(tr("Status"), UiFormat::statusWord(m_meta.status));
    if (m_meta.predicted())
        add(tr("Predicted"), m_meta.predictionLine());
    else if (m_meta.source != QLatin1String("kneepoint"))
        add(tr("Imported from"), m_meta.source);
    add(tr("Steps"), QString::number(m_run->steps().size()));
    if (m_run->hasInfo()) {
        const RunInfo& info = m_run->info();
        const Profile& p = info.profile;
        add(tr("Load mode"), p.load.mode == LoadMode::Rate ? tr("request rate") : tr("concurrency (users)"));
        add(tr("SLO"), sloWords(p.slo));
        add(tr("Analysed curve"),
            UiFormat::percentileWord(info.analysisOptions.percentile) + u' '
                + UiFormat::metricWord(info.analysisOptions.metric));
    }
    add(tr("Tags"), m_meta.tags.join(QStringLiteral(", ")));
    return t;
}

ReportTable RunReport::findingsTable() const
{
    const AnalysisResult& a = m_run->analysis().result;
    const bool users = a.concurrencyMode;
    const QString unit = users ? tr("users") : tr("req/s");
    ReportTable t;
    // The reasoning follows the table, one sentence per finding.
    t.header = { tr("Finding"), tr("Offered (%1)").arg(unit), tr("Achieved (req/s)"), tr("Output (tok/s)") };
    t.numeric = { false, true, true, true };
    auto row = [&](const QString& name, const Finding& f) {
        if (!f.found) {
            t.rows << QStringList { name, UiFormat::unknown(), UiFormat::unknown(), UiFormat::unknown() };
            return;
        }
        t.rows << QStringList { name, (f.lowerBound ? QStringLiteral("≥ ") : QString()) + ReportNumber::load(f.offered),
            ReportNumber::rate(f.achieved), ReportNumber::tokens(f.outputThroughput) };
    };
    row(tr("Knee (%1 %2)").arg(UiFormat::percentileWord(a.options.percentile), UiFormat::metricWord(a.options.metric)),
        a.knee);
    row(tr("Throughput knee"), a.throughputKnee);
    row(tr("Saturation"), a.saturation);
    row(tr("Collapse"), a.collapse);
    QString slo = tr("SLO capacity");
    if (a.sloCapacity.found && a.bindingSlo != SloLimit::None)
        slo += tr(" (bound by %1)").arg(sloLimitKey(a.bindingSlo));
    row(slo, a.sloCapacity);
    row(tr("Recommended"), a.recommended);
    return t;
}

ReportTable RunReport::sweepTable() const
{
    const double p = percentile();
    const QString pw = UiFormat::percentileWord(p);
    const bool users = !m_run->steps().empty() && m_run->steps().front().concurrencyMode();
    ReportTable t;
    t.header = { tr("Step"), users ? tr("Users") : tr("Offered (req/s)"), tr("Purpose"), tr("Completed"), tr("Failed"),
        tr("Req/s"), tr("Output tok/s"), tr("TTFT mean (ms)"), tr("TTFT P50 (ms)"), tr("TTFT %1 (ms)").arg(pw),
        tr("TPOT mean (ms)"), tr("TPOT %1 (ms)").arg(pw), tr("ITL mean (ms)"), tr("E2EL P50 (ms)"),
        tr("E2EL %1 (ms)").arg(pw), tr("SLO"), tr("Flags") };
    t.numeric
        = { true, true, false, true, true, true, true, true, true, true, true, true, true, true, true, false, false };
    // A reasoning model's steps: time to first content token and the reasoning tokens, before the verdict.
    const bool reasoning = std::any_of(m_run->steps().begin(), m_run->steps().end(),
        [](const StepReport& s) { return isKnown(s.metrics.totalReasoningTokens); });
    const qsizetype at = t.header.size() - 2;
    if (reasoning) {
        t.header.insert(at, tr("Reasoning tokens"));
        t.header.insert(at, tr("TTFC %1 (ms)").arg(pw));
        t.header.insert(at, tr("TTFC P50 (ms)"));
        t.numeric.insert(at, 3, true);
    }
    for (const StepReport& s : m_run->steps()) {
        const StepMetrics& m = s.metrics;
        QStringList row { QString::number(s.index() + 1), ReportNumber::load(s.offered()),
            UiFormat::purposeWord(s.config.purpose), countText(m.completed), mark(countText(m.failed), m, "failed"),
            mark(ReportNumber::rate(m.requestThroughput), m, "request_throughput"),
            mark(ReportNumber::tokens(m.outputThroughput), m, "output_throughput"), ReportNumber::ms(meanValue(m.ttft)),
            ReportNumber::ms(statValue(m.ttft, 50)), ReportNumber::ms(statValue(m.ttft, p)),
            ReportNumber::ms(meanValue(m.tpot)), ReportNumber::ms(statValue(m.tpot, p)),
            ReportNumber::ms(meanValue(m.itl)), ReportNumber::ms(statValue(m.e2el, 50)),
            ReportNumber::ms(statValue(m.e2el, p)), sloVerdict(s), stepFlags(s) };
        if (reasoning) {
            row.insert(at, countText(m.totalReasoningTokens));
            row.insert(at, ReportNumber::ms(statValue(m.firstContentTtft, p)));
            row.insert(at, ReportNumber::ms(statValue(m.firstContentTtft, 50)));
        }
        t.rows << row;
    }
    return t;
}

ReportTable RunReport::intervalsTable() const
{
    const double p = percentile();
    const QString pw = UiFormat::percentileWord(p);
    const bool users = !m_run->steps().empty() && m_run->steps().front().concurrencyMode();
    ReportTable t;
    t.header = { tr("Step"), users ? tr("Users") : tr("Offered (req/s)"), tr("Req/s"), tr("Output tok/s"),
        tr("TTFT mean (ms)"), tr("TTFT %1 (ms)").arg(pw), tr("TPOT %1 (ms)").arg(pw), tr("E2EL %1 (ms)").arg(pw),
        tr("Method") };
    t.numeric = { true, true, true, true, true, true, true, true, false };
    const QString word = LatencyStats::percentileWord(p);
    for (const StepReport& s : m_run->steps()) {
        const StepIntervals& in = s.metrics.intervals;
        if (in.isEmpty())
            continue;
        auto range = [&](const QString& key, auto format) {
            const auto i = in.find(key);
            return i ? QStringLiteral("%1–%2").arg(format(i->low), format(i->high)) : QStringLiteral("—");
        };
        const auto rate = [](double v) { return ReportNumber::rate(v); };
        const auto tokens = [](double v) { return ReportNumber::tokens(v); };
        const auto ms = [](double v) { return ReportNumber::ms(v); };
        t.rows << QStringList { QString::number(s.index() + 1), ReportNumber::load(s.offered()),
            range(QStringLiteral("request_throughput"), rate), range(QStringLiteral("output_throughput"), tokens),
            range(QStringLiteral("mean_ttft_ms"), ms), range(QStringLiteral("p%1_ttft_ms").arg(word), ms),
            range(QStringLiteral("p%1_tpot_ms").arg(word), ms), range(QStringLiteral("p%1_e2el_ms").arg(word), ms),
            in.method == StepIntervals::Method::Repeats
                ? QCoreApplication::translate("kp::ui::RunReport", "over %n trials", nullptr, in.samples)
                : QCoreApplication::translate("kp::ui::RunReport", "bootstrap, %n resamples", nullptr, in.samples) };
    }
    return t;
}

ReportTable RunReport::serverTable() const
{
    const bool users = !m_run->steps().empty() && m_run->steps().front().concurrencyMode();
    ReportTable t;
    t.header
        = { tr("Step"), users ? tr("Users") : tr("Offered (req/s)"), tr("Running avg / max"), tr("Waiting avg / max"),
              tr("KV cache avg / max"), tr("Preemptions"), tr("Server TTFT mean (ms)"), tr("Client TTFT mean (ms)") };
    t.numeric = { true, true, true, true, true, true, true, true };
    auto pair = [](const std::optional<double>& mean, const std::optional<double>& max, double scale, int decimals,
                    const QString& unit) {
        if (!mean || !max)
            return UiFormat::unknown();
        return QStringLiteral("%1 / %2%3")
            .arg(QString::number(*mean * scale, 'f', decimals), QString::number(*max * scale, 'f', decimals), unit);
    };
    for (const StepReport& s : m_run->steps()) {
        if (!s.server.stats)
            continue;
        const ServerStepStats& st = *s.server.stats;
        t.rows << QStringList { QString::number(s.index() + 1), ReportNumber::load(s.offered()),
            pair(st.runningMean, st.runningMax, 1.0, 1, QString()),
            pair(st.waitingMean, st.waitingMax, 1.0, 1, QString()),
            pair(st.kvUsageMean, st.kvUsageMax, 100.0, 0, QStringLiteral("%")),
            st.preemptions ? QString::number(*st.preemptions, 'f', 0) : UiFormat::unknown(),
            ReportNumber::ms(st.ttftMeanMs), ReportNumber::ms(meanValue(s.metrics.ttft)) };
    }
    return t;
}

ReportTable RunReport::gpuTable() const
{
    const bool users = !m_run->steps().empty() && m_run->steps().front().concurrencyMode();
    ReportTable t;
    t.header = { tr("Step"), users ? tr("Users") : tr("Offered (req/s)"), tr("GPUs"), tr("Utilisation avg / max"),
        tr("Memory max (GiB)"), tr("Power avg (W)"), tr("Energy (J)"), tr("J / output token"), tr("Energy from") };
    t.numeric = { true, true, true, true, true, true, true, true, false };
    const QString unknown = UiFormat::unknown();
    auto number = [&unknown](const std::optional<double>& v, int decimals) {
        return v && std::isfinite(*v) ? QString::number(*v, 'f', decimals) : unknown;
    };
    for (const StepReport& s : m_run->steps()) {
        if (!s.server.stats)
            continue;
        const ServerStepStats& st = *s.server.stats;
        if (!st.gpuCount && !st.gpuUtilisationMean && !st.gpuPowerMeanW && !st.energyJ)
            continue;
        const QString util = st.gpuUtilisationMean && st.gpuUtilisationMax
            ? QStringLiteral("%1 / %2%")
                  .arg(QString::number(*st.gpuUtilisationMean, 'f', 0), QString::number(*st.gpuUtilisationMax, 'f', 0))
            : unknown;
        QString source = unknown;
        if (st.energyJ && st.energySource == QLatin1String("counter"))
            source = tr("energy counter");
        else if (st.energyJ && st.energySource == QLatin1String("power"))
            source = tr("mean power × step time");
        t.rows << QStringList { QString::number(s.index() + 1), ReportNumber::load(s.offered()),
            st.gpuCount ? QString::number(*st.gpuCount) : unknown, util,
            number(st.gpuFbUsedMaxMiB ? std::optional<double>(*st.gpuFbUsedMaxMiB / 1024.0) : std::nullopt, 1),
            number(st.gpuPowerMeanW, 0), number(st.energyJ, 0), number(s.metrics.joulesPerOutputToken, 3), source };
    }
    return t;
}

ReportTable RunReport::errorsTable() const
{
    ReportTable t;
    t.header = { tr("Failure"), tr("Requests"), tr("Steps"), tr("Example"), tr("What to do") };
    t.numeric = { false, true, false, false, false };
    for (const FailureGroup& g : m_run->failures()) {
        QStringList steps;
        for (int s : g.steps)
            steps << QString::number(s + 1);
        const QString failure = g.httpStatus > 0
            ? QStringLiteral("%1 (HTTP %2)").arg(failureClassKey(g.failure)).arg(g.httpStatus)
            : failureClassKey(g.failure);
        t.rows << QStringList { failure, QString::number(g.count), steps.join(QStringLiteral(", ")), g.example,
            g.hint };
    }
    return t;
}

void RunReport::timelineSection(ReportDoc& doc, const QString& imageStem) const
{
    // Each step drawn is two charts: more than a few would bury the rest of the report.
    constexpr std::size_t kMaxTimelineSteps = 3;
    std::vector<const StepReport*> withRecords;
    for (const StepReport& s : m_run->steps()) {
        if (!s.timeline.isEmpty())
            withRecords.push_back(&s);
    }
    if (m_run->steps().empty())
        return;
    doc.heading(2, tr("Timeline"));
    if (withRecords.empty() && m_meta.predicted()) {
        doc.paragraph(noRecordsPredicted().capitalized().text());
        return;
    }
    QStringList untimed; // records without send times: "step 2: why"
    for (const StepReport& s : m_run->steps()) {
        if (!s.noTimeline.isEmpty())
            untimed << tr("step %1: %2").arg(s.index() + 1).arg(s.noTimeline);
    }
    if (withRecords.empty() && !untimed.isEmpty()) {
        doc.paragraph(tr("No timeline: %1.").arg(untimed.join(QStringLiteral("; "))));
        return;
    }
    if (withRecords.empty()) {
        doc.paragraph(tr("No step has its request records (steps/NNN.requests.jsonl), so there is no timeline."));
        return;
    }
    std::vector<const StepReport*> shown = withRecords;
    if (withRecords.size() > kMaxTimelineSteps) {
        // The step nearest the knee and its neighbours on the load axis; without a knee, the step of the
        // highest output throughput and its neighbours.
        std::vector<const StepReport*> byLoad = withRecords;
        std::stable_sort(byLoad.begin(), byLoad.end(),
            [](const StepReport* a, const StepReport* b) { return a->offered() < b->offered(); });
        const AnalysisResult& a = m_run->analysis().result;
        const bool knee = a.knee.found && std::isfinite(a.knee.offered);
        std::size_t centre = 0;
        for (std::size_t i = 0; i < byLoad.size(); ++i) {
            const StepReport& s = *byLoad[i];
            const StepReport& c = *byLoad[centre];
            const bool better = knee ? std::abs(s.offered() - a.knee.offered) < std::abs(c.offered() - a.knee.offered)
                                     : (isKnown(s.metrics.outputThroughput)
                                         && (!isKnown(c.metrics.outputThroughput)
                                             || s.metrics.outputThroughput > c.metrics.outputThroughput));
            if (better)
                centre = i;
        }
        const std::size_t first = std::min(centre > 0 ? centre - 1 : 0, byLoad.size() - kMaxTimelineSteps);
        shown.assign(
            byLoad.begin() + std::ptrdiff_t(first), byLoad.begin() + std::ptrdiff_t(first + kMaxTimelineSteps));
        QStringList numbers;
        for (const StepReport* s : shown)
            numbers << QString::number(s->index() + 1);
        doc.paragraph((knee ? tr("Steps %1, around the knee, second by second (of %2 steps with request records; "
                                 "kneepoint-cli export RUN --timeline writes every step as CSV).")
                            : tr("Steps %1, around the highest output throughput, second by second (of %2 steps "
                                 "with request records; kneepoint-cli export RUN --timeline writes every step as "
                                 "CSV)."))
                          .arg(numbers.join(QStringLiteral(", ")))
                          .arg(withRecords.size()));
    } else {
        doc.paragraph(tr("Every step second by second: the requests offered, completed and failed, those in flight "
                         "and the output tokens, then the TTFT and ITL of the requests that ended in each second."));
    }
    if (withRecords.size() < m_run->steps().size())
        doc.paragraph(tr("%1 of %2 steps have no request records and no timeline.")
                          .arg(m_run->steps().size() - withRecords.size())
                          .arg(m_run->steps().size()));
    ChartSet charts(m_run);
    for (const StepReport* s : shown) {
        for (ChartKind kind : { ChartKind::Timeline, ChartKind::TimelineLatency }) {
            ChartOptions o;
            o.kind = kind;
            o.step = s->index() + 1;
            ChartPanel* panel = charts.panel(o);
            const ChartCaption caption = charts.caption(o, m_meta);
            const QByteArray png = ChartExport::png(panel, caption, ChartExport::kDefaultSize, 2.0);
            doc.image(QStringLiteral("%1-%2-step%3.png").arg(imageStem, ChartOptions::kindKey(kind)).arg(o.step),
                caption.title, png, ChartExport::kDefaultSize);
        }
    }
}

ReportDoc RunReport::document(const QString& imageStem) const
{
    ReportDoc doc(tr("Kneepoint report: %1").arg(m_meta.name));
    doc.paragraph(m_meta.captionLine());
    if (m_meta.predicted())
        doc.paragraph(m_meta.predictionLine());
    if (!m_meta.notes.isEmpty())
        doc.paragraph(m_meta.notes);

    doc.heading(2, tr("Run"));
    ReportTable run = runTable();
    QList<std::pair<QString, QString>> runRows;
    for (const QStringList& r : run.rows)
        runRows << std::pair { r[0], r[1] };
    doc.keyValues(runRows);

    doc.heading(2, tr("Knee and capacity"));
    const AnalysisResult& a = m_run->analysis().result;
    if (m_run->steps().empty()) {
        doc.paragraph(tr("The run has no finished step."));
    } else {
        doc.table(findingsTable());
        if (a.peakStep >= 0)
            doc.paragraph(tr("Peak throughput: %1 req/s.").arg(ReportNumber::rate(a.peakThroughput)));
        QStringList sentences;
        for (const AnalysisSentence& s : m_run->analysis().sentences)
            sentences << s.text;
        if (!sentences.isEmpty()) {
            doc.heading(3, tr("Reasoning"));
            doc.bullets(sentences);
        }
        if (const std::optional<CapacityPlan>& plan = m_run->capacityPlan(); plan && plan->ok()) {
            doc.heading(3, tr("Capacity plan"));
            doc.paragraph(plan->sentence());
        }
    }

    if (!m_run->steps().empty()) {
        doc.heading(2, tr("Charts"));
        ChartSet charts(m_run);
        ChartOptions latency;
        latency.kind = ChartKind::Latency;
        latency.metric = m_run->hasInfo() ? m_run->info().analysisOptions.metric : LatencyMetric::Ttft;
        ChartOptions throughput;
        throughput.kind = ChartKind::Throughput;
        ChartOptions prefixCache;
        prefixCache.kind = ChartKind::PrefixCache;
        QList<ChartOptions> shown = { latency, throughput };
        charts.prefixCache()->refresh();
        if (charts.prefixCache()->hasData()) // a run without cache figures gets no empty chart
            shown << prefixCache;
        ChartOptions gpu;
        gpu.kind = ChartKind::Gpu;
        charts.gpu()->refresh();
        if (charts.gpu()->hasData()) // only a run with GPU figures gets the GPU chart
            shown << gpu;
        ChartOptions ttft;
        ttft.kind = ChartKind::TtftBreakdown;
        charts.ttftBreakdown()->refresh();
        if (charts.ttftBreakdown()->hasData()) // only a run whose server reported queue and prefill times
            shown << ttft;
        ChartOptions pareto;
        pareto.kind = ChartKind::Pareto;
        if (charts.pareto()->hasData()) // the trade-off needs a step with TPOT
            shown << pareto;
        for (const ChartOptions& o : shown) {
            ChartPanel* panel = charts.panel(o);
            const ChartCaption caption = charts.caption(o, m_meta);
            const QByteArray png = ChartExport::png(panel, caption, ChartExport::kDefaultSize, 2.0);
            doc.image(QStringLiteral("%1-%2.png").arg(imageStem, ChartOptions::kindKey(o.kind)), caption.title, png,
                ChartExport::kDefaultSize);
        }
    }

    doc.heading(2, tr("Sweep"));
    if (m_run->steps().empty())
        doc.paragraph(tr("No step finished."));
    else
        doc.table(sweepTable());
    if (std::any_of(m_run->steps().begin(), m_run->steps().end(),
            [](const StepReport& s) { return UiFormat::anyDerived(s.metrics); }))
        doc.paragraph(UiFormat::derivedNote());
    if (m_meta.imported())
        doc.paragraph(tr("— : the file does not give this figure."));
    if (const ReportTable intervals = intervalsTable(); !intervals.rows.isEmpty()) {
        doc.heading(3, tr("Confidence intervals"));
        doc.paragraph(tr("95% confidence intervals of each step's figures: a seeded bootstrap over the step's "
                         "requests. A request throughput without failed requests cannot vary under it; repeats "
                         "(--repeats) measure the spread between trials."));
        doc.table(intervals);
    }
    if (const ReportTable server = serverTable(); !server.rows.isEmpty()) {
        doc.heading(3, tr("Server metrics"));
        doc.paragraph(tr("What the server's /metrics said while each step ran: requests running and waiting, "
                         "KV-cache usage, preemptions during the step, and its time to first token next to the "
                         "client's."));
        doc.table(server);
    }
    if (const ReportTable gpus = gpuTable(); !gpus.rows.isEmpty()) {
        doc.heading(3, tr("GPUs and energy"));
        doc.paragraph(tr("What the GPU exporter's metrics said while each step ran: mean and highest utilisation "
                         "over the GPUs, the fullest GPU's memory, the GPUs' mean power and the energy they drew "
                         "during the step (from their energy counters, else mean power times the step's time), "
                         "and that energy over the step's output tokens."));
        doc.table(gpus);
    }

    timelineSection(doc, imageStem);

    doc.heading(2, tr("Errors"));
    qint64 failed = 0, total = 0;
    bool failedKnown = true;
    for (const StepReport& s : m_run->steps()) {
        failedKnown = failedKnown && isKnown(s.metrics.failed) && isKnown(s.metrics.completed);
        failed += s.metrics.failed;
        total += s.metrics.failed + s.metrics.completed;
    }
    if (!failedKnown) {
        doc.paragraph(tr("The result files do not say how many requests failed in every step."));
    } else if (failed == 0) {
        doc.paragraph(tr("No request failed."));
    } else {
        doc.paragraph(
            tr("%1 of %2 requests failed (%3).")
                .arg(failed)
                .arg(total)
                .arg(QString::number(100.0 * double(failed) / double(std::max<qint64>(1, total)), 'f', 2) + u'%'));
        doc.table(errorsTable());
    }

    doc.heading(2, tr("Environment"));
    doc.heading(3, tr("Client"));
    const QList<std::pair<QString, QString>> client
        = objectRows(m_meta.environment, { QStringLiteral("server"), QStringLiteral("server_reported") });
    if (client.isEmpty())
        doc.paragraph(tr("The run recorded no client environment."));
    else
        doc.keyValues(client);
    doc.heading(3, tr("Server"));
    const QList<std::pair<QString, QString>> recorded
        = m_run->hasInfo() ? serverRows(m_run->info().profile.server) : QList<std::pair<QString, QString>> {};
    const QList<std::pair<QString, QString>> probed
        = objectRows(m_meta.environment.value(QLatin1String("server")).toObject());
    const QList<std::pair<QString, QString>> reported
        = objectRows(m_meta.environment.value(QLatin1String("server_reported")).toObject());
    if (recorded.isEmpty() && probed.isEmpty() && reported.isEmpty())
        doc.paragraph(tr("The profile recorded nothing about the server (its \"server\" section is empty)."));
    if (!recorded.isEmpty()) {
        doc.paragraph(tr("As recorded in the profile:"));
        doc.keyValues(recorded);
    }
    if (!probed.isEmpty()) {
        doc.paragraph(tr("As probed:"));
        doc.keyValues(probed);
    }
    if (!reported.isEmpty()) {
        doc.paragraph(tr("As the server reported (/version, /v1/models, its metrics' labels):"));
        doc.keyValues(reported);
    }

    if (m_meta.imported()) {
        // An imported run was not run from a profile: only what its files say about their settings.
        doc.heading(2, tr("Settings — from the files"));
        QList<std::pair<QString, QString>> settings;
        const QJsonObject clean = redactSecrets(m_meta.fileSettings);
        for (auto it = clean.begin(); it != clean.end(); ++it)
            settings << std::pair { it.key(), settingText(it.value()) };
        if (settings.isEmpty())
            doc.paragraph(tr("The files say nothing about their settings."));
        else
            doc.keyValues(settings);
    } else if (m_run->hasInfo()) {
        doc.heading(2, tr("Profile"));
        doc.paragraph(tr("As run, with secrets removed."));
        const QJsonObject profile = redactSecrets(ProfileStore::toJsonObject(redactedProfile(m_run->info().profile)));
        doc.code(QString::fromUtf8(QJsonDocument(profile).toJson(QJsonDocument::Indented)));
    }

    if (!m_run->steps().empty()) {
        doc.heading(2, tr("Summary blocks"));
        for (const StepReport& s : m_run->steps())
            doc.code(s.summary, tr("Step %1 · %2").arg(s.index() + 1).arg(UiFormat::loadText(s.config)));
    }
    return doc;
}

QByteArray RunReport::html() const
{
    return document().html(ReportDoc::ImageMode::DataUri);
}

QByteArray RunReport::markdown(const QString& imageStem, std::vector<std::pair<QString, QByteArray>>* images) const
{
    return document(imageStem).markdown(images);
}

QByteArray RunReport::pdf() const
{
    return document().pdf();
}

QByteArray RunReport::stepsCsv() const
{
    const double p = percentile();
    const QString pk = QStringLiteral("p") + LatencyStats::percentileWord(p);
    QStringList header { QStringLiteral("step"), QStringLiteral("load"), QStringLiteral("offered"),
        QStringLiteral("unit"), QStringLiteral("purpose"), QStringLiteral("completed"), QStringLiteral("failed"),
        QStringLiteral("duration_s"), QStringLiteral("request_throughput"), QStringLiteral("output_throughput"),
        QStringLiteral("total_token_throughput") };
    for (LatencyMetric metric : allLatencyMetrics) {
        const QString k = latencyMetricKey(metric);
        header << k + QStringLiteral("_mean_ms") << k + QStringLiteral("_p50_ms")
               << k + u'_' + pk + QStringLiteral("_ms");
    }
    header << QStringLiteral("meets_slo") << QStringLiteral("partial") << QStringLiteral("client_bound")
           << QStringLiteral("predicted");
    QByteArray out = header.join(u',').toUtf8() + '\n';
    auto num
        = [](std::optional<double> v) { return v && std::isfinite(*v) ? QString::number(*v, 'g', 10) : QString(); };
    auto quote = [](const QString& s) {
        if (!s.contains(u',') && !s.contains(u'"') && !s.contains(u'\n'))
            return s;
        QString q = s;
        q.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return u'"' + q + u'"';
    };
    for (const StepReport& s : m_run->steps()) {
        const StepMetrics& m = s.metrics;
        QStringList row { QString::number(s.index() + 1), quote(s.load),
            std::isinf(s.offered()) ? QStringLiteral("inf") : QString::number(s.offered(), 'g', 10),
            s.concurrencyMode() ? QStringLiteral("users") : QStringLiteral("req/s"), quote(s.config.purpose),
            isKnown(m.completed) ? QString::number(m.completed) : QString(),
            isKnown(m.failed) ? QString::number(m.failed) : QString(), num(m.durationS), num(m.requestThroughput),
            num(m.outputThroughput), num(m.totalTokenThroughput) };
        for (LatencyMetric metric : allLatencyMetrics) {
            const LatencyStats& st = m.stats(metric);
            row << num(meanValue(st)) << num(statValue(st, 50)) << num(statValue(st, p));
        }
        row << (s.meetsSlo ? (*s.meetsSlo ? QStringLiteral("true") : QStringLiteral("false")) : QString())
            << (s.partial ? QStringLiteral("true") : QStringLiteral("false"))
            << (s.clientBound ? QStringLiteral("true") : QStringLiteral("false"))
            << (m_meta.predicted() ? QStringLiteral("true") : QStringLiteral("false"));
        out += row.join(u',').toUtf8() + '\n';
    }
    return out;
}

QByteArray RunReport::stepsJson() const
{
    QJsonObject root;
    QJsonObject run;
    run.insert(QLatin1String("id"), m_meta.id);
    run.insert(QLatin1String("name"), m_meta.name);
    run.insert(QLatin1String("created"), m_meta.created.isValid() ? m_meta.created.toString(Qt::ISODate) : QString());
    run.insert(QLatin1String("target"), m_meta.target);
    run.insert(QLatin1String("model"), m_meta.model);
    run.insert(QLatin1String("status"), m_meta.status);
    run.insert(QLatin1String("predicted"), m_meta.predicted());
    if (m_meta.predicted())
        run.insert(QLatin1String("prediction"), predictionSentence(*m_meta.prediction).english());
    root.insert(QLatin1String("format"), QLatin1String("kneepoint.steps/1"));
    root.insert(QLatin1String("run"), run);
    root.insert(QLatin1String("percentile"), percentile());
    QJsonArray steps;
    auto num = [](std::optional<double> v) { return v && std::isfinite(*v) ? QJsonValue(*v) : QJsonValue(); };
    for (const StepReport& s : m_run->steps()) {
        const StepMetrics& m = s.metrics;
        QJsonObject o;
        o.insert(QLatin1String("step"), s.index() + 1);
        o.insert(QLatin1String("load"), s.load);
        o.insert(QLatin1String("mode"), s.concurrencyMode() ? QLatin1String("concurrency") : QLatin1String("rate"));
        o.insert(QLatin1String("offered"),
            std::isinf(s.offered()) ? QJsonValue(QStringLiteral("inf")) : QJsonValue(s.offered()));
        o.insert(QLatin1String("purpose"), s.config.purpose);
        o.insert(QLatin1String("completed"), jsonvalues::countOrNull(m.completed));
        o.insert(QLatin1String("failed"), jsonvalues::countOrNull(m.failed));
        o.insert(QLatin1String("duration_s"), num(m.durationS));
        o.insert(QLatin1String("request_throughput"), num(m.requestThroughput));
        o.insert(QLatin1String("output_throughput"), num(m.outputThroughput));
        o.insert(QLatin1String("total_token_throughput"), num(m.totalTokenThroughput));
        if (!m.derived.empty()) // figures the file's other fields gave (StepMetrics::derived)
            o.insert(
                QLatin1String("derived"), QJsonArray::fromStringList(QStringList(m.derived.begin(), m.derived.end())));
        for (LatencyMetric metric : allLatencyMetrics) {
            const LatencyStats& st = m.stats(metric);
            QJsonObject l;
            l.insert(QLatin1String("count"), jsonvalues::countOrNull(st.count));
            l.insert(QLatin1String("mean"), num(meanValue(st)));
            l.insert(QLatin1String("median"), num(statValue(st, 50)));
            for (const auto& [pct, value] : st.percentiles)
                l.insert(QStringLiteral("p") + LatencyStats::percentileWord(pct), num(value));
            o.insert(latencyMetricKey(metric) + QStringLiteral("_ms"), l);
        }
        o.insert(QLatin1String("meets_slo"), s.meetsSlo ? QJsonValue(*s.meetsSlo) : QJsonValue());
        o.insert(QLatin1String("partial"), s.partial);
        o.insert(QLatin1String("client_bound"), s.clientBound);
        o.insert(QLatin1String("predicted"), m_meta.predicted());
        steps.append(o);
    }
    root.insert(QLatin1String("steps"), steps);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool RunReport::write(ReportFormat format, const QString& path, QString* error) const
{
    switch (format) {
    case ReportFormat::Html:
        return writeExportFile(path, html(), error);
    case ReportFormat::Pdf:
        return writeExportFile(path, pdf(), error);
    case ReportFormat::Csv:
        return writeExportFile(path, stepsCsv(), error);
    case ReportFormat::Json:
        return writeExportFile(path, stepsJson(), error);
    case ReportFormat::Markdown: {
        std::vector<std::pair<QString, QByteArray>> images;
        const QByteArray md = markdown(QFileInfo(path).completeBaseName(), &images);
        return writeMarkdownWithImages(path, md, images, error);
    }
    }
    return false;
}

} // namespace kp::ui
