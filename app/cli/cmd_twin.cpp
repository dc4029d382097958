// kneepoint-cli twin fit|predict: the simulator's model fitted to a saved run, and its forecasts.
#include "cli.h"
#include "clianalysis.h"
#include "cliverbs.h"

#include "metrics/resultjson.h"
#include "metrics/sweeptable.h"
#include "runs/importers.h"
#include "runs/runcatalog.h"
#include "runs/savedrun.h"
#include "twin/twin.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <optional>

namespace kp::cli {

namespace {

const char* const kTwinUsage = R"(Usage: kneepoint-cli twin fit RUN... --out TWIN.json [--data-dir DIR] [--json]
       kneepoint-cli twin predict TWIN.json [--set NAME=VALUE|NAME=xF]... [--replicas N]
                     [--rates LIST | --concurrency LIST] [--requests N] [--seed N]
                     [--slo SPEC]... [--peak DEMAND] [--redundancy POLICY] [--knee-metric M] [--json]
                     [--save [--data-dir DIR] [--label NAME]]

fit: estimates the simulator's server model (per-token prefill and decode costs, the cost of the
cache, scheduler overheads, max_num_seqs, KV cache capacity) from saved runs' steps, request
records and /metrics samples, or from summaries alone (result files without per-request lists:
Little's law and several starts; what they cannot identify is said), and writes it to TWIN.json,
a simulator configuration that "kneepoint-sim --config TWIN.json" serves. Prints each step's measured and predicted figures and
every parameter with its uncertainty; refuses, with the reason, when the steps cannot identify
the model. A RUN is a run directory, the id or name of a run under the data directory, or other
tools' result files or folders (read as import reads them).

predict: runs the twin's model in simulated time at the given loads (default: the loads it was
fitted on) with the source run's request lengths, and prints the predicted steps, their knee,
SLO capacity and capacity plan. --set changes a parameter (an absolute value, or xF for F times
its value); --replicas splits arrivals round-robin over N copies of the server. Every figure it
prints is a prediction, not a measurement. --save also writes the predicted steps as a run in the
data directory, marked predicted wherever it is shown.)";

QString figure(double v, int decimals = 2)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("—");
}

QString loadWord(LoadMode mode, double load)
{
    return mode == LoadMode::Concurrency ? QStringLiteral("%1 users").arg(load) : QStringLiteral("%1 req/s").arg(load);
}

QString paramValue(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("—");
}

QStringList report(const twin::Twin& t)
{
    QStringList lines;
    lines << QStringLiteral("twin of %1: %2 steps, fit error %3 (%4 model runs)")
                 .arg(t.sourceRuns.join(QStringLiteral(", ")))
                 .arg(t.steps.size())
                 .arg(paramValue(t.fitError))
                 .arg(t.evaluations);
    lines << QStringLiteral("%1  %2  %3  %4  %5")
                 .arg(QStringLiteral("load"), -12)
                 .arg(QStringLiteral("RPS measured/predicted"), -24)
                 .arg(QStringLiteral("P50 TTFT ms"), -20)
                 .arg(QStringLiteral("P99 TTFT ms"), -20)
                 .arg(QStringLiteral("P50 TPOT ms"));
    for (const twin::StepFitQuality& q : t.steps) {
        const auto pair = [](double measured, double predicted) {
            return QStringLiteral("%1/%2").arg(figure(measured), figure(predicted));
        };
        lines << QStringLiteral("%1  %2  %3  %4  %5")
                     .arg(loadWord(q.mode, q.offered), -12)
                     .arg(pair(q.measuredRps, q.predictedRps), -24)
                     .arg(pair(q.measuredTtftP50, q.predictedTtftP50), -20)
                     .arg(pair(q.measuredTtftP99, q.predictedTtftP99), -20)
                     .arg(pair(q.measuredTpotP50, q.predictedTpotP50));
    }
    lines << QStringLiteral("parameters (uncertainty: %1):").arg(t.uncertaintyMethod);
    for (const twin::ParameterFit& f : t.parameters) {
        QString range;
        if (!f.identified)
            range = QStringLiteral("not identified");
        else if (f.lo && f.hi)
            range = QStringLiteral("%1 .. %2").arg(paramValue(*f.lo), paramValue(*f.hi));
        else if (f.lo)
            range = QStringLiteral("at least %1").arg(paramValue(*f.lo));
        else
            range = QStringLiteral("at most %1").arg(paramValue(*f.hi));
        lines << QStringLiteral("  %1 %2 %3%4")
                     .arg(f.key, -24)
                     .arg(paramValue(f.value), -12)
                     .arg(range)
                     .arg(f.note.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(f.note));
    }
    if (!t.unidentified.isEmpty())
        lines << QStringLiteral("unidentified (their values are assumptions): %1")
                     .arg(t.unidentified.join(QStringLiteral(", ")));
    return lines;
}

int runFit(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption out(
        QStringLiteral("out"), QStringLiteral("The twin file to write."), QStringLiteral("FILE"));
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Runs directory for run ids and names."), QStringLiteral("DIR"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the twin file's JSON on stdout."));
    const QCommandLineOption budget(QStringLiteral("max-evaluations"),
        QStringLiteral("Most model runs the search may use (default 400)."), QStringLiteral("N"));
    p.addOptions({ out, dataDir, json, budget });
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kTwinUsage, 2))
        return *exit;
    const QStringList names = p.positionalArguments();
    if (names.isEmpty() || !p.isSet(out)) {
        say(QStringLiteral("error: twin fit needs a run and a file to write: kneepoint-cli twin fit RUN... --out "
                           "TWIN.json"));
        return ExitBadInput;
    }
    twin::FitOptions options;
    if (p.isSet(budget)) {
        bool ok = false;
        options.maxEvaluations = p.value(budget).toInt(&ok);
        if (!ok || options.maxEvaluations < 1 || options.maxEvaluations > 100000) {
            say(QStringLiteral("error: --max-evaluations %1: expected an integer from 1 to 100000")
                    .arg(p.value(budget)));
            return ExitBadInput;
        }
    }
    const RunCatalog catalog(p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory());
    std::vector<twin::FitStep> steps;
    QStringList ids, notes;
    // What each source measured: a twin fitted to two servers (or one at two time scales) fits neither.
    struct Source
    {
        QString id, server;
    };
    std::vector<Source> sources;
    QStringList seen; // canonical paths: a run named twice is fitted once
    QStringList foreign; // other tools' result files and folders: read as `import` and `analyze` read them
    for (const QString& name : names) {
        QString dir = name;
        const QFileInfo info(name);
        if (info.isFile() || (info.isDir() && !QFileInfo::exists(info.filePath() + QStringLiteral("/run.json")))) {
            foreign << name;
            continue;
        }
        if (!info.isDir()) {
            const auto resolved = resolveRun(catalog, name);
            if (!resolved)
                return ExitBadInput;
            dir = *resolved;
        }
        const QString canonical = QFileInfo(dir).canonicalFilePath();
        if (seen.contains(canonical)) {
            say(QStringLiteral("warning: %1 is named more than once; its steps are fitted once").arg(name));
            continue;
        }
        seen << canonical;
        const SavedRunRead read = readSavedRun(QFileInfo(dir).absoluteFilePath());
        if (!read.ok()) {
            say(QStringLiteral("error: %1").arg(read.error));
            return ExitBadInput;
        }
        for (const QString& w : read.run->warnings)
            say(QStringLiteral("warning: %1").arg(w));
        ids << read.run->id;
        sources.push_back({ read.run->id, QStringLiteral("%1, model %2").arg(read.run->target(), read.run->model()) });
        std::vector<twin::FitStep> runSteps = twin::fitSteps(*read.run, &notes);
        for (twin::FitStep& s : runSteps)
            steps.push_back(std::move(s));
    }
    if (!foreign.isEmpty()) {
        QStringList unique;
        for (const QString& path : foreign) {
            const QString canonical = QFileInfo(path).canonicalFilePath();
            if (seen.contains(canonical)) {
                say(QStringLiteral("warning: %1 is named more than once; its steps are fitted once").arg(path));
                continue;
            }
            seen << canonical;
            unique << path;
        }
        const ImportContents contents = readImport(unique);
        for (const QString& w : contents.warnings)
            say(QStringLiteral("warning: %1").arg(w));
        if (!contents.ok()) {
            say(QStringLiteral("error: %1").arg(contents.error));
            return ExitBadInput;
        }
        for (const ImportedCurve& curve : contents.curves) {
            ids << curve.name;
            sources.push_back({ curve.name,
                QStringLiteral("%1, model %2")
                    .arg(curve.target.isEmpty() ? curve.source : curve.target, curve.model) });
            std::vector<twin::FitStep> curveSteps = twin::fitSteps(curve, &notes);
            for (twin::FitStep& s : curveSteps)
                steps.push_back(std::move(s));
        }
    }
    for (const Source& other : sources) {
        if (other.server != sources.front().server) {
            say(QStringLiteral("warning: the runs measured different servers or time scales (%1: %2; %3: %4): one "
                               "twin fitted to both describes neither; fit each on its own")
                    .arg(sources.front().id, sources.front().server, other.id, other.server));
            break;
        }
    }
    for (const QString& n : notes)
        say(QStringLiteral("note: %1").arg(n));
    const twin::FitResult fit = twin::fitTwin(steps, ids, options);
    for (const QString& n : fit.notes)
        say(QStringLiteral("note: %1").arg(n));
    if (!fit.ok()) {
        say(QStringLiteral("error: cannot fit a twin to %1: %2").arg(ids.join(QStringLiteral(", ")), fit.error));
        return ExitBadInput;
    }
    QString error;
    if (!twin::writeTwinFile(*fit.twin, p.value(out), &error)) {
        say(QStringLiteral("error: %1").arg(error));
        return ExitFailure;
    }
    if (p.isSet(json)) {
        writeOut(twin::twinToJson(*fit.twin));
    } else {
        QByteArray text;
        for (const QString& line : report(*fit.twin))
            text += line.toUtf8() + '\n';
        writeOut(text);
    }
    say(QStringLiteral("wrote %1 (serve it with: kneepoint-sim --config %1)").arg(p.value(out)));
    return ExitOk;
}

// "10,20,40" or repeated options: positive finite numbers.
bool parseLoads(const QStringList& values, const QString& flag, bool integers, std::vector<double>* loads)
{
    for (const QString& value : values) {
        for (const QString& part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const double v = part.trimmed().toDouble(&ok);
            if (!ok || !std::isfinite(v) || v <= 0 || (integers && v != std::floor(v))) {
                say(QStringLiteral("error: --%1 %2: '%3' is not %4")
                        .arg(flag, value, part,
                            integers ? QStringLiteral("a whole number of users above 0")
                                     : QStringLiteral("a rate above 0 (req/s)")));
                return false;
            }
            loads->push_back(v);
        }
    }
    return true;
}

int runPredict(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption set(QStringLiteral("set"),
        QStringLiteral("Change a parameter: NAME=VALUE or NAME=xFACTOR; repeatable."), QStringLiteral("NAME=VALUE"));
    const QCommandLineOption replicas(QStringLiteral("replicas"),
        QStringLiteral("Servers behind a round-robin balancer (default 1)."), QStringLiteral("N"));
    const QCommandLineOption rates(
        QStringLiteral("rates"), QStringLiteral("Request rates, comma-separated or repeated."), QStringLiteral("LIST"));
    const QCommandLineOption concurrency(QStringLiteral("concurrency"),
        QStringLiteral("Closed-loop users, comma-separated or repeated (instead of rates)."), QStringLiteral("LIST"));
    const QCommandLineOption requests(QStringLiteral("requests"),
        QStringLiteral("Requests per step (default: the source run's)."), QStringLiteral("N"));
    const QCommandLineOption seed(
        QStringLiteral("seed"), QStringLiteral("Seed of the arrival schedule (default 0)."), QStringLiteral("N"));
    const QCommandLineOption slo(QStringLiteral("slo"),
        QStringLiteral("SLO, e.g. ttft:p90:300, tpot:p99:50, errors:1%; repeatable."), QStringLiteral("SPEC"));
    const QCommandLineOption peak(QStringLiteral("peak"),
        QStringLiteral("Peak demand for a capacity plan: 1000 (req/s) or 250000tok/s."), QStringLiteral("DEMAND"));
    const QCommandLineOption redundancy(QStringLiteral("redundancy"),
        QStringLiteral("Spare servers for the capacity plan: N+2 or 20%."), QStringLiteral("POLICY"));
    const QCommandLineOption kneeMetric(QStringLiteral("knee-metric"),
        QStringLiteral("Latency the knee is found on: ttft, tpot, itl, e2el."), QStringLiteral("METRIC"));
    const QCommandLineOption json(
        QStringLiteral("json"), QStringLiteral("Print the predicted steps and their analysis as one JSON object."));
    const QCommandLineOption save(QStringLiteral("save"),
        QStringLiteral("Also save the predicted steps as a run (marked predicted) in the data directory."));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
        QStringLiteral("Runs directory --save writes to (default: the standard one)."), QStringLiteral("DIR"));
    const QCommandLineOption label(QStringLiteral("label"),
        QStringLiteral("Name of the saved run (default: \"prediction of SOURCE\")."), QStringLiteral("NAME"));
    p.addOptions({ set, replicas, rates, concurrency, requests, seed, slo, peak, redundancy, kneeMetric, json, save,
        dataDir, label });
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kTwinUsage, 2))
        return *exit;
    if (p.positionalArguments().size() != 1) {
        say(QStringLiteral("error: twin predict needs one twin file: kneepoint-cli twin predict TWIN.json [--set "
                           "NAME=VALUE]... [--rates LIST]"));
        return ExitBadInput;
    }
    const QString path = p.positionalArguments().constFirst();
    twin::TwinRead read = twin::readTwinFile(path);
    if (!read.twin) {
        say(QStringLiteral("error: %1").arg(read.error));
        return ExitBadInput;
    }
    twin::Twin t = *std::move(read.twin);
    if (!p.isSet(save) && (p.isSet(dataDir) || p.isSet(label))) {
        say(QStringLiteral("error: --%1 only applies with --save")
                .arg(p.isSet(dataDir) ? QStringLiteral("data-dir") : QStringLiteral("label")));
        return ExitBadInput;
    }
    // --set: typed adjustments, each applied in turn (a multiplier applies to the value before it).
    QJsonObject overrides;
    std::vector<std::pair<QString, QString>> overrideList;
    QStringList overrideWords;
    for (const QString& assignment : p.values(set)) {
        QString error;
        const std::optional<twin::Adjustment> adjustment = twin::parseAdjustment(assignment, t.params, &error);
        if (adjustment)
            error = twin::applyAdjustment(t.params, *adjustment);
        if (!error.isEmpty()) {
            say(QStringLiteral("error: %1")
                    .arg(adjustment ? QStringLiteral("--set %1: %2").arg(assignment, error) : error));
            return ExitBadInput;
        }
        overrides.insert(adjustment->parameter, adjustment->text());
        overrideList.emplace_back(adjustment->parameter, adjustment->text());
        overrideWords << QStringLiteral("%1=%2").arg(adjustment->parameter, adjustment->text());
    }
    twin::PredictOptions options;
    const auto intOption = [&p](const QCommandLineOption& o, int lo, int hi, int* value) {
        if (!p.isSet(o))
            return true;
        bool ok = false;
        const int v = p.value(o).toInt(&ok);
        if (!ok || v < lo || v > hi) {
            say(QStringLiteral("error: --%1 %2: expected an integer from %3 to %4")
                    .arg(o.names().constFirst(), p.value(o))
                    .arg(lo)
                    .arg(hi));
            return false;
        }
        *value = v;
        return true;
    };
    int seedValue = 0;
    if (!intOption(replicas, 1, 1000, &options.replicas) || !intOption(requests, 1, 1000000, &options.requestsPerStep)
        || !intOption(seed, 0, 2147483647, &seedValue))
        return ExitBadInput;
    options.seed = quint64(seedValue);
    if (p.isSet(rates) && p.isSet(concurrency)) {
        say(QStringLiteral("error: give --rates or --concurrency, not both"));
        return ExitBadInput;
    }
    std::vector<twin::PredictLoad> loads;
    std::vector<double> values;
    const LoadMode mode = p.isSet(concurrency) ? LoadMode::Concurrency : LoadMode::Rate;
    if (p.isSet(rates) && !parseLoads(p.values(rates), QStringLiteral("rates"), false, &values))
        return ExitBadInput;
    if (p.isSet(concurrency) && !parseLoads(p.values(concurrency), QStringLiteral("concurrency"), true, &values))
        return ExitBadInput;
    for (double v : values)
        loads.push_back({ mode, v });
    if (loads.empty()) {
        for (const twin::StepFitQuality& q : t.steps)
            loads.push_back({ q.mode, q.offered });
    }
    if (loads.empty()) {
        say(QStringLiteral("error: %1 lists no fitted loads: give --rates or --concurrency").arg(path));
        return ExitBadInput;
    }
    AnalysisRequest request;
    const QStringList errors
        = parseAnalysisFlags(p.values(slo), p.value(peak), p.value(redundancy), p.value(kneeMetric), request);
    for (const QString& e : errors)
        say(QStringLiteral("error: %1").arg(e));
    if (!errors.isEmpty())
        return ExitBadInput;

    const std::vector<SweepPoint> points = twin::predict(t, loads, options);
    // Settings that leave no room for a request: no figures of nothing, no analysis of zeros.
    if (const QString none = twin::noRequestFits(t, points); !none.isEmpty()) {
        say(QStringLiteral("error: %1%2")
                .arg(none,
                    overrides.isEmpty() ? QString()
                                        : QStringLiteral(" (with %1)").arg(overrideWords.join(QStringLiteral(", ")))));
        return ExitFailure;
    }
    const AnalysisOutput analysis = analyse(points, request);
    const QString date = StepSetup::dateString(QDateTime::currentDateTime());
    const auto setupFor = [&](const SweepPoint& point) {
        StepSetup setup;
        setup.date = date;
        setup.backend = setup.endpointType = QStringLiteral("kneepoint-twin");
        setup.modelId = t.params.modelId;
        setup.numPrompts = point.planned;
        setup.burstiness = t.burstiness;
        if (point.concurrencyMode)
            setup.maxConcurrency = int(point.offered);
        else
            setup.requestRate = point.offered;
        return setup;
    };
    QString savedDir;
    if (p.isSet(save)) {
        twin::SavedPredictionSpec spec;
        spec.twinFile = path;
        spec.label = p.value(label);
        spec.overrides = overrideList;
        spec.replicas = options.replicas;
        spec.points = points;
        for (const SweepPoint& point : points)
            spec.setups.push_back(setupFor(point));
        const QString root = p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory();
        const twin::SavedPrediction saved = twin::savePrediction(t, spec, root);
        if (saved.dir.isEmpty()) {
            say(QStringLiteral("error: cannot save the prediction: %1").arg(saved.error));
            return ExitFailure;
        }
        savedDir = saved.dir;
    }
    const auto sayWhereSaved = [&savedDir] {
        if (!savedDir.isEmpty())
            say(QStringLiteral("saved the predicted run in %1 (marked predicted, not a measurement)").arg(savedDir));
    };
    if (p.isSet(json)) {
        QJsonObject doc;
        doc.insert(QStringLiteral("predicted"), true);
        doc.insert(QStringLiteral("twin"), path);
        doc.insert(QStringLiteral("source_runs"), QJsonArray::fromStringList(t.sourceRuns));
        doc.insert(QStringLiteral("overrides"), overrides);
        doc.insert(QStringLiteral("replicas"), options.replicas);
        QJsonArray steps;
        for (const SweepPoint& point : points) {
            QJsonObject step = QJsonDocument::fromJson(ResultJson::write(setupFor(point), point.metrics)).object();
            step.insert(QStringLiteral("predicted"), true);
            steps.append(step);
        }
        doc.insert(QStringLiteral("steps"), steps);
        QJsonObject analysisJson = analysis.json;
        analysisJson.insert(QStringLiteral("predicted"), true);
        doc.insert(QStringLiteral("analysis"), analysisJson);
        if (!savedDir.isEmpty())
            doc.insert(QStringLiteral("saved_run"), savedDir);
        writeOut(QJsonDocument(doc).toJson(QJsonDocument::Indented));
        sayWhereSaved();
        return ExitOk;
    }
    QByteArray text
        = QStringLiteral("predicted by the twin %1 (fitted to %2)%3%4\n")
              .arg(path, t.sourceRuns.join(QStringLiteral(", ")),
                  overrides.isEmpty() ? QString()
                                      : QStringLiteral(", with %1").arg(overrideWords.join(QStringLiteral(", "))),
                  options.replicas > 1 ? QStringLiteral(", %1 replicas").arg(options.replicas) : QString())
              .toUtf8();
    for (const SweepPoint& point : points)
        text += "predicted " + SweepTable::compactLine(setupFor(point), point.metrics) + '\n';
    text += "Analysis of the predicted steps:\n";
    for (const QString& line : analysis.lines)
        text += line.toUtf8() + '\n';
    writeOut(text);
    sayWhereSaved();
    return ExitOk;
}

} // namespace

int runTwin(const QStringList& arguments)
{
    const QString sub = arguments.size() > 2 ? arguments.at(2) : QString();
    if (sub == QLatin1String("fit"))
        return runFit(arguments);
    if (sub == QLatin1String("predict"))
        return runPredict(arguments);
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h") || sub == QLatin1String("help")) {
        writeOut(QByteArray(kTwinUsage) + '\n');
        return ExitOk;
    }
    say(QStringLiteral("error: twin needs fit or predict: kneepoint-cli twin fit RUN... --out TWIN.json, or "
                       "kneepoint-cli twin predict TWIN.json"));
    return ExitBadInput;
}

} // namespace kp::cli
