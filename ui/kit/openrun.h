#pragma once

#include "kit/liverun.h"
#include "kit/runinfo.h"
#include "kit/runmeta.h"
#include "kit/stepreport.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace kp {
struct SavedRun;
}

namespace kp::ui {

// A saved run turned into what the run view shows for a live one: the run's info, one StepReport per
// step (histograms and failure groups from the request records when the run kept them, else what the
// result files hold), the analysis and its sentences, and the run's name, date and notes.
struct OpenedRun
{
    RunInfo info;
    std::vector<StepReport> steps; // renumbered 0..n-1 in run order, as a live run numbers them
    RunAnalysis analysis;
    LiveRun::State state = LiveRun::State::Finished;
    RunMeta meta;
    QStringList warnings; // files that could not be read, each named

    // Shows it in a LiveRun (and so in every view on it); false while that LiveRun runs a sweep.
    bool showIn(LiveRun* run) const;
};

RunMeta runMeta(const SavedRun& run);
// A soak is shown by its windows (steps/NNN.windows.jsonl); its request records can be millions (an hour
// at 300 req/s is a million, about 1.3 GB held). Past this size of its requests.jsonl they stay in the
// file: the step opens without its timeline, histograms and failure examples, and says so.
inline constexpr qint64 kSoakRecordsReadBytes = qint64(64) << 20;
// readRecords: read steps/NNN.requests.jsonl for histograms and failure examples (slower for big runs).
// cancelled: checked between steps (a background job that is no longer wanted stops early);
// progress(done, total): told after each step is read.
using StepProgress = std::function<void(int done, int total)>;
OpenedRun openedRun(const SavedRun& run, bool readRecords = true, const std::atomic_bool* cancelled = nullptr,
    const StepProgress& progress = {});
// Reads the run directory; error names the file and key when it cannot be read.
std::optional<OpenedRun> openRunDirectory(const QString& dir, QString* error, bool readRecords = true,
    const std::atomic_bool* cancelled = nullptr, const StepProgress& progress = {});

} // namespace kp::ui
