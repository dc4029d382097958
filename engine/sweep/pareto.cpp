#include "sweep/pareto.h"

#include "metrics/latencystats.h"

#include <algorithm>
#include <cmath>

namespace kp {

ParetoInput ParetoInput::fromStep(
    int step, double offered, const StepMetrics& metrics, bool partial, const std::optional<ServerStepStats>& server)
{
    ParetoInput in;
    in.step = step;
    in.offered = offered;
    if (metrics.tpot.reported() && metrics.tpot.count != 0 && isKnown(metrics.tpot.median) && metrics.tpot.median > 0)
        in.tpotMedianMs = metrics.tpot.median;
    in.outputThroughput = isKnown(metrics.outputThroughput) ? metrics.outputThroughput : 0.0;
    const qint64 sent = metrics.completed + metrics.failed;
    in.errorRate = isKnown(metrics.completed) && isKnown(metrics.failed) && sent > 0
        ? double(metrics.failed) / double(sent)
        : 0.0;
    in.partial = partial;
    if (server && server->gpuCount && *server->gpuCount > 0)
        in.gpus = *server->gpuCount;
    return in;
}

std::vector<ParetoInput> paretoInputs(const std::vector<SweepPoint>& points)
{
    std::vector<ParetoInput> inputs;
    inputs.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        const SweepPoint& p = points[i];
        inputs.push_back(ParetoInput::fromStep(int(i), p.offered, p.metrics, p.partial, p.server));
    }
    return inputs;
}

ParetoOptions paretoOptionsFor(const ServerInfo& server)
{
    ParetoOptions o;
    if (server.acceleratorCount && *server.acceleratorCount > 0) {
        o.gpus = *server.acceleratorCount;
        o.gpusSource = QStringLiteral("server.accelerator_count");
    } else if (server.tensorParallelSize && *server.tensorParallelSize > 0) {
        o.gpus = *server.tensorParallelSize * server.pipelineParallelSize.value_or(1);
        o.gpusSource = server.pipelineParallelSize
            ? QStringLiteral("server.tensor_parallel_size × pipeline_parallel_size")
            : QStringLiteral("server.tensor_parallel_size");
    }
    return o;
}

std::vector<ParetoPoint> ParetoFront::optimal() const
{
    std::vector<ParetoPoint> front;
    std::copy_if(
        points.begin(), points.end(), std::back_inserter(front), [](const ParetoPoint& p) { return p.optimal; });
    return front;
}

ParetoFront paretoFront(const std::vector<ParetoInput>& steps, const ParetoOptions& options)
{
    ParetoFront front;
    int measured = 0;
    for (const ParetoInput& s : steps) {
        if (s.gpus && *s.gpus > measured)
            measured = *s.gpus;
    }
    if (measured > 0) {
        front.unit = ParetoUnit::Gpu;
        front.units = measured;
        front.unitSource = QStringLiteral("GPU exporter");
    } else if (options.gpus && *options.gpus > 0) {
        front.unit = ParetoUnit::Gpu;
        front.units = *options.gpus;
        front.unitSource = options.gpusSource;
    }

    for (const ParetoInput& s : steps) {
        if (!s.tpotMedianMs || s.partial || s.errorRate > options.maxErrorRate || !(s.outputThroughput > 0)
            || !std::isfinite(s.outputThroughput)) {
            ++front.leftOff;
            continue;
        }
        ParetoPoint p;
        p.step = s.step;
        p.offered = s.offered;
        p.perUser = 1000.0 / *s.tpotMedianMs;
        p.perUnit = s.outputThroughput / front.units;
        front.points.push_back(p);
    }
    std::stable_sort(front.points.begin(), front.points.end(), [](const ParetoPoint& a, const ParetoPoint& b) {
        return a.perUser < b.perUser || (a.perUser == b.perUser && a.perUnit < b.perUnit);
    });
    for (ParetoPoint& p : front.points) {
        p.optimal = std::none_of(front.points.begin(), front.points.end(), [&](const ParetoPoint& q) {
            return q.perUser >= p.perUser && q.perUnit >= p.perUnit && (q.perUser > p.perUser || q.perUnit > p.perUnit);
        });
    }
    return front;
}

} // namespace kp
