// kneepoint-cli runs: the saved runs under the data directory, newest first.
#include "cli.h"
#include "cliverbs.h"

#include "metrics/jsonvalues.h"
#include "runs/runcatalog.h"
#include "sweep/analysiswords.h"
#include "sweep/kneeanalysis.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace kp::cli {

namespace {

const char* const kRunsUsage = R"(Usage: kneepoint-cli runs [--data-dir DIR] [--json]

Lists the saved runs, newest first: date, id, name, target, model, steps, knee, SLO capacity, tags
and status (finished, stopped, failed, or interrupted for a run whose process ended mid-sweep).
Runs live under $XDG_DATA_HOME/Kneepoint/Kneepoint/runs, the directory the desktop application
lists, unless --data-dir says otherwise. A run's id or name is what RUN arguments of other
commands accept.)";

QString loadText(const std::optional<double>& load, const QString& unit)
{
    if (!load)
        return QStringLiteral("-");
    return loadWord(*load, unit == QLatin1String("users"));
}

QString clip(const QString& text, int width)
{
    return text.size() <= width ? text : text.left(width - 1) + QChar(0x2026);
}

} // namespace

int runRuns(const QStringList& arguments)
{
    QCommandLineParser p;
    const QCommandLineOption dataDir(
        QStringLiteral("data-dir"), QStringLiteral("Runs directory."), QStringLiteral("DIR"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("One JSON array on stdout."));
    p.addOptions({ dataDir, json });
    if (const std::optional<int> exit = parseVerbOptions(p, arguments, kRunsUsage))
        return *exit;
    if (!p.positionalArguments().isEmpty()) {
        say(QStringLiteral("error: unexpected argument \"%1\"").arg(p.positionalArguments().constFirst()));
        return ExitBadInput;
    }
    const RunCatalog catalog(p.isSet(dataDir) ? p.value(dataDir) : defaultRunsDirectory());
    QStringList warnings;
    const std::vector<RunEntry> entries = catalog.list(&warnings);
    for (const QString& w : warnings)
        say(QStringLiteral("warning: %1").arg(w));

    if (p.isSet(json)) {
        QJsonArray array;
        for (const RunEntry& e : entries) {
            QJsonObject o;
            o.insert(QLatin1String("id"), e.id);
            o.insert(QLatin1String("name"), e.name);
            o.insert(QLatin1String("dir"), e.dir);
            o.insert(QLatin1String("created"), e.created.toString(Qt::ISODate));
            o.insert(QLatin1String("target"), e.target);
            o.insert(QLatin1String("model"), e.model);
            o.insert(QLatin1String("source"), e.source);
            o.insert(QLatin1String("status"), e.status);
            o.insert(QLatin1String("predicted"), e.predicted);
            o.insert(QLatin1String("steps"), e.stepCount);
            o.insert(QLatin1String("load_unit"), e.loadUnit);
            o.insert(QLatin1String("knee"), jsonvalues::numberOrText(e.knee));
            o.insert(QLatin1String("slo_capacity"), jsonvalues::numberOrText(e.sloCapacity));
            o.insert(QLatin1String("tags"), QJsonArray::fromStringList(e.tags));
            array.append(o);
        }
        writeOut(QJsonDocument(array).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    if (entries.empty()) {
        say(QStringLiteral("no runs in %1").arg(catalog.root()));
        return ExitOk;
    }
    QList<QStringList> rows;
    rows << QStringList { QStringLiteral("DATE"), QStringLiteral("ID"), QStringLiteral("NAME"),
        QStringLiteral("TARGET"), QStringLiteral("MODEL"), QStringLiteral("STEPS"), QStringLiteral("KNEE"),
        QStringLiteral("SLO CAPACITY"), QStringLiteral("TAGS"), QStringLiteral("STATUS") };
    for (const RunEntry& e : entries) {
        rows << QStringList { e.created.toString(QStringLiteral("yyyy-MM-dd HH:mm")), e.id, clip(e.name, 32),
            clip(e.target, 40), clip(e.model, 32), QString::number(e.stepCount), loadText(e.knee, e.loadUnit),
            loadText(e.sloCapacity, e.loadUnit), e.tags.join(QLatin1Char(',')),
            e.predicted                                  ? QStringLiteral("%1 (predicted, not measured)").arg(e.status)
                : e.source == QLatin1String("kneepoint") ? e.status
                                                         : QStringLiteral("%1 (%2)").arg(e.status, e.source) };
    }
    QList<int> widths(rows.constFirst().size(), 0);
    for (const QStringList& row : rows)
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], int(row[c].size()));
    QByteArray text;
    for (const QStringList& row : rows) {
        QString line;
        for (qsizetype c = 0; c < row.size(); ++c)
            line += c + 1 == row.size() ? row[c] : row[c].leftJustified(widths[c] + 2);
        text += line.trimmed().toUtf8() + '\n';
    }
    writeOut(text);
    say(QStringLiteral("%1 runs in %2").arg(entries.size()).arg(catalog.root()));
    return ExitOk;
}

} // namespace kp::cli
