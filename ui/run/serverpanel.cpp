#include "run/serverpanel.h"

#include "kit/chartstyle.h"
#include "kit/liverun.h"
#include "kit/sweepcontroller.h"
#include "kit/uiformat.h"
#include "telemetry/environment.h"

#include <QChart>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

QString engineName(const QString& key)
{
    if (key == QLatin1String("vllm"))
        return QStringLiteral("vLLM");
    if (key == QLatin1String("sglang"))
        return QStringLiteral("SGLang");
    if (key == QLatin1String("tgi"))
        return QStringLiteral("TGI");
    return key;
}

QString row(const QString& name, const QString& value)
{
    return QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
}

QString jsonText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isArray()) {
        QStringList parts;
        for (const QJsonValue& item : v.toArray())
            parts << jsonText(item);
        return parts.join(QStringLiteral(", "));
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    return {};
}

} // namespace

ServerChart::ServerChart(Axis axis, const QString& title, QWidget* parent)
    : ChartPanel(title, parent)
    , m_axis(axis)
    , m_running(new QLineSeries(chart()))
    , m_waiting(new QLineSeries(chart()))
    , m_kv(new QLineSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_yKv(new QValueAxis(chart()))
    , m_redrawTimer(new QTimer(this))
{
    m_redrawTimer->setSingleShot(true);
    m_redrawTimer->setInterval(kRedrawMs);
    connect(m_redrawTimer, &QTimer::timeout, this, &ServerChart::redraw);
    QChart* c = chart();
    for (QLineSeries* s : { m_running, m_waiting, m_kv })
        c->addSeries(s);
    m_running->setName(tr("running"));
    m_waiting->setName(tr("waiting"));
    m_kv->setName(tr("KV cache %"));
    for (QValueAxis* a : { m_x, m_y, m_yKv })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->addAxis(m_yKv, Qt::AlignRight);
    m_x->setTitleText(axis == Axis::Load ? tr("Offered load (req/s)") : tr("Time in step (s)"));
    m_y->setTitleText(tr("Requests"));
    m_yKv->setTitleText(tr("KV cache (%)"));
    m_yKv->setRange(0, 100);
    m_yKv->setTickCount(5);
    for (QLineSeries* s : { m_running, m_waiting }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_kv->attachAxis(m_x);
    m_kv->attachAxis(m_yKv);
    c->legend()->setMarkerShape(QLegend::MarkerShapeCircle);
    ServerChart::restyle(); // this class's own: the object is not fully built yet
    redraw();
}

void ServerChart::setXTitle(const QString& title)
{
    m_x->setTitleText(title);
}

void ServerChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    ChartStyle::styleLine(m_running, ChartStyle::p50(), 2.0);
    ChartStyle::styleLine(m_waiting, ChartStyle::p99(), 2.0);
    ChartStyle::styleLine(m_kv, ChartStyle::knee(), 2.0, Qt::DashLine);
    for (QLineSeries* s : { m_running, m_waiting, m_kv })
        s->setPointsVisible(m_axis == Axis::Load);
}

void ServerChart::setPoints(std::vector<Point> points)
{
    m_points = std::move(points);
    m_seen = qint64(m_points.size());
    m_stride = 1;
    m_latestOffStride = false;
    m_redrawTimer->stop();
    redraw();
}

void ServerChart::addPoint(const Point& point)
{
    if (m_latestOffStride)
        m_points.pop_back();
    if (m_axis == Axis::Time && m_points.size() >= kMaxTimePoints && m_seen % m_stride == 0) {
        // Keep every other kept sample (the first among them) and from now on one in twice as many.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < m_points.size(); i += 2)
            m_points[kept++] = m_points[i];
        m_points.resize(kept);
        m_stride *= 2;
    }
    m_latestOffStride = m_axis == Axis::Time && m_seen % m_stride != 0;
    ++m_seen;
    m_points.push_back(point);
    if (m_axis == Axis::Load) // a point per step
        redraw();
    else if (!m_redrawTimer->isActive())
        m_redrawTimer->start();
}

void ServerChart::redraw()
{
    std::vector<Point> sorted = m_points;
    if (m_axis == Axis::Load)
        std::stable_sort(sorted.begin(), sorted.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    QList<QPointF> running, waiting, kv;
    double maxX = 0, maxY = 0;
    for (const Point& p : sorted) {
        if (!std::isfinite(p.x))
            continue;
        maxX = std::max(maxX, p.x);
        if (p.running) {
            running << QPointF(p.x, *p.running);
            maxY = std::max(maxY, *p.running);
        }
        if (p.waiting) {
            waiting << QPointF(p.x, *p.waiting);
            maxY = std::max(maxY, *p.waiting);
        }
        if (p.kvUsage)
            kv << QPointF(p.x, *p.kvUsage * 100.0);
    }
    m_running->replace(running);
    m_waiting->replace(waiting);
    m_kv->replace(kv);
    ChartStyle::setNiceRange(m_x, maxX > 0 ? maxX : 1.0);
    ChartStyle::setNiceRange(m_y, maxY > 0 ? maxY : 1.0);
    setPlaceholder(sorted.empty() ? (m_axis == Axis::Load ? tr("No server metrics for finished steps yet")
                                                          : tr("No server metrics for this step yet"))
                                  : QString());
}

ServerPanel::ServerPanel(LiveRun* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_note(new QLabel(this))
    , m_loadChart(new ServerChart(ServerChart::Axis::Load, tr("Server queue and KV cache against load"), this))
    , m_timeChart(new ServerChart(ServerChart::Axis::Time, tr("Server during the step"), this))
    , m_environment(new QTextBrowser(this))
    , m_stepsTable(new QTableWidget(this))
{
    m_note->setWordWrap(true);
    m_note->setContentsMargins(8, 4, 8, 4);
    m_environment->setOpenLinks(false);
    m_environment->setMinimumWidth(260);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_loadChart);
    splitter->addWidget(m_timeChart);
    splitter->addWidget(m_environment);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 2);
    splitter->setChildrenCollapsible(false);
    m_stepsTable->setColumnCount(StepsColumnCount);
    m_stepsTable->setHorizontalHeaderLabels({ tr("Step"), tr("Load"), tr("Metrics URL"), tr("Running"), tr("Waiting"),
        tr("KV max"), tr("GPUs"), tr("GPU util avg / max"), tr("GPU memory (GiB)"), tr("Power (W)"), tr("Energy (J)"),
        tr("J / output token") });
    m_stepsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stepsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stepsTable->verticalHeader()->hide();
    m_stepsTable->verticalHeader()->setDefaultSectionSize(m_stepsTable->fontMetrics().height() + 6);
    // Small: the tab must not make the window taller than the charts above do; the splitter gives it room.
    m_stepsTable->setMinimumHeight(2 * m_stepsTable->fontMetrics().height());
    m_stepsTable->horizontalHeader()->setStretchLastSection(true);
    m_stepsTable->setWordWrap(false);
    m_stepsTable->setToolTip(tr("Each metrics URL's figures apart: a replica whose queue grows or whose KV cache "
                                "fills before the others' saturates first"));
    m_stepsTable->hide();
    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(splitter);
    vertical->addWidget(m_stepsTable);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);
    vertical->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_note);
    layout->addWidget(vertical, 1);

    connect(run, &LiveRun::runStarted, this, &ServerPanel::reset);
    connect(run, &LiveRun::stepAdded, this, &ServerPanel::onStepAdded);
    connect(run, &LiveRun::stepStarted, this, [this](int index) {
        m_timeStep = index;
        m_timeChart->setTitle(tr("Server during step %1").arg(index + 1));
        m_timeChart->setPoints({});
    });
    if (SweepController* controller = run->controller()) {
        connect(controller, &SweepController::serverSample, this, &ServerPanel::onSample);
        connect(controller, &SweepController::serverReported, this, [this](const QJsonObject& facts) {
            m_serverReported = facts;
            showEnvironment();
        });
    }
    reset();
}

void ServerPanel::reset()
{
    // A reopened run shows what its run.json recorded; a live one learns it from the controller.
    m_serverReported = m_run->hasInfo() ? m_run->info().environment.value(QLatin1String("server_reported")).toObject()
                                        : QJsonObject {};
    m_timeStep = -1;
    m_loadChart->setPoints({});
    m_timeChart->setPoints({});
    m_timeChart->setTitle(tr("Server during the step"));
    m_stepsTable->setRowCount(0);
    const bool users = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    m_loadChart->setXTitle(users ? tr("Users") : tr("Offered load (req/s)"));
    for (std::size_t i = 0; i < m_run->steps().size(); ++i)
        onStepAdded(int(i));
    showEnvironment();
}

void ServerPanel::onStepAdded(int row)
{
    if (row < 0 || std::size_t(row) >= m_run->steps().size())
        return;
    const StepReport& step = m_run->steps()[std::size_t(row)];
    if (const std::optional<ServerStepStats>& s = step.server.stats) {
        ServerChart::Point p;
        // An all-at-once step has no offered rate: it sits where its requests were served.
        p.x = std::isfinite(step.offered()) ? step.offered() : step.metrics.requestThroughput;
        p.running = s->runningMean;
        p.waiting = s->waitingMean;
        p.kvUsage = s->kvUsageMax;
        if (std::isfinite(p.x)) // neither an offered rate nor a known throughput: nowhere to put it
            m_loadChart->addPoint(p);
    }
    // A finished step shows its own samples until the next one starts.
    if (!step.server.samples.empty() && (m_timeStep < 0 || m_timeStep == step.index())) {
        std::vector<ServerChart::Point> points;
        for (const ServerSample& s : step.server.samples)
            points.push_back({ s.atS, s.running, s.waiting, s.kvUsage });
        m_timeChart->setTitle(tr("Server during step %1").arg(step.index() + 1));
        m_timeChart->setPoints(std::move(points));
    }
    showEnvironment();
    showStepsTable();
}

void ServerPanel::showStepsTable()
{
    auto number = [](std::optional<double> v, int decimals) {
        return v && std::isfinite(*v) ? QLocale().toString(*v, 'f', decimals) : UiFormat::unknown();
    };
    auto percent = [](std::optional<double> v) {
        return v && std::isfinite(*v) ? QStringLiteral("%1%").arg(QLocale().toString(*v, 'f', 0)) : UiFormat::unknown();
    };
    bool show = false;
    std::vector<QStringList> rows;
    auto addRow = [&](const StepReport& step, const ServerStepStats& s, const QString& url,
                      std::optional<double> joulesPerToken) {
        QString util = UiFormat::unknown();
        if (s.gpuUtilisationMean)
            util = QStringLiteral("%1 / %2").arg(percent(s.gpuUtilisationMean), percent(s.gpuUtilisationMax));
        QString energy = number(s.energyJ, 0);
        if (s.energyJ && !s.energySource.isEmpty())
            energy = QStringLiteral("%1 (%2)").arg(
                energy, s.energySource == QLatin1String("counter") ? tr("counter") : tr("power × time"));
        rows.push_back({ QString::number(step.index() + 1), UiFormat::load(step.offered()),
            url.isEmpty() ? UiFormat::unknown() : url, number(s.runningMean, 1), number(s.waitingMean, 1),
            s.kvUsageMax ? UiFormat::percent(*s.kvUsageMax) : UiFormat::unknown(),
            s.gpuCount ? QString::number(*s.gpuCount) : UiFormat::unknown(), util,
            number(s.gpuFbUsedMaxMiB ? std::optional<double>(*s.gpuFbUsedMaxMiB / 1024.0) : std::nullopt, 1),
            number(s.gpuPowerMeanW, 0), energy, number(joulesPerToken, 3) });
    };
    for (const StepReport& step : m_run->steps()) {
        const std::optional<ServerStepStats>& s = step.server.stats;
        if (!s)
            continue;
        show = show || !s->servers.empty() || s->gpuCount;
        addRow(step, *s, s->servers.empty() ? s->url : tr("all %1").arg(s->servers.size()),
            step.metrics.joulesPerOutputToken);
        for (const ServerStepStats& server : s->servers)
            addRow(step, server, server.url, std::nullopt);
    }
    m_stepsTable->setVisible(show);
    m_stepsTable->setRowCount(int(rows.size()));
    for (int r = 0; r < int(rows.size()); ++r) {
        for (int c = 0; c < StepsColumnCount; ++c) {
            auto* item = new QTableWidgetItem(rows[std::size_t(r)].value(c));
            if (c != UrlColumn)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_stepsTable->setItem(r, c, item);
        }
    }
    m_stepsTable->resizeColumnsToContents();
}

void ServerPanel::onSample(int stepIndex, const ServerSample& sample)
{
    if (stepIndex != m_timeStep)
        return;
    m_timeChart->addPoint({ sample.atS, sample.running, sample.waiting, sample.kvUsage });
}

QString ServerPanel::noteText() const
{
    return m_note->text();
}

QString ServerPanel::environmentText() const
{
    return m_environment->toPlainText();
}

void ServerPanel::showEnvironment()
{
    // The note: whose metrics these are, or why there are none.
    const QString unavailable = m_serverReported.value(QLatin1String("metrics_unavailable")).toString();
    const QString engine = m_serverReported.value(QLatin1String("metrics_engine")).toString();
    int scraped = 0;
    for (const StepReport& s : m_run->steps())
        scraped += s.server.stats ? 1 : 0;
    if (!unavailable.isEmpty())
        m_note->setText(
            tr("No server metrics (%1): the charts stay empty; the sweep measures as usual.").arg(unavailable));
    else if (!engine.isEmpty())
        m_note->setText(tr("%1 metrics from %2; %3 of %4 steps scraped.")
                            .arg(engineName(engine), m_serverReported.value(QLatin1String("metrics_url")).toString())
                            .arg(scraped)
                            .arg(m_run->steps().size()));
    else if (scraped > 0)
        m_note->setText(tr("Server metrics for %1 of %2 steps.").arg(scraped).arg(m_run->steps().size()));
    else
        m_note->setText(tr("Server metrics appear here while a sweep runs against a server that serves /metrics."));

    QString html = QStringLiteral("<b>%1</b><table>").arg(tr("Client").toHtmlEscaped());
    const QJsonObject client
        = m_run->hasInfo() && !m_run->info().environment.isEmpty() ? m_run->info().environment : clientEnvironment();
    const std::pair<const char*, QString> clientKeys[] = {
        { "os", tr("OS") },
        { "kernel", tr("Kernel") },
        { "cpu_model", tr("CPU") },
        { "cpu_cores", tr("Cores") },
        { "memory_mib", tr("Memory (MiB)") },
        { "kneepoint_version", tr("Kneepoint") },
        { "qt_version", tr("Qt") },
    };
    for (const auto& [key, name] : clientKeys) {
        const QString v = jsonText(client.value(QLatin1String(key)));
        if (!v.isEmpty())
            html += row(name, v);
    }
    html += QStringLiteral("</table>");
    if (!m_serverReported.isEmpty()) {
        html += QStringLiteral("<b>%1</b><table>").arg(tr("Server, as it reports").toHtmlEscaped());
        const std::pair<const char*, QString> reportedKeys[] = {
            { "server", tr("Server") },
            { "version", tr("Version") },
            { "metrics_engine", tr("Metrics") },
            { "metrics_model", tr("Model (metrics)") },
            { "models", tr("Models") },
            { "max_model_len", tr("max_model_len") },
            { "owned_by", tr("Owned by") },
            { "time_scale", tr("Time scale") },
        };
        for (const auto& [key, name] : reportedKeys) {
            QString v = jsonText(m_serverReported.value(QLatin1String(key)));
            if (QLatin1String(key) == QLatin1String("metrics_engine"))
                v = engineName(v);
            if (!v.isEmpty())
                html += row(name, v);
        }
        html += QStringLiteral("</table>");
    }
    if (m_run->hasInfo()) {
        const ServerInfo& s = m_run->info().profile.server;
        QList<std::pair<QString, QString>> entered = {
            { tr("Engine"), s.engine },
            { tr("Engine version"), s.engineVersion },
            { tr("Accelerator"),
                s.acceleratorCount ? QStringLiteral("%1 × %2").arg(*s.acceleratorCount).arg(s.accelerator)
                                   : s.accelerator },
            { tr("Hardware"), s.hardware },
            { tr("Driver"), s.driverVersion },
            { tr("CUDA/ROCm"), s.runtimeVersion },
            { tr("Precision"), s.precision },
            { tr("Tensor parallel"), s.tensorParallelSize ? QString::number(*s.tensorParallelSize) : QString() },
            { tr("Pipeline parallel"), s.pipelineParallelSize ? QString::number(*s.pipelineParallelSize) : QString() },
            { tr("max_num_seqs"), s.maxNumSeqs ? QString::number(*s.maxNumSeqs) : QString() },
            { tr("gpu_memory_utilization"),
                s.gpuMemoryUtilization ? QString::number(*s.gpuMemoryUtilization) : QString() },
            { tr("Notes"), s.notes },
        };
        QString rows;
        for (const auto& [name, value] : entered) {
            if (!value.isEmpty())
                rows += row(name, value);
        }
        if (!rows.isEmpty())
            html += QStringLiteral("<b>%1</b><table>%2</table>")
                        .arg(tr("Server, as the profile says").toHtmlEscaped(), rows);
    }
    m_environment->setHtml(html);
}

} // namespace kp::ui
