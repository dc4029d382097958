#include "run/whatifpanel.h"

#include "kit/chartstyle.h"
#include "kit/forecast.h"
#include "kit/liverun.h"
#include "kit/uiformat.h"
#include "runs/savedrun.h"
#include "sim/simparameters.h"
#include "sweep/capacityplan.h"

#include <QChart>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kp::ui {

namespace {

const twin::ParameterFit* parameter(const twin::Twin& t, const QString& key)
{
    for (const twin::ParameterFit& f : t.parameters) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

// "128", "41,984", "0.04", "1.25": whole numbers from a thousand up, else four significant digits.
QString number(double v)
{
    if (std::abs(v) >= 1000)
        return QLocale().toString(qint64(std::llround(v)));
    return QLocale().toString(v, 'g', 4);
}

// "fitted 128 (120–140)", "fitted 262,144 (≥ 200,000)", "fitted 128 (not identified: …)".
QString fittedWords(const twin::Twin& t, const QString& key, double scale = 1)
{
    const twin::ParameterFit* f = parameter(t, key);
    if (!f)
        return WhatIfPanel::tr("fitted —");
    QString range;
    if (!f->identified)
        range = WhatIfPanel::tr("not identified by the run");
    else if (f->lo && f->hi)
        range = QStringLiteral("%1–%2").arg(number(*f->lo * scale), number(*f->hi * scale));
    else if (f->lo)
        range = QStringLiteral("≥ %1").arg(number(*f->lo * scale));
    else if (f->hi)
        range = QStringLiteral("≤ %1").arg(number(*f->hi * scale));
    else
        range = WhatIfPanel::tr("unbounded by the run");
    return WhatIfPanel::tr("fitted %1 (%2)").arg(number(f->value * scale), range);
}

} // namespace

WhatIfChart::WhatIfChart(QWidget* parent)
    : ChartPanel(tr("What if: load–latency"), parent)
    , m_measured(new QLineSeries(chart()))
    , m_predicted(new QLineSeries(chart()))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
{
    m_predicted->setObjectName(QStringLiteral("whatif.predicted"));
    chart()->addSeries(m_predicted);
    chart()->addSeries(m_measured);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_y->setLabelFormat(QStringLiteral("%g"));
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    for (QLineSeries* s : { m_measured, m_predicted }) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    chart()->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    restyle();
    setPlaceholder(tr("The twin's prediction appears here once it is fitted to a finished run."));
}

void WhatIfChart::restyle()
{
    ChartStyle::apply(chart(), palette());
    ChartStyle::styleLine(m_measured, ChartStyle::p99(), 2.5);
    m_measured->setPointsVisible(true);
    m_measured->setMarkerSize(8);
    QColor predicted = ChartStyle::p50();
    predicted.setAlpha(190);
    ChartStyle::styleLine(m_predicted, predicted, 2.0, Qt::DashLine);
    m_predicted->setPointsVisible(false);
}

void WhatIfChart::setCurves(const QList<QPointF>& measured, const QList<QPointF>& predicted,
    const QString& measuredName, const QString& predictedName, const QString& xTitle, const QString& yTitle)
{
    m_measured->replace(measured);
    m_predicted->replace(predicted);
    m_measured->setName(measuredName);
    m_predicted->setName(predictedName);
    m_predicted->setVisible(!predicted.isEmpty());
    double xMax = 0, yMax = 0, measuredTop = 0;
    for (const QPointF& p : measured) {
        xMax = std::max(xMax, p.x());
        measuredTop = std::max(measuredTop, p.y());
    }
    yMax = measuredTop;
    // A predicted collapse does not squash the measured curve: its latency counts up to three times the measured,
    // or twice the predicted curve's lowest point, so that a latency added to every request (before the engine)
    // keeps the predicted curve's start in view.
    double predictedLow = std::numeric_limits<double>::infinity();
    for (const QPointF& p : predicted)
        predictedLow = std::min(predictedLow, p.y());
    const double cap = std::max(3 * measuredTop, 2 * predictedLow);
    for (const QPointF& p : predicted) {
        xMax = std::max(xMax, p.x());
        yMax = std::max(yMax, measuredTop > 0 ? std::min(p.y(), cap) : p.y());
    }
    ChartStyle::setNiceRange(m_x, xMax > 0 ? xMax * 1.05 : 1.0);
    ChartStyle::setNiceRange(m_y, yMax > 0 ? yMax * 1.08 : 1.0);
    m_x->setTitleText(xTitle);
    m_y->setTitleText(yTitle);
    setPlaceholder(measured.isEmpty() && predicted.isEmpty()
            ? tr("The twin's prediction appears here once it is fitted to a finished run.")
            : QString());
}

WhatIfPanel::WhatIfPanel(const LiveRun* run, QWidget* parent)
    : QWidget(parent)
    , m_run(run)
    , m_status(new QLabel(this))
    , m_seqs(new QSpinBox(this))
    , m_kv(new QSpinBox(this))
    , m_decode(new QDoubleSpinBox(this))
    , m_prefill(new QDoubleSpinBox(this))
    , m_preEngine(new QDoubleSpinBox(this))
    , m_apiServer(new QDoubleSpinBox(this))
    , m_replicas(new QSpinBox(this))
    , m_seqsFit(new QLabel(this))
    , m_kvFit(new QLabel(this))
    , m_decodeFit(new QLabel(this))
    , m_prefillFit(new QLabel(this))
    , m_preEngineFit(new QLabel(this))
    , m_apiServerFit(new QLabel(this))
    , m_findings(new QPlainTextEdit(this))
    , m_save(new QPushButton(tr("Save twin…"), this))
    , m_chart(new WhatIfChart(this))
{
    m_seqs->setObjectName(QStringLiteral("whatif.max_num_seqs"));
    // The simulator's ranges, as --set and the twin file check them.
    const auto range = [](QSpinBox* box, const char* key) {
        const sim::SimParameter* parameter = sim::findSimParameter(QString::fromLatin1(key));
        box->setRange(int(parameter->min), int(parameter->max));
    };
    range(m_seqs, "max_num_seqs");
    m_seqs->setToolTip(tr("The most requests the server runs at once (max_num_seqs)"));
    m_kv->setObjectName(QStringLiteral("whatif.kv_capacity_tokens"));
    range(m_kv, "kv_capacity_tokens");
    m_kv->setSingleStep(1024);
    m_kv->setGroupSeparatorShown(true);
    m_kv->setToolTip(tr("The KV cache's capacity in tokens (kv_capacity_tokens)"));
    for (QDoubleSpinBox* box : { m_decode, m_prefill }) {
        box->setRange(0.1, 20);
        box->setSingleStep(0.1);
        box->setDecimals(2);
        box->setSuffix(tr("× faster"));
        box->setValue(1);
    }
    m_decode->setObjectName(QStringLiteral("whatif.decode"));
    m_decode->setToolTip(tr("Decode speed against the measured server: 2 halves each decode iteration's cost "
                            "(per_decode_ms and per_kv_token_ms)"));
    m_prefill->setObjectName(QStringLiteral("whatif.prefill"));
    m_prefill->setToolTip(tr("Prefill speed against the measured server: 2 halves the cost per prompt token "
                             "(per_prefill_token_ms)"));
    // A time in ms the twin's parameter table holds: its key names the field, its range bounds it.
    const auto msField = [this](QDoubleSpinBox* box, const QString& key, double step) {
        box->setObjectName(QStringLiteral("whatif.") + key);
        const sim::SimParameter* parameter = sim::findSimParameter(key);
        box->setRange(parameter->min, parameter->max);
        box->setDecimals(2);
        box->setSingleStep(step);
        box->setSuffix(tr(" ms"));
    };
    msField(m_preEngine, QStringLiteral("pre_engine_ms"), 10);
    m_preEngine->setToolTip(tr("Latency before the engine, added to every request's TTFT: the API server, "
                               "tokenization, the network (pre_engine_ms; its fitted spread stays)"));
    msField(m_apiServer, QStringLiteral("api_server_ms"), 1);
    m_apiServer->setToolTip(tr("Time each request takes of the single API-server process, one request at a time: "
                               "a queue before the engine that grows with the load (api_server_ms)"));
    m_replicas->setObjectName(QStringLiteral("whatif.replicas"));
    m_replicas->setRange(1, 64);
    m_replicas->setToolTip(tr("Servers like this one behind a round-robin load balancer"));
    m_replicas->setValue(1);
    m_save->setObjectName(QStringLiteral("whatif.save"));
    m_save->setToolTip(tr("Write the twin with the settings above (not the replicas) to a twin.json that "
                          "kneepoint-sim --config serves"));
    m_save->setEnabled(false);
    for (QLabel* l : { m_seqsFit, m_kvFit, m_decodeFit, m_prefillFit, m_preEngineFit, m_apiServerFit, m_status })
        l->setForegroundRole(QPalette::PlaceholderText);
    m_status->setWordWrap(true);
    m_findings->setReadOnly(true);
    m_findings->setFrameShape(QFrame::NoFrame);
    m_findings->setBackgroundRole(QPalette::Window);
    m_findings->viewport()->setBackgroundRole(QPalette::Window);
    m_findings->setObjectName(QStringLiteral("whatif.findings"));

    auto* form = new QFormLayout;
    auto row = [&](const QString& label, QWidget* field, QLabel* fit) {
        auto* h = new QHBoxLayout;
        h->addWidget(field, 1);
        if (fit)
            h->addWidget(fit, 2);
        form->addRow(label, h);
    };
    row(tr("max_num_seqs"), m_seqs, m_seqsFit);
    row(tr("KV capacity (tokens)"), m_kv, m_kvFit);
    row(tr("Decode"), m_decode, m_decodeFit);
    row(tr("Prefill"), m_prefill, m_prefillFit);
    row(tr("Before the engine"), m_preEngine, m_preEngineFit);
    row(tr("API server per request"), m_apiServer, m_apiServerFit);
    row(tr("Replicas"), m_replicas, nullptr);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(m_status);
    leftLayout->addLayout(form);
    leftLayout->addWidget(m_findings, 1);
    leftLayout->addWidget(m_save, 0, Qt::AlignLeft);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, &WhatIfPanel::predict);
    connect(m_seqs, &QSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_kv, &QSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_decode, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_prefill, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_preEngine, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_apiServer, &QDoubleSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_replicas, &QSpinBox::valueChanged, this, &WhatIfPanel::schedulePredict);
    connect(m_save, &QPushButton::clicked, this, &WhatIfPanel::onSaveClicked);
    connect(&m_fitJob, &JobTracker::busyChanged, this, [this] { redraw(); });
    connect(&m_predictJob, &JobTracker::busyChanged, this, [this] { m_status->setText(status()); });
    connect(run, &LiveRun::runStarted, this, &WhatIfPanel::clear);
    connect(run, &LiveRun::analysisChanged, this, &WhatIfPanel::redraw); // a peak demand for the plan
    clear();
}

void WhatIfPanel::clear()
{
    m_fitJob.cancel();
    m_predictJob.cancel();
    m_debounce.stop();
    m_fittedFor.clear();
    m_twin.reset();
    m_refusal.clear();
    m_predicted.clear();
    m_analysis = {};
    redraw();
}

void WhatIfPanel::fitIfNeeded()
{
    if (m_run->isActive() || !m_run->hasInfo() || m_run->steps().empty())
        return;
    const QString dir = m_run->info().runDirectory;
    if (m_fittedFor == dir && (m_twin || m_fitJob.isBusy() || !m_refusal.isEmpty()))
        return;
    m_fittedFor = dir;
    m_twin.reset();
    m_refusal.clear();
    m_predicted.clear();
    // The steps a live run made for the forecast, else the run directory's records.
    std::vector<twin::FitStep> live;
    for (const StepReport& s : m_run->steps()) {
        if (s.fit && s.config.mode == m_run->info().profile.load.mode)
            live.push_back(*s.fit);
    }
    m_fitJob.start(
        tr("Fitting the twin"),
        [live = std::move(live), dir](const JobControl&) mutable {
            if (!live.empty())
                return twin::fitTwin(live, { dir });
            const SavedRunRead read = readSavedRun(dir);
            twin::FitResult out;
            if (!read.ok()) {
                out.error = read.error;
                return out;
            }
            QStringList notes;
            out = twin::fitTwin(twin::fitSteps(*read.run, &notes), { read.run->id });
            out.notes = notes + out.notes;
            return out;
        },
        [this](twin::FitResult fit) { onFitted(fit); });
    redraw();
}

void WhatIfPanel::onFitted(const twin::FitResult& fit)
{
    m_twin = fit.twin;
    m_refusal = fit.ok() ? QString() : fit.error;
    if (m_twin) {
        m_settingFields = true;
        m_seqs->setValue(m_twin->params.maxNumSeqs);
        m_kv->setValue(m_twin->params.kvCapacityTokens);
        m_decode->setValue(1);
        m_prefill->setValue(1);
        m_preEngine->setValue(m_twin->params.preEngineMs);
        m_apiServer->setValue(m_twin->params.apiServerMs);
        m_replicas->setValue(1);
        m_settingFields = false;
        m_seqsFit->setText(fittedWords(*m_twin, QStringLiteral("max_num_seqs")));
        m_kvFit->setText(fittedWords(*m_twin, QStringLiteral("kv_capacity_tokens")));
        m_decodeFit->setText(
            tr("per decode iteration: %1 ms").arg(fittedWords(*m_twin, QStringLiteral("per_decode_ms"))));
        m_prefillFit->setText(
            tr("per prompt token: %1 ms").arg(fittedWords(*m_twin, QStringLiteral("per_prefill_token_ms"))));
        m_preEngineFit->setText(tr("%1 ms").arg(fittedWords(*m_twin, QStringLiteral("pre_engine_ms"))));
        m_apiServerFit->setText(tr("%1 ms").arg(fittedWords(*m_twin, QStringLiteral("api_server_ms"))));
        predict();
    }
    redraw();
}

std::optional<twin::Twin> WhatIfPanel::adjustedTwin(QString* error) const
{
    if (!m_twin)
        return std::nullopt;
    twin::Twin t = *m_twin;
    if (const QString problem = twin::applyAdjustments(t.params, adjustments()); !problem.isEmpty()) {
        if (error)
            *error = problem;
        return std::nullopt;
    }
    return t;
}

std::vector<twin::Adjustment> WhatIfPanel::adjustments() const
{
    // Speeds are "× faster": a cost divided by the speed. Decode speed covers the cache's cost per token too.
    const double decode = 1 / m_decode->value(), prefill = 1 / m_prefill->value();
    return {
        { QStringLiteral("max_num_seqs"), double(m_seqs->value()), false },
        { QStringLiteral("kv_capacity_tokens"), double(m_kv->value()), false },
        { QStringLiteral("per_decode_ms"), decode, true },
        { QStringLiteral("per_kv_token_ms"), decode, true },
        { QStringLiteral("per_prefill_token_ms"), prefill, true },
        { QStringLiteral("pre_engine_ms"), m_preEngine->value(), false },
        { QStringLiteral("api_server_ms"), m_apiServer->value(), false },
    };
}

void WhatIfPanel::schedulePredict()
{
    if (!m_settingFields && m_twin)
        m_debounce.start();
}

void WhatIfPanel::predict()
{
    m_debounce.stop();
    QString error;
    const std::optional<twin::Twin> t = adjustedTwin(&error);
    if (!t) {
        m_refusal = error;
        redraw();
        return;
    }
    std::vector<double> measured;
    const int replicas = m_replicas->value();
    for (const twin::StepFitQuality& q : t->steps) {
        measured.push_back(q.offered);
        if (replicas > 1)
            measured.push_back(q.offered * replicas);
    }
    const LoadMode mode = t->steps.empty() ? LoadMode::Rate : t->steps.front().mode;
    AnalysisOptions options = m_run->info().analysisOptions;
    struct Outcome
    {
        std::vector<SweepPoint> points;
        AnalysisResult analysis;
    };
    m_predictJob.start(
        tr("Predicting"),
        [t = *t, measured, mode, replicas, options](const JobControl&) {
            std::vector<twin::PredictLoad> loads;
            for (double l : Forecaster::loadsToPredict(measured, {}))
                loads.push_back({ mode, l });
            twin::PredictOptions predict;
            predict.replicas = replicas;
            // Each replica gets a step as long as the measured one: a shorter one would end in its own
            // drain, and the replicas would seem to add less than they do.
            predict.requestsPerStep = std::max(1, t.requestsPerStep) * replicas;
            predict.percentiles = { 50, 90, 99 };
            if (std::find(predict.percentiles.begin(), predict.percentiles.end(), options.percentile)
                == predict.percentiles.end())
                predict.percentiles.push_back(options.percentile);
            Outcome out;
            out.points = twin::predict(t, loads, predict);
            out.analysis = KneeAnalysis::analyze(out.points, options);
            return out;
        },
        [this](Outcome out) {
            m_predicted = std::move(out.points);
            m_analysis = std::move(out.analysis);
            redraw();
        });
    redraw();
}

double WhatIfPanel::predictedSaturationRps() const
{
    double best = kUnknown;
    for (const SweepPoint& p : m_predicted) {
        if (std::isfinite(p.metrics.requestThroughput) && !(p.metrics.requestThroughput <= best))
            best = p.metrics.requestThroughput;
    }
    return best;
}

QString WhatIfPanel::status() const
{
    if (m_fitJob.isBusy())
        return tr("Fitting the twin to the run…");
    if (!m_refusal.isEmpty())
        return tr("No twin: %1").arg(m_refusal);
    if (!m_twin)
        return m_run->isActive() ? tr("The What-if panel fits the twin once the sweep has ended.")
                                 : tr("Open or finish a run to fit its twin.");
    QString text = tr("Twin fitted to %1; every curve and figure below it is predicted, not measured.")
                       .arg(LiveRun::stepsWord(int(m_twin->steps.size())));
    if (m_predictJob.isBusy() || m_debounce.isActive())
        text += QStringLiteral(" ") + tr("Predicting…");
    return text;
}

QString WhatIfPanel::findings() const
{
    if (m_predicted.empty())
        return {};
    const LoadMode mode = m_predicted.front().concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate;
    const QString unit = UiFormat::loadUnit(mode);
    QStringList lines;
    lines << (m_analysis.knee.found
            ? tr("Predicted knee: about %1 %2").arg(UiFormat::load(m_analysis.knee.offered), unit)
            : tr("Predicted knee: none within %1 %2").arg(UiFormat::load(m_predicted.back().offered), unit));
    if (m_analysis.sloCapacity.found)
        lines << tr("Predicted SLO capacity: %1about %2 %3")
                     .arg(m_analysis.sloCapacity.lowerBound ? QStringLiteral("≥ ") : QString(),
                         UiFormat::load(m_analysis.sloCapacity.offered), unit);
    if (const double rps = predictedSaturationRps(); std::isfinite(rps))
        lines << tr("Predicted saturation throughput: %1 req/s").arg(UiFormat::throughput(rps));
    // Where the twin did not reproduce the measurement: no forecast above is closer than that.
    if (m_twin) {
        for (const Sentence& d : m_twin->disagreements)
            lines << d.text();
    }
    if (m_run->peakDemand()) {
        const CapacityPlan plan = CapacityPlan::fromAnalysis(m_analysis, *m_run->peakDemand(), m_run->redundancy());
        lines << tr("Predicted capacity plan (each server: %1): %2")
                     .arg(m_replicas->value() == 1 ? tr("one replica") : tr("%1 replicas").arg(m_replicas->value()),
                         plan.sentence());
    }
    return lines.join(u'\n');
}

void WhatIfPanel::redraw()
{
    m_status->setText(status());
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_seqs, m_kv, m_decode, m_prefill, m_preEngine, m_apiServer, m_replicas })
        w->setEnabled(m_twin.has_value());
    m_save->setEnabled(m_twin.has_value());
    if (!m_twin) {
        for (QLabel* l : { m_seqsFit, m_kvFit, m_decodeFit, m_prefillFit, m_preEngineFit, m_apiServerFit })
            l->clear();
    }
    m_findings->setPlainText(findings());

    const AnalysisOptions options = m_run->hasInfo() ? m_run->info().analysisOptions : AnalysisOptions {};
    const LatencyMetric metric = options.metric;
    const double percentile = options.percentile;
    const QString metricWords
        = QStringLiteral("%1 %2").arg(UiFormat::percentileWord(percentile), UiFormat::metricWord(metric));
    QList<QPointF> measured, predicted;
    {
        for (const StepReport& s : m_run->steps()) {
            if (s.config.mode != (m_run->hasInfo() ? m_run->info().profile.load.mode : LoadMode::Rate)
                || !std::isfinite(s.offered()))
                continue;
            if (const auto v = percentileValue(s.metrics.stats(metric), percentile))
                measured << QPointF(s.offered(), *v);
        }
        std::sort(measured.begin(), measured.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    }
    for (const SweepPoint& p : m_predicted) {
        if (const auto v = percentileValue(p.metrics.stats(metric), percentile); v && std::isfinite(*v))
            predicted << QPointF(p.offered, *v);
    }
    const bool concurrency = m_run->hasInfo() && m_run->info().profile.load.mode == LoadMode::Concurrency;
    m_chart->setCurves(measured, predicted, tr("measured %1").arg(metricWords), tr("predicted %1").arg(metricWords),
        concurrency ? tr("Users (concurrency)") : tr("Offered load (req/s)"),
        tr("%1 (ms)").arg(UiFormat::metricWord(metric)));
    Q_EMIT changed();
}

bool WhatIfPanel::saveTwin(const QString& path, QString* error) const
{
    const std::optional<twin::Twin> t = adjustedTwin(error);
    if (!t) {
        if (error && error->isEmpty())
            *error = tr("no twin is fitted yet");
        return false;
    }
    return twin::writeTwinFile(*t, path, error);
}

void WhatIfPanel::onSaveClicked()
{
    const QString path
        = QFileDialog::getSaveFileName(this, tr("Save twin"), QStringLiteral("twin.json"), tr("Twin (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTwin(path, &error))
        m_status->setText(tr("Could not save the twin to %1: %2").arg(path, error));
    else
        m_status->setText(tr("Saved the twin to %1").arg(path));
}

} // namespace kp::ui
