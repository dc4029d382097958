#include "kit/forecast.h"

#include "kit/liverun.h"
#include "kit/uiformat.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

bool sameLoad(double a, double b)
{
    return std::abs(a - b) <= 1e-6 * std::max(1.0, std::abs(b));
}

// "−3%": how far the forecast was from the measurement, as a share of the measurement.
QString offBy(double forecast, double measured)
{
    if (!std::isfinite(forecast) || !std::isfinite(measured) || measured == 0)
        return UiFormat::unknown();
    const long percent = std::lround((forecast - measured) / measured * 100);
    return percent < 0 ? QStringLiteral("−%1%").arg(-percent)
                       : (percent > 0 ? QStringLiteral("+%1%").arg(percent) : QStringLiteral("0%"));
}

} // namespace

const SweepPoint* Forecast::at(double load) const
{
    for (const SweepPoint& p : points) {
        if (sameLoad(p.offered, load))
            return &p;
    }
    return nullptr;
}

std::optional<std::pair<double, double>> Forecast::band(std::size_t i, LatencyMetric metric, double percentile) const
{
    if (i >= points.size())
        return std::nullopt;
    std::optional<std::pair<double, double>> out;
    auto include = [&](const SweepPoint& p) {
        const std::optional<double> v = percentileValue(p.metrics.stats(metric), percentile);
        if (!v || !std::isfinite(*v))
            return;
        out = out ? std::pair { std::min(out->first, *v), std::max(out->second, *v) } : std::pair { *v, *v };
    };
    include(points[i]);
    for (const std::vector<SweepPoint>& variant : variants) {
        if (i < variant.size() && sameLoad(variant[i].offered, points[i].offered))
            include(variant[i]);
    }
    return out;
}

QString ForecastCheck::sentence() const
{
    const QString metricWords
        = QStringLiteral("%1 %2").arg(UiFormat::percentileWord(percentile), UiFormat::metricWord(metric));
    QString text
        = QCoreApplication::translate("kp::ui::Forecaster", "Step %1 at %2: forecast %3 req/s, measured %4 req/s (%5)")
              .arg(stepIndex + 1)
              .arg(UiFormat::loadText(mode, load), UiFormat::throughput(forecastRps), UiFormat::throughput(measuredRps),
                  offBy(forecastRps, measuredRps));
    if (forecastLatencyMs && measuredLatencyMs)
        text += QCoreApplication::translate("kp::ui::Forecaster", "; %1 forecast %2 ms, measured %3 ms (%4)")
                    .arg(metricWords, UiFormat::ms(*forecastLatencyMs), UiFormat::ms(*measuredLatencyMs),
                        offBy(*forecastLatencyMs, *measuredLatencyMs));
    text += QCoreApplication::translate("kp::ui::Forecaster", " (forecast from %1)").arg(LiveRun::stepsWord(fromSteps));
    return text;
}

Forecaster::Forecaster(QObject* parent)
    : QObject(parent)
{
    connect(&m_jobs, &JobTracker::busyChanged, this, &Forecaster::busyChanged);
}

void Forecaster::reset(LoadMode mode, const AnalysisOptions& options, std::vector<double> plannedLoads)
{
    m_jobs.cancel();
    m_mode = mode;
    m_options = options;
    m_planned = std::move(plannedLoads);
    m_steps.clear();
    m_landed.clear();
    m_forecast.reset();
    m_refusal.clear();
    m_checks.clear();
    Q_EMIT changed();
}

void Forecaster::addStep(const StepReport& step)
{
    // Only what a fit can use: a whole step on the sweep's axis, kept to its schedule, with records.
    if (!step.fit || step.partial || step.clientBound || step.config.mode != m_mode || !std::isfinite(step.offered())
        || step.metrics.completed < 1)
        return;
    m_steps.push_back(step.fit);
    m_landed.push_back({ step.index(), step.metrics });
    if (m_forecast)
        check(*m_forecast);
    if (int(m_steps.size()) < kMinSteps) {
        const int more = kMinSteps - int(m_steps.size());
        m_refusal = (more == 1 ? tr("Forecast: after 1 more finished step; the twin needs %1 to fit")
                               : tr("Forecast: after %1 more finished steps; the twin needs %2 to fit").arg(more))
                        .arg(kMinSteps);
        Q_EMIT changed();
        return;
    }
    m_refusal.clear();
    // One fit at a time (a fit does not stop half-way, and the sweep shares the machine): steps that land
    // meanwhile are fitted together once it ends, and its forecast is checked against them first.
    if (!m_jobs.isBusy())
        startFit();
    Q_EMIT changed();
}

void Forecaster::startFit()
{
    struct Outcome
    {
        std::optional<Forecast> forecast;
        QString error;
    };
    m_jobs.start(
        tr("Fitting the forecast"),
        [steps = m_steps, mode = m_mode, options = m_options, planned = m_planned](const JobControl&) {
            Outcome out;
            out.forecast = compute(steps, mode, options, planned, &out.error);
            return out;
        },
        [this, used = int(m_steps.size())](Outcome out) {
            if (out.forecast) {
                m_forecast = std::move(out.forecast);
                m_refusal.clear();
                check(*m_forecast);
            } else {
                // The last forecast stays on screen until a newer one replaces it; the line says why not.
                m_refusal = tr("Forecast from %1 refused: %2").arg(LiveRun::stepsWord(used), out.error);
            }
            if (int(m_steps.size()) > used)
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        if (!m_jobs.isBusy() && int(m_steps.size()) >= kMinSteps)
                            startFit();
                    },
                    Qt::QueuedConnection); // once this job is no longer busy
            Q_EMIT changed();
        });
}

void Forecaster::check(const Forecast& forecast)
{
    // The steps that landed after the ones the forecast was fitted to, each checked once.
    for (std::size_t i = std::size_t(forecast.fromSteps); i < m_landed.size(); ++i) {
        Landed& landed = m_landed[i];
        const SweepPoint* p = landed.checked ? nullptr : forecast.at(m_steps[i]->offered);
        if (!p)
            continue;
        landed.checked = true;
        ForecastCheck c;
        c.stepIndex = landed.index;
        c.mode = m_mode;
        c.load = m_steps[i]->offered;
        c.fromSteps = forecast.fromSteps;
        c.forecastRps = p->metrics.requestThroughput;
        c.measuredRps = landed.metrics.requestThroughput;
        c.metric = m_options.metric;
        c.percentile = m_options.percentile;
        c.forecastLatencyMs = percentileValue(p->metrics.stats(c.metric), c.percentile);
        c.measuredLatencyMs = percentileValue(landed.metrics.stats(c.metric), c.percentile);
        m_checks.push_back(c);
    }
}

QString Forecaster::sentence(const AnalysisResult* measured) const
{
    if (!m_forecast)
        return m_jobs.isBusy() ? tr("Forecast: fitting the twin to %1…").arg(LiveRun::stepsWord(usableSteps()))
                               : m_refusal;
    const Forecast& f = *m_forecast;
    const QString unit = UiFormat::loadUnit(f.mode);
    QStringList parts;
    const bool kneeMeasured = measured && measured->knee.found;
    const bool sloMeasured = measured && measured->sloCapacity.found && !measured->sloCapacity.lowerBound;
    if (!kneeMeasured) {
        if (f.analysis.knee.found)
            parts << tr("knee at about %1 %2").arg(UiFormat::load(f.analysis.knee.offered), unit);
        else
            parts
                << tr("no knee within %1 %2").arg(UiFormat::load(f.points.empty() ? 0 : f.points.back().offered), unit);
    }
    if (!sloMeasured && f.analysis.sloCapacity.found)
        parts << tr("SLO capacity %1about %2 %3")
                     .arg(f.analysis.sloCapacity.lowerBound ? QStringLiteral("≥ ") : QString(),
                         UiFormat::load(f.analysis.sloCapacity.offered), unit);
    QString text = parts.isEmpty()
        ? tr("Forecast: the dashed curve extends the measured one (predicted from %1)")
              .arg(LiveRun::stepsWord(f.fromSteps))
        : tr("Forecast: %1 (predicted from %2)").arg(parts.join(tr(", ")), LiveRun::stepsWord(f.fromSteps));
    if (!m_refusal.isEmpty())
        text += QStringLiteral(" · ") + m_refusal;
    return text;
}

std::vector<double> Forecaster::loadsToPredict(const std::vector<double>& measured, const std::vector<double>& planned)
{
    std::vector<double> loads;
    double lowest = 0, highest = 0;
    for (double m : measured) {
        if (!std::isfinite(m) || m <= 0)
            continue;
        loads.push_back(m);
        lowest = loads.size() == 1 ? m : std::min(lowest, m);
        highest = std::max(highest, m);
    }
    if (loads.empty())
        return loads;
    for (double p : planned) {
        if (std::isfinite(p) && p >= lowest)
            loads.push_back(p);
    }
    double top = highest;
    for (double l : loads)
        top = std::max(top, l);
    for (double factor : { 1.25, 1.5, 2.0 })
        loads.push_back(top * factor);
    std::sort(loads.begin(), loads.end());
    loads.erase(std::unique(loads.begin(), loads.end(), sameLoad), loads.end());
    return loads;
}

std::optional<Forecast> Forecaster::compute(const std::vector<std::shared_ptr<const twin::FitStep>>& steps,
    LoadMode mode, const AnalysisOptions& options, const std::vector<double>& planned, QString* error)
{
    std::vector<twin::FitStep> input;
    std::vector<double> measured;
    for (const auto& s : steps) {
        input.push_back(*s);
        measured.push_back(s->offered);
    }
    const twin::FitResult fit = twin::fitTwin(input, { QStringLiteral("live sweep") });
    if (!fit.ok()) {
        *error = fit.error;
        return std::nullopt;
    }
    Forecast f;
    f.mode = mode;
    f.fromSteps = int(steps.size());
    f.twin = fit.twin;
    std::vector<twin::PredictLoad> loads;
    for (double l : loadsToPredict(measured, planned))
        loads.push_back({ mode, l });
    twin::PredictOptions predict;
    predict.percentiles = { 50, 90, 99 };
    if (std::find(predict.percentiles.begin(), predict.percentiles.end(), options.percentile)
        == predict.percentiles.end())
        predict.percentiles.push_back(options.percentile);
    f.points = twin::predict(*fit.twin, loads, predict);
    // The band: each parameter the data bound, alone at either end of its range.
    for (const twin::ParameterFit& p : fit.twin->parameters) {
        if (!p.identified)
            continue;
        for (const std::optional<double>& end : { p.lo, p.hi }) {
            if (!end || *end == p.value)
                continue;
            twin::Twin variant = *fit.twin;
            if (!twin::applyAdjustment(variant.params, twin::Adjustment { p.key, *end, false }).isEmpty())
                continue;
            f.variants.push_back(twin::predict(variant, loads, predict));
        }
    }
    f.analysis = KneeAnalysis::analyze(f.points, options);
    return f;
}

} // namespace kp::ui
