#include "twin/twin.h"

#include "metrics/resultjson.h"
#include "runs/runcatalog.h"
#include "store/runwriter.h"
#include "sweep/sweepplanner.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace kp::twin {

SavedPrediction savePrediction(const Twin& twin, const SavedPredictionSpec& spec, const QString& runsRoot)
{
    SavedPrediction out;
    if (!QDir().mkpath(runsRoot)) {
        out.error = QStringLiteral("%1: cannot create the folder").arg(runsRoot);
        return out;
    }
    const QString name = spec.label.isEmpty()
        ? QStringLiteral("prediction of %1").arg(twin.sourceRuns.join(QStringLiteral(", ")))
        : spec.label;
    const LoadMode axis
        = spec.points.empty() || !spec.points.front().concurrencyMode ? LoadMode::Rate : LoadMode::Concurrency;
    // The profile as far as a prediction has one: the model and the loads; it names no server.
    QJsonObject target;
    if (!twin.params.modelId.isEmpty())
        target.insert(QLatin1String("model"), twin.params.modelId);
    QJsonObject load;
    load.insert(QLatin1String("mode"), loadModeName(axis));
    QJsonArray loads;
    for (const SweepPoint& p : spec.points)
        loads.append(axis == LoadMode::Rate ? QJsonValue(formatRate(p.offered)) : QJsonValue(qint64(p.offered)));
    load.insert(axis == LoadMode::Rate ? QLatin1String("rates") : QLatin1String("concurrencies"), loads);
    QJsonObject profile;
    profile.insert(QLatin1String("schema"), profileSchemaId());
    profile.insert(QLatin1String("name"), name);
    profile.insert(QLatin1String("target"), target);
    profile.insert(QLatin1String("load"), load);

    QTemporaryDir temporary(QDir(runsRoot).filePath(QStringLiteral(".prediction-XXXXXX")));
    if (!temporary.isValid()) {
        out.error = QStringLiteral("%1: cannot create a temporary folder: %2").arg(runsRoot, temporary.errorString());
        return out;
    }
    RunWriter writer;
    if (!writer.open(temporary.path(), &out.error))
        return out;
    RunDocument run;
    for (std::size_t i = 0; i < spec.points.size(); ++i) {
        const SweepPoint& p = spec.points[i];
        const int index = int(i);
        const LoadMode mode = p.concurrencyMode ? LoadMode::Concurrency : LoadMode::Rate;
        RunStepEntry entry;
        entry.index = index;
        entry.load = formatLoad(mode, p.offered);
        entry.file = QFileInfo(writer.stepPath(index)).fileName();
        entry.completed = p.metrics.completed;
        entry.failed = p.metrics.failed;
        entry.partial = false;
        entry.clientBound = false;
        entry.predicted = true;
        run.steps.push_back(std::move(entry));
        const StepSetup setup = i < spec.setups.size() ? spec.setups[i] : StepSetup {};
        QJsonObject step = QJsonDocument::fromJson(ResultJson::write(setup, p.metrics, {}, 2)).object();
        step.insert(QLatin1String("predicted"), true);
        if (!writer.writeStep(index, QJsonDocument(step).toJson(QJsonDocument::Indented), &out.error))
            return out;
    }
    RunPrediction prediction;
    prediction.twinFile = spec.twinFile;
    prediction.sourceRuns = twin.sourceRuns;
    for (const auto& [key, value] : spec.overrides)
        prediction.overrides.insert(key, value);
    prediction.replicas = spec.replicas;

    const QDateTime now = QDateTime::currentDateTime();
    run.status = QStringLiteral("finished");
    run.source = QStringLiteral("twin");
    run.predicted = true;
    run.prediction = prediction;
    run.name = name;
    run.created = now;
    run.updated = now;
    run.profile = profile;
    QJsonObject environment;
    environment.insert(QLatin1String("kneepoint_version"), QLatin1String(KNEEPOINT_VERSION));
    environment.insert(QLatin1String("source_tool"), QLatin1String("kneepoint-twin"));
    run.environment = environment;
    RunPlan plan;
    plan.kind = QStringLiteral("list");
    run.plan = plan;
    if (!writer.writeRun(run, &out.error))
        return out;
    writer.close();

    const QString dir = newRunDirectory(runsRoot, name);
    if (!QDir().rename(temporary.path(), dir)) {
        out.error = QStringLiteral("%1: cannot move the predicted run into place").arg(dir);
        return out;
    }
    temporary.setAutoRemove(false);
    out.dir = dir;
    return out;
}

} // namespace kp::twin
