#include "serve/servercomparison.h"

#include "metrics/phrase.h"
#include "runs/savedrun.h"
#include "sim/simparameters.h"
#include "sweep/kneeanalysis.h"
#include "twin/twin.h"

#include <QDir>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

std::optional<double> figureOf(const AnalysisResult& a, bool slo)
{
    const Finding& f = slo ? a.sloCapacity : a.knee;
    return f.found ? std::optional<double>(f.offered) : std::nullopt;
}

} // namespace

void addTwinCheck(const QString& groupDir, ServerComparison& c)
{
    for (int i = 0; i < int(c.runs.size()); ++i) {
        const ServerRunFigures& r = c.runs[std::size_t(i)];
        if (r.measured && r.outcome.state == u"finished") {
            c.twinSource = i;
            break;
        }
    }
    if (c.twinSource < 0) {
        c.twinNote = phrase("ServerSweep", "no configuration finished its sweep, so no twin was fitted");
        return;
    }
    ServerRunFigures& source = c.runs[std::size_t(c.twinSource)];
    const SavedRunRead sourceRun = readSavedRun(QDir(groupDir).filePath(source.outcome.dir));
    if (!sourceRun.ok()) {
        c.twinNote = sourceRun.error;
        c.twinSource = -1;
        return;
    }
    QStringList notes;
    const twin::FitResult fit = twin::fitTwin(twin::fitSteps(*sourceRun.run, &notes), { sourceRun.run->dir });
    if (!fit.ok()) {
        c.twinNote = phrase("ServerSweep", "the twin could not be fitted on %1: %2")
                         .arg(source.outcome.combination.label(), fit.error);
        c.twinSource = -1;
        return;
    }
    for (int i = 0; i < int(c.runs.size()); ++i) {
        ServerRunFigures& r = c.runs[std::size_t(i)];
        if (i == c.twinSource || !r.measured)
            continue;
        sim::SimParams params = fit.twin->params;
        QString problem;
        for (const auto& [name, value] : r.outcome.combination.values) {
            const sim::SimParameter* parameter = sim::findSimParameter(name);
            if (!parameter || !parameter->adjustable) {
                problem = phrase("ServerSweep", "the twin does not model %1").arg(name);
                break;
            }
            if (const QString error = twin::applyOverride(params, name + u'=' + value); !error.isEmpty()) {
                problem = error;
                break;
            }
        }
        if (!problem.isEmpty()) {
            r.twinNote = problem;
            continue;
        }
        const SavedRunRead run = readSavedRun(QDir(groupDir).filePath(r.outcome.dir));
        if (!run.ok())
            continue;
        const std::vector<SweepPoint> measured = run.run->sweepPoints();
        std::vector<twin::PredictLoad> loads;
        for (const SweepPoint& p : measured)
            loads.push_back({ p.concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate, p.offered });
        twin::Twin adjusted = *fit.twin;
        adjusted.params = params;
        const std::vector<SweepPoint> predicted = twin::predict(adjusted, loads, twin::PredictOptions {});
        const AnalysisOptions options = run.run->analysisOptions();
        const bool slo = !run.run->profile.slo.isEmpty();
        r.twinPredicted = figureOf(KneeAnalysis::analyze(predicted, options), slo);
        r.twinPoints = predicted;
        const std::optional<double> truth = figureOf(KneeAnalysis::analyze(measured, options), slo);
        if (r.twinPredicted && truth && *truth > 0)
            r.twinError = (*r.twinPredicted - *truth) / *truth;
        else if (!r.twinPredicted)
            r.twinNote = slo ? phrase("ServerSweep", "the twin predicts no SLO capacity at these loads")
                             : phrase("ServerSweep", "the twin predicts no knee at these loads");
    }
}

} // namespace kp
