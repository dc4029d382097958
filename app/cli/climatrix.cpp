// A matrix run: `sweep` with several --target and/or --model values runs the same profile against
// each combination, one after another, each into its own run directory, then compares them.
#include "climatrix.h"

#include "cli.h"
#include "cliverbs.h"

#include "metrics/boundedread.h"
#include "runs/runcatalog.h"
#include "store/rundocument.h"
#include "store/runwriter.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <optional>

namespace kp::cli {

namespace {

struct MatrixArguments
{
    QStringList targets;
    QStringList models;
    QString out;
    QString dataDir;
    QStringList rest; // everything else, passed to each sweep as given
};

// Options of `sweep` that take a value, so that their values are not mistaken for options here.
bool takesValue(const QString& option)
{
    static const QStringList flags = { QStringLiteral("refine"), QStringLiteral("no-early-stop"),
        QStringLiteral("ignore-eos"), QStringLiteral("save-result"), QStringLiteral("save-detailed"),
        QStringLiteral("no-preflight"), QStringLiteral("quiet"), QStringLiteral("json"), QStringLiteral("yes"),
        QStringLiteral("help"), QStringLiteral("version"), QStringLiteral("allow-insecure-key"),
        QStringLiteral("allow-high-load"), QStringLiteral("help-all"), QStringLiteral("resume") };
    return !flags.contains(option);
}

MatrixArguments splitArguments(const QStringList& arguments)
{
    MatrixArguments m;
    for (qsizetype i = 2; i < arguments.size(); ++i) {
        const QString& arg = arguments.at(i);
        if (!arg.startsWith(QLatin1String("--"))) {
            m.rest << arg;
            continue;
        }
        QString name = arg.mid(2);
        std::optional<QString> value;
        if (const qsizetype eq = name.indexOf(u'='); eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
        }
        const bool ours = name == QLatin1String("target") || name == QLatin1String("model")
            || name == QLatin1String("out") || name == QLatin1String("data-dir");
        if (!value && takesValue(name) && i + 1 < arguments.size()
            && !arguments.at(i + 1).startsWith(QLatin1String("--")))
            value = arguments.at(++i);
        if (!ours) {
            m.rest << QStringLiteral("--") + name;
            if (value)
                m.rest << *value;
            continue;
        }
        const QString v = value.value_or(QString());
        if (name == QLatin1String("target"))
            m.targets << v;
        else if (name == QLatin1String("model"))
            m.models << v;
        else if (name == QLatin1String("out"))
            m.out = v;
        else
            m.dataDir = v;
    }
    return m;
}

QString slug(const QString& text)
{
    static const QRegularExpression bad(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString s = QString(text).replace(bad, QStringLiteral("_"));
    return s.left(48);
}

std::optional<double> offeredOf(const QJsonObject& analysis, const char* key)
{
    const QJsonValue v = analysis.value(QLatin1String(key));
    if (!v.isObject())
        return std::nullopt;
    const QJsonValue offered = v.toObject().value(QLatin1String("offered"));
    if (!offered.isDouble())
        return std::nullopt;
    return offered.toDouble();
}

// The model a cell's sweep sent: run.json's profile holds it once the preflight has chosen it (the
// target's, the profile's, --model, or the first the server lists). Empty when the sweep wrote no run.
QString modelOfRun(const QString& dir)
{
    const RunDocumentRead read = readRunDocument(QDir(dir).filePath(QStringLiteral("run.json")));
    if (!read.ok() || !read.document->profile)
        return {};
    return read.document->profile->value(QLatin1String("target")).toObject().value(QLatin1String("model")).toString();
}

QString formatLoadValue(std::optional<double> v, bool lowerBound = false)
{
    if (!v)
        return QStringLiteral("-");
    return (lowerBound ? QStringLiteral("≥") : QString()) + QString::number(*v, 'f', *v >= 100 ? 0 : 1);
}

} // namespace

bool isMatrix(const QStringList& arguments)
{
    if (arguments.value(1) != QLatin1String("sweep"))
        return false;
    const MatrixArguments m = splitArguments(arguments);
    return m.targets.size() > 1 || m.models.size() > 1;
}

int runMatrix(const QStringList& arguments)
{
    const MatrixArguments m = splitArguments(arguments);
    for (const QString& t : m.targets) {
        if (t.isEmpty()) {
            say(QStringLiteral("error: --target needs a NAME"));
            return ExitBadInput;
        }
    }
    QString out = m.out;
    if (out.isEmpty()) {
        const QString root = m.dataDir.isEmpty() ? defaultRunsDirectory() : m.dataDir;
        out = QDir(root).filePath(
            QStringLiteral("matrix-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"))));
    }
    if (QFile::exists(QDir(out).filePath(QStringLiteral("matrix.json")))) {
        say(QStringLiteral("error: --out %1 already holds a matrix; choose a new directory").arg(out));
        return ExitBadInput;
    }
    if (!QDir().mkpath(out)) {
        say(QStringLiteral("error: --out: cannot create %1").arg(out));
        return ExitFailure;
    }

    struct Cell
    {
        QString target; // empty: the profile's own
        QString model; // empty: the profile's (or the target's) own
        QString dir;
        int exitCode = -1;
    };
    std::vector<Cell> cells;
    const QStringList targets = m.targets.isEmpty() ? QStringList { QString() } : m.targets;
    const QStringList models = m.models.isEmpty() ? QStringList { QString() } : m.models;
    for (const QString& target : targets) {
        for (const QString& model : models) {
            Cell c { target, model, {}, -1 };
            QString name = QStringLiteral("%1").arg(cells.size() + 1, 2, 10, QLatin1Char('0'));
            if (!target.isEmpty())
                name += u'-' + slug(target);
            if (!model.isEmpty())
                name += u'-' + slug(model);
            c.dir = QDir(out).filePath(name);
            cells.push_back(c);
        }
    }
    say(QStringLiteral("matrix: %1 sweeps, one after another, into %2").arg(cells.size()).arg(out));

    auto writeMatrix = [&](bool interrupted) {
        QJsonArray runs;
        for (const Cell& c : cells) {
            QString model = c.exitCode < 0 ? QString() : modelOfRun(c.dir);
            if (model.isEmpty())
                model = c.model;
            QJsonObject entry { { QStringLiteral("dir"), QDir(out).relativeFilePath(c.dir) },
                { QStringLiteral("target"), c.target.isEmpty() ? QJsonValue() : QJsonValue(c.target) },
                { QStringLiteral("model"), model.isEmpty() ? QJsonValue() : QJsonValue(model) },
                { QStringLiteral("exit_code"), c.exitCode < 0 ? QJsonValue() : QJsonValue(c.exitCode) } };
            QFile file(QDir(c.dir).filePath(QStringLiteral("analysis.json")));
            if (file.open(QIODevice::ReadOnly)) {
                const QJsonObject a = QJsonDocument::fromJson(file.readAll()).object();
                for (const char* key : { "knee", "saturation", "slo_capacity", "recommended" }) {
                    if (const auto v = offeredOf(a, key))
                        entry.insert(QLatin1String(key), *v);
                }
                if (a.value(QLatin1String("slo_capacity")).toObject().value(QLatin1String("lower_bound")).toBool())
                    entry.insert(QStringLiteral("slo_capacity_lower_bound"), true);
                entry.insert(QStringLiteral("peak_throughput"), a.value(QLatin1String("peak_throughput")));
                entry.insert(QStringLiteral("load_unit"), a.value(QLatin1String("load_unit")));
            }
            runs.append(entry);
        }
        const QJsonObject doc { { QStringLiteral("format"), QStringLiteral("kneepoint.matrix/1") },
            { QStringLiteral("status"), interrupted ? QStringLiteral("stopped") : QStringLiteral("finished") },
            { QStringLiteral("runs"), runs } };
        QString error;
        if (!writeFileAtomically(QDir(out).filePath(QStringLiteral("matrix.json")),
                QJsonDocument(doc).toJson(QJsonDocument::Indented), &error))
            say(QStringLiteral("error: %1").arg(error));
        return doc;
    };

    bool interrupted = false;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        Cell& c = cells[i];
        QStringList args = { arguments.value(0), QStringLiteral("sweep") };
        args << m.rest;
        if (!c.target.isEmpty())
            args << QStringLiteral("--target") << c.target;
        if (!c.model.isEmpty())
            args << QStringLiteral("--model") << c.model;
        args << QStringLiteral("--out") << c.dir;
        say(QStringLiteral("\n== matrix %1/%2: target %3, model %4 ==")
                .arg(i + 1)
                .arg(cells.size())
                .arg(c.target.isEmpty() ? QStringLiteral("(the profile's)") : c.target,
                    c.model.isEmpty() ? QStringLiteral("(the target's)") : c.model));
        c.exitCode = run(args);
        writeMatrix(false);
        if (c.exitCode == ExitInterrupted) {
            interrupted = true;
            break;
        }
    }
    const QJsonObject doc = writeMatrix(interrupted);

    // The comparison: knee and SLO capacity side by side.
    QString table = QStringLiteral("\n%1  %2  %3  %4  %5  %6  %7  %8\n")
                        .arg(QStringLiteral("run"), -28)
                        .arg(QStringLiteral("target"), -16)
                        .arg(QStringLiteral("model"), -24)
                        .arg(QStringLiteral("knee"), 8)
                        .arg(QStringLiteral("saturation"), 10)
                        .arg(QStringLiteral("SLO capacity"), 12)
                        .arg(QStringLiteral("peak req/s"), 10)
                        .arg(QStringLiteral("exit"), 4);
    for (const QJsonValue& v : doc.value(QLatin1String("runs")).toArray()) {
        const QJsonObject r = v.toObject();
        auto opt = [&](const char* key) -> std::optional<double> {
            const QJsonValue x = r.value(QLatin1String(key));
            return x.isDouble() ? std::optional<double>(x.toDouble()) : std::nullopt;
        };
        table += QStringLiteral("%1  %2  %3  %4  %5  %6  %7  %8\n")
                     .arg(r.value(QLatin1String("dir")).toString(), -28)
                     .arg(r.value(QLatin1String("target")).toString(QStringLiteral("-")), -16)
                     .arg(r.value(QLatin1String("model")).toString(QStringLiteral("-")), -24)
                     .arg(formatLoadValue(opt("knee")), 8)
                     .arg(formatLoadValue(opt("saturation")), 10)
                     .arg(formatLoadValue(
                              opt("slo_capacity"), r.value(QLatin1String("slo_capacity_lower_bound")).toBool()),
                         12)
                     .arg(formatLoadValue(opt("peak_throughput")), 10)
                     .arg(r.value(QLatin1String("exit_code")).isDouble()
                             ? QString::number(r.value(QLatin1String("exit_code")).toInt())
                             : QStringLiteral("-"),
                         4);
    }
    writeOut(table.toUtf8());
    say(QStringLiteral("matrix: %1").arg(QDir(out).filePath(QStringLiteral("matrix.json"))));

    if (interrupted)
        return ExitInterrupted;
    int worst = ExitOk;
    for (const Cell& c : cells) {
        if (c.exitCode == ExitOk)
            continue;
        if (worst == ExitOk || (worst == ExitSloViolated && c.exitCode != ExitSloViolated))
            worst = c.exitCode;
    }
    return worst;
}

} // namespace kp::cli
