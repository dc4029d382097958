#include "charts/gpuchart.h"

#include "kit/chartstyle.h"

namespace kp::ui {

GpuChart::GpuChart(const LiveRun* run, QWidget* parent)
    : StepFigureChart(run, spec(), parent)
{ }

StepFigureChart::Spec GpuChart::spec()
{
    Spec s;
    s.title = tr("GPUs");
    s.first = { tr("utilisation %"),
        [](const StepReport& r) -> std::optional<double> {
            return r.server.stats ? r.server.stats->gpuUtilisationMean : std::nullopt;
        },
        ChartStyle::p50(), 2.5, Qt::SolidLine };
    s.second = { tr("memory used (GiB)"),
        [](const StepReport& r) -> std::optional<double> {
            if (!r.server.stats || !r.server.stats->gpuFbUsedMaxMiB)
                return std::nullopt;
            return *r.server.stats->gpuFbUsedMaxMiB / 1024.0;
        },
        ChartStyle::tokens(), 2.0, Qt::DashLine };
    s.secondAxisTitle = tr("GiB");
    s.waitingText = tr("GPU utilisation and memory against the offered load, as steps finish.");
    s.noFiguresText = tr("No GPU figures: add a DCGM or AMD exporter URL to target.metrics_urls, or run the "
                         "simulator with --gpus N.");
    return s;
}

} // namespace kp::ui
