#pragma once

#include "metrics/stepmetrics.h"
#include "profile/profile.h"
#include "sweep/kneeanalysis.h"
#include "telemetry/servermetrics.h"

#include <QString>

#include <optional>
#include <vector>

namespace kp {

// The interactivity–throughput trade-off of a sweep, as the serving community charts it: each step's
// output tokens per second per user (interactivity: 1000 / median TPOT, the speed at which one user's
// answer streams) against its output tokens per second per GPU (or per server when the GPU count is
// unknown). A step is Pareto-optimal when no other step is at least as good on both and better on one.

// What one step gives the front.
struct ParetoInput
{
    int step = -1; // the caller's index of the step
    double offered = 0.0; // req/s or users, for labels
    std::optional<double> tpotMedianMs; // unknown: the step is left off (no answer streamed two tokens)
    double outputThroughput = 0.0; // output tok/s
    double errorRate = 0.0; // failed / sent
    bool partial = false; // stopped before every request ended
    std::optional<int> gpus; // GPUs the server's metrics counted during the step (DCGM), when scraped

    // A step's figures: TPOT's median when known, output throughput, error rate, and the GPU count its
    // server statistics carry.
    static ParetoInput fromStep(int step, double offered, const StepMetrics& metrics, bool partial,
        const std::optional<ServerStepStats>& server);
};

enum class ParetoUnit { Gpu, Server };

struct ParetoPoint
{
    int step = -1;
    double offered = 0.0;
    double perUser = 0.0; // output tok/s per user
    double perUnit = 0.0; // output tok/s per GPU (or per server)
    bool optimal = false;
    bool operator==(const ParetoPoint&) const = default;
};

struct ParetoFront
{
    ParetoUnit unit = ParetoUnit::Server;
    int units = 1; // the GPUs (or servers) the throughput is divided by
    QString
        unitSource; // where the GPU count comes from: "GPU exporter", "server.accelerator_count", ...; empty per server
    std::vector<ParetoPoint> points; // every usable step, by rising interactivity
    int leftOff = 0; // steps with no TPOT, partial, or above the error limit

    std::vector<ParetoPoint> optimal() const; // the front, by rising interactivity
    bool operator==(const ParetoFront&) const = default;
};

struct ParetoOptions
{
    // The GPUs behind the target when the steps' metrics do not count them: the profile's
    // server.accelerator_count, else tensor × pipeline parallel size.
    std::optional<int> gpus;
    QString gpusSource; // the field that gave gpus
    double maxErrorRate = 0.05; // steps failing more are left off (as the analysis leaves them out)
};

// The inputs of a run's analysed steps (SavedRun::sweepPoints(), in load order), step = position.
std::vector<ParetoInput> paretoInputs(const std::vector<SweepPoint>& points);

// The GPU count a profile's server section states: accelerator_count, else tensor × pipeline parallel size.
ParetoOptions paretoOptionsFor(const ServerInfo& server);

// The front of one sweep. The GPU count is the largest any step's metrics reported, else options.gpus,
// else the throughput is per server (units 1).
ParetoFront paretoFront(const std::vector<ParetoInput>& steps, const ParetoOptions& options = {});

} // namespace kp
