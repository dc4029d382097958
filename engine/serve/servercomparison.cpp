#include "serve/servercomparison.h"

#include "metrics/phrase.h"
#include "runs/savedrun.h"
#include "sweep/kneeanalysis.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace kp {

namespace {

QJsonValue numberOrNull(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

std::optional<double> found(const Finding& f)
{
    return f.found ? std::optional<double>(f.offered) : std::nullopt;
}

QString loadText(double v, bool concurrencyMode)
{
    const QString number = std::trunc(v) == v ? QString::number(v, 'f', 0) : QString::number(v, 'f', v >= 100 ? 0 : 1);
    return concurrencyMode ? phrase("ServerSweep", "%1 users").arg(number)
                           : phrase("ServerSweep", "%1 req/s").arg(number);
}

QString cell(const std::optional<double>& v, int decimals = 1, bool lowerBound = false)
{
    if (!v)
        return u"—"_s;
    return (lowerBound ? u"≥"_s : QString()) + QString::number(*v, 'f', *v >= 100 ? 0 : decimals);
}

} // namespace

ServerComparison compareServerRuns(const QString& groupDir, const std::vector<ServerRunOutcome>& outcomes)
{
    ServerComparison c;
    for (const ServerRunOutcome& outcome : outcomes) {
        ServerRunFigures r;
        r.outcome = outcome;
        const QString dir = QDir(groupDir).filePath(outcome.dir);
        const SavedRunRead read
            = QFileInfo::exists(QDir(dir).filePath(u"run.json"_s)) ? readSavedRun(dir) : SavedRunRead {};
        if (read.ok() && !read.run->steps.empty()) {
            const SavedRun& run = *read.run;
            const AnalysisResult a = run.analyze();
            r.measured = true;
            r.concurrencyMode = a.concurrencyMode;
            r.knee = found(a.knee);
            r.saturation = found(a.saturation);
            r.sloCapacity = found(a.sloCapacity);
            r.sloCapacityLowerBound = a.sloCapacity.found && a.sloCapacity.lowerBound;
            if (a.peakStep >= 0)
                r.peakThroughput = a.peakThroughput;
            c.hasSlo = c.hasSlo || !run.profile.slo.isEmpty();
            const ParetoFront front
                = paretoFront(paretoInputs(run.sweepPoints()), paretoOptionsFor(run.profile.server));
            if (front.unit == ParetoUnit::Gpu) {
                r.gpus = front.units;
                r.gpusSource = front.unitSource;
                if (r.sloCapacity && !r.concurrencyMode)
                    r.sloCapacityPerGpu = *r.sloCapacity / front.units;
            }
            r.front = front.optimal();
            for (const ParetoPoint& p : r.front)
                r.bestPerUnit = std::max(r.bestPerUnit.value_or(0.0), p.perUnit);
        }
        c.runs.push_back(std::move(r));
    }

    // The group's front across configurations: a step of one is beaten when a step of any is at least as
    // good on both axes and better on one. Per GPU only when every measured configuration knows its GPUs.
    bool allGpus = false;
    for (const ServerRunFigures& r : c.runs) {
        if (!r.measured)
            continue;
        allGpus = r.gpus.has_value();
        if (!allGpus)
            break;
    }
    c.unit = allGpus ? ParetoUnit::Gpu : ParetoUnit::Server;
    auto perUnit = [&](const ServerRunFigures& r, const ParetoPoint& p) {
        // A front worked out per GPU is per server again times its GPUs, when the group is per server.
        return c.unit == ParetoUnit::Server && r.gpus ? p.perUnit * *r.gpus : p.perUnit;
    };
    for (ServerRunFigures& r : c.runs) {
        for (const ParetoPoint& p : r.front) {
            bool beaten = false;
            for (const ServerRunFigures& o : c.runs) {
                if (&o == &r)
                    continue;
                for (const ParetoPoint& q : o.front) {
                    const double a = perUnit(r, p), b = perUnit(o, q);
                    if (q.perUser >= p.perUser && b >= a && (q.perUser > p.perUser || b > a))
                        beaten = true;
                }
            }
            if (!beaten)
                ++r.onGroupFront;
        }
    }

    // The best configuration for the SLO.
    auto figure = [&](const ServerRunFigures& r) -> std::optional<double> {
        if (c.hasSlo)
            return allGpus ? r.sloCapacityPerGpu : r.sloCapacity;
        return r.knee;
    };
    int second = -1;
    for (int i = 0; i < int(c.runs.size()); ++i) {
        const std::optional<double> v = figure(c.runs[std::size_t(i)]);
        if (!v)
            continue;
        if (c.best < 0 || *v > *figure(c.runs[std::size_t(c.best)])) {
            second = c.best;
            c.best = i;
        } else if (second < 0 || *v > *figure(c.runs[std::size_t(second)])) {
            second = i;
        }
    }
    if (c.best < 0) {
        c.bestSentence = c.hasSlo ? phrase("ServerSweep",
                             "No configuration met the SLO at any load it was swept at, so none can be named best.")
                                  : phrase("ServerSweep",
                                      "No configuration reached a knee, so none can be named best; set an SLO or sweep "
                                      "higher loads.");
        return c;
    }
    const ServerRunFigures& b = c.runs[std::size_t(c.best)];
    const bool users = b.concurrencyMode;
    QString why;
    if (c.hasSlo && allGpus)
        why = phrase("ServerSweep", "the most load within the SLO per GPU: %1 on %2 GPU(s), %3 per GPU")
                  .arg((b.sloCapacityLowerBound ? u"≥ "_s : QString()) + loadText(*b.sloCapacity, users))
                  .arg(*b.gpus)
                  .arg(loadText(*b.sloCapacityPerGpu, users));
    else if (c.hasSlo)
        why = phrase("ServerSweep", "the most load within the SLO: %1")
                  .arg((b.sloCapacityLowerBound ? u"≥ "_s : QString()) + loadText(*b.sloCapacity, users));
    else
        why = phrase("ServerSweep", "the highest knee: %1 (no SLO was set)").arg(loadText(*b.knee, users));
    QString against;
    if (second >= 0) {
        const double v = *figure(b), w = *figure(c.runs[std::size_t(second)]);
        against = w > 0
            ? phrase("ServerSweep", ", %1× the next best (%2)")
                  .arg(QString::number(v / w, 'f', 2), c.runs[std::size_t(second)].outcome.combination.label())
            : phrase("ServerSweep", "; the next best (%1) has none")
                  .arg(c.runs[std::size_t(second)].outcome.combination.label());
    }
    QString lower;
    if (b.sloCapacityLowerBound && c.hasSlo)
        lower = phrase("ServerSweep", " It met the SLO at the highest load swept: sweep higher to find its limit.");
    c.bestSentence = phrase("ServerSweep", "Best configuration for the SLO: %1, with %2%3.%4")
                         .arg(b.outcome.combination.label(), why, against, lower);
    if (!c.hasSlo)
        c.bestSentence = phrase("ServerSweep", "Best configuration: %1, with %2%3.")
                             .arg(b.outcome.combination.label(), why, against);
    return c;
}

QJsonObject serverGroupJson(const ServerComparison& comparison, const QString& status)
{
    QJsonArray runs;
    for (const ServerRunFigures& r : comparison.runs) {
        const ServerRunOutcome& o = r.outcome;
        QJsonObject parameters;
        QJsonArray order;
        for (const auto& [name, value] : o.combination.values) {
            parameters.insert(name, value);
            order.append(name);
        }
        QJsonArray front;
        for (const ParetoPoint& p : r.front)
            front.append(QJsonObject { { u"offered"_s, p.offered }, { u"output_tok_s_per_user"_s, p.perUser },
                { u"output_tok_s_per_unit"_s, p.perUnit } });
        runs.append(QJsonObject { { u"dir"_s, o.dir }, { u"parameters"_s, parameters }, { u"order"_s, order },
            { u"label"_s, o.combination.label() }, { u"command"_s, redactCommandSecrets(o.command) },
            { u"state"_s, o.state }, { u"error"_s, o.error.isEmpty() ? QJsonValue() : QJsonValue(o.error) },
            { u"exit_code"_s, o.exitCode ? QJsonValue(*o.exitCode) : QJsonValue() },
            { u"ready_s"_s, numberOrNull(o.readyS) }, { u"load_unit"_s, r.concurrencyMode ? u"users"_s : u"req/s"_s },
            { u"knee"_s, numberOrNull(r.knee) }, { u"saturation"_s, numberOrNull(r.saturation) },
            { u"slo_capacity"_s, numberOrNull(r.sloCapacity) },
            { u"slo_capacity_lower_bound"_s, r.sloCapacityLowerBound },
            { u"peak_throughput"_s, numberOrNull(r.peakThroughput) },
            { u"gpus"_s, r.gpus ? QJsonValue(*r.gpus) : QJsonValue() },
            { u"slo_capacity_per_gpu"_s, numberOrNull(r.sloCapacityPerGpu) }, { u"pareto_front"_s, front },
            { u"on_group_front"_s, r.onGroupFront }, { u"twin_predicted"_s, numberOrNull(r.twinPredicted) },
            { u"twin_error"_s, numberOrNull(r.twinError) },
            { u"twin_note"_s, r.twinNote.isEmpty() ? QJsonValue() : QJsonValue(r.twinNote) } });
    }
    return { { u"format"_s, u"kneepoint.matrix/1"_s }, { u"kind"_s, u"server_sweep"_s }, { u"status"_s, status },
        { u"pareto_unit"_s, comparison.unit == ParetoUnit::Gpu ? u"gpu"_s : u"server"_s }, { u"runs"_s, runs },
        { u"best"_s,
            comparison.best >= 0 ? QJsonValue(comparison.runs[std::size_t(comparison.best)].outcome.dir)
                                 : QJsonValue() },
        { u"best_sentence"_s, comparison.bestSentence },
        { u"twin_fitted_on"_s,
            comparison.twinSource >= 0 ? QJsonValue(comparison.runs[std::size_t(comparison.twinSource)].outcome.dir)
                                       : QJsonValue() },
        { u"twin_note"_s, comparison.twinNote.isEmpty() ? QJsonValue() : QJsonValue(comparison.twinNote) } };
}

std::vector<ServerRunOutcome> serverOutcomesFromJson(const QJsonObject& group)
{
    std::vector<ServerRunOutcome> out;
    if (group.value(u"kind"_s).toString() != u"server_sweep")
        return out;
    for (const QJsonValue& v : group.value(u"runs"_s).toArray()) {
        const QJsonObject r = v.toObject();
        ServerRunOutcome o;
        const QJsonObject parameters = r.value(u"parameters"_s).toObject();
        for (const QJsonValue& name : r.value(u"order"_s).toArray())
            o.combination.values.append({ name.toString(), parameters.value(name.toString()).toString() });
        o.dir = r.value(u"dir"_s).toString();
        o.command = r.value(u"command"_s).toString();
        o.state = r.value(u"state"_s).toString();
        o.error = r.value(u"error"_s).toString();
        if (r.value(u"exit_code"_s).isDouble())
            o.exitCode = r.value(u"exit_code"_s).toInt();
        if (r.value(u"ready_s"_s).isDouble())
            o.readyS = r.value(u"ready_s"_s).toDouble();
        out.push_back(o);
    }
    return out;
}

QString serverGroupOf(const QStringList& runDirs)
{
    if (runDirs.isEmpty())
        return {};
    const QString group = QFileInfo(runDirs.constFirst()).absolutePath();
    QFile file(QDir(group).filePath(u"matrix.json"_s));
    if (!file.open(QIODevice::ReadOnly) || file.size() > (16 << 20))
        return {};
    const std::vector<ServerRunOutcome> outcomes
        = serverOutcomesFromJson(QJsonDocument::fromJson(file.readAll()).object());
    for (const QString& dir : runDirs) {
        const QFileInfo info(dir);
        if (info.absolutePath() != group)
            return {};
        if (std::none_of(
                outcomes.begin(), outcomes.end(), [&](const ServerRunOutcome& o) { return o.dir == info.fileName(); }))
            return {};
    }
    return group;
}

std::optional<ServerComparison> readServerComparison(
    const QString& groupDir, const QStringList& runDirs, QString* error)
{
    const QString path = QDir(groupDir).filePath(u"matrix.json"_s);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = phrase("ServerSweep", "%1: cannot read: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(16 << 20), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        if (error)
            *error = phrase("ServerSweep", "%1: not a JSON object: %2").arg(path, parseError.errorString());
        return std::nullopt;
    }
    std::vector<ServerRunOutcome> outcomes;
    for (const ServerRunOutcome& o : serverOutcomesFromJson(document.object())) {
        const bool asked = runDirs.isEmpty() || std::any_of(runDirs.begin(), runDirs.end(), [&](const QString& dir) {
            return QFileInfo(dir).fileName() == o.dir;
        });
        if (asked)
            outcomes.push_back(o);
    }
    ServerComparison comparison = compareServerRuns(groupDir, outcomes);
    const auto measured = std::count_if(
        comparison.runs.begin(), comparison.runs.end(), [](const ServerRunFigures& r) { return r.measured; });
    if (measured > 1)
        addTwinCheck(groupDir, comparison);
    return comparison;
}

int configurationOf(const ServerComparison& comparison, const QString& runDir)
{
    const QString name = QFileInfo(runDir).fileName();
    for (int i = 0; i < int(comparison.runs.size()); ++i) {
        if (comparison.runs[std::size_t(i)].outcome.dir == name)
            return i;
    }
    return -1;
}

void nameRunsByConfiguration(std::vector<SavedRun>& runs, const ServerComparison& comparison)
{
    for (SavedRun& run : runs) {
        const int i = configurationOf(comparison, run.dir);
        if (i >= 0)
            run.name = comparison.runs[std::size_t(i)].outcome.combination.label();
    }
}

QString serverComparisonText(const ServerComparison& c)
{
    const bool perGpu = c.unit == ParetoUnit::Gpu;
    QString text = u"%1  %2  %3  %4  %5  %6  %7  %8\n"_s.arg(phrase("ServerSweep", "configuration"), -36)
                       .arg(phrase("ServerSweep", "knee"), 8)
                       .arg(phrase("ServerSweep", "SLO capacity"), 12)
                       .arg(phrase("ServerSweep", "per GPU"), 8)
                       .arg(phrase("ServerSweep", "peak req/s"), 10)
                       .arg(perGpu ? phrase("ServerSweep", "best tok/s/GPU") : phrase("ServerSweep", "best tok/s"), 14)
                       .arg(phrase("ServerSweep", "front"), 5)
                       .arg(phrase("ServerSweep", "state"));
    for (int i = 0; i < int(c.runs.size()); ++i) {
        const ServerRunFigures& r = c.runs[std::size_t(i)];
        QString state = r.outcome.state;
        if (i == c.best)
            state += phrase("ServerSweep", ", best");
        text += u"%1  %2  %3  %4  %5  %6  %7  %8\n"_s.arg(r.outcome.combination.label(), -36)
                    .arg(cell(r.knee), 8)
                    .arg(cell(r.sloCapacity, 1, r.sloCapacityLowerBound), 12)
                    .arg(cell(r.sloCapacityPerGpu, 2), 8)
                    .arg(cell(r.peakThroughput), 10)
                    .arg(cell(r.bestPerUnit, 0), 14)
                    .arg(r.measured ? QString::number(r.onGroupFront) : u"—"_s, 5)
                    .arg(state);
        if (!r.outcome.error.isEmpty())
            text += u"    %1\n"_s.arg(r.outcome.error);
    }
    text += c.bestSentence + u'\n';
    if (c.twinSource >= 0) {
        const ServerRunFigures& source = c.runs[std::size_t(c.twinSource)];
        text += phrase("ServerSweep", "The twin fitted on %1, set to each other configuration's parameters:\n")
                    .arg(source.outcome.combination.label());
        for (int i = 0; i < int(c.runs.size()); ++i) {
            const ServerRunFigures& r = c.runs[std::size_t(i)];
            if (i == c.twinSource || !r.measured)
                continue;
            const std::optional<double> measured = c.hasSlo ? r.sloCapacity : r.knee;
            if (!r.twinPredicted) {
                text += u"  %1: %2\n"_s.arg(r.outcome.combination.label(), r.twinNote);
                continue;
            }
            text += phrase("ServerSweep", "  %1: %2 %3 predicted, %4 measured (%5)\n")
                        .arg(r.outcome.combination.label(),
                            c.hasSlo ? phrase("ServerSweep", "SLO capacity") : phrase("ServerSweep", "knee"),
                            loadText(*r.twinPredicted, r.concurrencyMode),
                            measured ? loadText(*measured, r.concurrencyMode) : u"—"_s,
                            r.twinError ? phrase("ServerSweep", "error %1%")
                                              .arg((*r.twinError >= 0 ? u"+"_s : QString())
                                                  + QString::number(*r.twinError * 100, 'f', 0))
                                        : u"—"_s);
        }
    } else if (!c.twinNote.isEmpty()) {
        text += phrase("ServerSweep", "No twin check: %1.\n").arg(c.twinNote);
    }
    return text;
}

} // namespace kp
