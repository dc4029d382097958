#include "runs/runcatalog.h"

#include "metrics/boundedread.h"
#include "metrics/phrase.h"
#include "runs/savedrun.h"
#include "store/rundocument.h"
#include "store/runwriter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>
#include <functional>

namespace kp {

namespace {

const QLatin1String kTrash(".trash");
const QLatin1String kOriginSuffix(".origin");

std::optional<double> offeredOf(const QJsonValue& finding)
{
    if (!finding.isObject())
        return std::nullopt;
    const QJsonValue v = finding.toObject().value(u"offered");
    if (v.isDouble())
        return v.toDouble();
    if (v.isString())
        return parseRate(v.toString());
    return std::nullopt;
}

// Reads run.json, lets `edit` change it, writes it back atomically.
bool editRunJson(const QString& dir, const std::function<void(RunDocument&)>& edit, QString* error)
{
    const QString path = QDir(dir).filePath(QStringLiteral("run.json"));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = phrase("RunCatalog", "%1: cannot read: %2").arg(path, f.errorString());
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    f.close();
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = phrase("RunCatalog", "%1: not a run file: %2")
                     .arg(path,
                         parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                      : phrase("RunCatalog", "expected an object"));
        return false;
    }
    RunDocumentRead read = parseRunDocument(doc.object(), path);
    if (!read.ok()) {
        *error = read.error;
        return false;
    }
    edit(*read.document);
    return writeRunDocument(path, *read.document, error);
}

bool isRunDirectory(const QString& dir)
{
    return QFileInfo(QDir(dir).filePath(QStringLiteral("run.json"))).isFile();
}

} // namespace

namespace {

// analysis.json of a run directory; empty when absent or unreadable.
QJsonObject readAnalysis(const QString& dir)
{
    const std::optional<QByteArray> data
        = readBoundedFile(QDir(dir).filePath(QStringLiteral("analysis.json")), kMaxResultFileBytes, nullptr);
    return data ? QJsonDocument::fromJson(*data).object() : QJsonObject();
}

// Whether it says where the knee is (found or not) on which axis: a catalogue line needs no more.
bool answersLine(const QJsonObject& analysis)
{
    return analysis.contains(u"knee") && !analysis.value(u"load_unit").toString().isEmpty();
}

RunEntry entryFor(const SavedRun& run, const QJsonObject& analysis);

} // namespace

RunEntry runEntry(const SavedRun& run)
{
    return entryFor(run, readAnalysis(run.dir));
}

namespace {

RunEntry entryFor(const SavedRun& run, const QJsonObject& analysis)
{
    RunEntry e;
    e.dir = run.dir;
    e.id = run.id;
    e.name = run.name;
    e.target = run.target();
    e.model = run.model();
    e.status = run.status;
    e.source = run.source;
    e.predicted = run.predicted();
    e.created = run.created;
    e.tags = run.tags;
    e.notes = run.notes;
    e.stepCount = int(run.steps.size());
    if (!analysis.isEmpty() && analysis.contains(u"knee")) {
        e.knee = offeredOf(analysis.value(u"knee"));
        e.sloCapacity = offeredOf(analysis.value(u"slo_capacity"));
        e.sloCapacityLowerBound
            = analysis.value(u"slo_capacity").toObject().value(QLatin1String("lower_bound")).toBool();
        e.loadUnit = analysis.value(u"load_unit").toString();
    } else {
        const AnalysisResult result = run.analyze();
        if (result.knee)
            e.knee = result.knee.offered;
        if (result.sloCapacity) {
            e.sloCapacity = result.sloCapacity.offered;
            e.sloCapacityLowerBound = result.sloCapacity.lowerBound;
        }
        e.loadUnit = result.concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s");
    }
    if (e.loadUnit.isEmpty()) {
        const auto points = run.sweepPoints();
        e.loadUnit
            = !points.empty() && points.front().concurrencyMode ? QStringLiteral("users") : QStringLiteral("req/s");
    }
    return e;
}

} // namespace

RunCatalog::RunCatalog(QString root)
    : m_root(QDir::cleanPath(QFileInfo(root).absoluteFilePath()))
{ }

const QString& RunCatalog::root() const
{
    return m_root;
}

std::vector<RunEntry> RunCatalog::list(QStringList* warnings) const
{
    std::vector<RunEntry> entries;
    const QDir root(m_root);
    for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        if (name.startsWith(QLatin1Char('.')))
            continue;
        const QString dir = root.filePath(name);
        auto add = [&](const QString& runDir, const QString& group) {
            // run.json and analysis.json tell a finished run's line; the steps' files are read only for
            // a run still being written (or killed while it was), or one without an analysis.
            const QJsonObject analysis = readAnalysis(runDir);
            SavedRunRead read = readSavedRun(runDir, SavedRunDepth::RunJson);
            if (read.ok()
                && (read.run->status == QLatin1String("running") || read.run->status == QLatin1String("interrupted")
                    || !answersLine(analysis)))
                read = readSavedRun(runDir);
            if (!read.ok()) {
                if (warnings)
                    *warnings << read.error;
                return;
            }
            if (warnings)
                *warnings << read.run->warnings;
            RunEntry entry = entryFor(*read.run, analysis);
            if (!group.isEmpty()) {
                entry.group = group;
                entry.id = group + QLatin1Char('/') + entry.id;
            }
            entries.push_back(entry);
        };
        if (isRunDirectory(dir)) {
            add(dir, QString());
        } else if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("matrix.json")))) {
            // A matrix keeps its runs together, one sub-directory each.
            const QDir matrix(dir);
            for (const QString& sub : matrix.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
                if (isRunDirectory(matrix.filePath(sub)))
                    add(matrix.filePath(sub), name);
            }
        }
    }
    std::stable_sort(entries.begin(), entries.end(), [](const RunEntry& a, const RunEntry& b) {
        if (a.created != b.created)
            return a.created > b.created;
        return a.id > b.id;
    });
    return entries;
}

std::optional<QString> RunCatalog::resolve(const QString& run, QString* error) const
{
    if (run.isEmpty()) {
        *error = phrase("RunCatalog", "no run given (an id, a name or a directory)");
        return std::nullopt;
    }
    // A directory path: anything with a separator, or a directory that exists here.
    const QFileInfo asPath(run);
    const bool looksLikePath = run.contains(QLatin1Char('/')) || run.startsWith(QLatin1Char('.'));
    if (asPath.isDir() && (looksLikePath || !QFileInfo(QDir(m_root).filePath(run)).isDir())) {
        if (!isRunDirectory(run)) {
            *error = phrase("RunCatalog", "%1: not a run directory (no run.json)").arg(run);
            return std::nullopt;
        }
        return QDir::cleanPath(asPath.absoluteFilePath());
    }
    if (looksLikePath) {
        *error = phrase("RunCatalog", "%1: no such run directory").arg(run);
        return std::nullopt;
    }
    const QString byId = QDir(m_root).filePath(run);
    if (isRunDirectory(byId))
        return byId;
    // By name, then by the start of an id; each must match one run.
    const std::vector<RunEntry> entries = list();
    QStringList matches;
    for (const RunEntry& e : entries)
        if (e.name == run)
            matches << e.dir;
    if (matches.isEmpty()) {
        for (const RunEntry& e : entries)
            if (e.id.startsWith(run))
                matches << e.dir;
    }
    if (matches.size() == 1)
        return matches.constFirst();
    if (matches.size() > 1) {
        QStringList ids;
        for (const QString& m : matches)
            ids << QFileInfo(m).fileName();
        *error = QStringLiteral("\"%1\" matches %2 runs in %3 (%4): give the id")
                     .arg(run)
                     .arg(matches.size())
                     .arg(m_root, ids.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    *error = phrase("RunCatalog", "no run \"%1\" in %2 (give an id, a name or a run directory)").arg(run, m_root);
    return std::nullopt;
}

bool RunCatalog::rename(const QString& dir, const QString& name, QString* error) const
{
    return editRunJson(
        dir,
        [&](RunDocument& run) {
            if (name.trimmed().isEmpty())
                run.name.reset();
            else
                run.name = name.trimmed();
        },
        error);
}

bool RunCatalog::setTags(const QString& dir, const QStringList& tags, QString* error) const
{
    return editRunJson(
        dir,
        [&](RunDocument& run) {
            QStringList seen;
            for (const QString& tag : tags) {
                const QString t = tag.trimmed();
                if (t.isEmpty() || seen.contains(t))
                    continue;
                seen << t;
            }
            if (seen.isEmpty())
                run.tags.reset();
            else
                run.tags = seen;
        },
        error);
}

bool RunCatalog::setNotes(const QString& dir, const QString& notes, QString* error) const
{
    return editRunJson(
        dir,
        [&](RunDocument& run) {
            if (notes.isEmpty())
                run.notes.reset();
            else
                run.notes = notes;
        },
        error);
}

std::optional<QString> RunCatalog::moveToTrash(const QString& dir, QString* error) const
{
    const QFileInfo info(dir);
    if (!isRunDirectory(dir)) {
        *error = phrase("RunCatalog", "%1: not a run directory (no run.json)").arg(dir);
        return std::nullopt;
    }
    if (RunWriter::isLive(dir)) {
        *error = phrase("RunCatalog", "%1: a sweep is still writing this run; stop it first").arg(dir);
        return std::nullopt;
    }
    const QString source = QDir::cleanPath(info.absoluteFilePath());
    const QDir trash(QDir(m_root).filePath(kTrash));
    if (!trash.mkpath(QStringLiteral("."))) {
        *error = phrase("RunCatalog", "%1: cannot create the trash folder").arg(trash.path());
        return std::nullopt;
    }
    const QString target = uniquePath(trash.filePath(info.fileName()));
    if (!QDir().rename(source, target)) {
        *error = phrase("RunCatalog", "%1: cannot move it to %2").arg(source, target);
        return std::nullopt;
    }
    // Where it came from, for restore (a run opened from elsewhere goes back there).
    QString ignored;
    writeFileAtomically(target + kOriginSuffix, source.toUtf8(), &ignored);
    return target;
}

bool RunCatalog::restore(const QString& trashedDir, QString* error) const
{
    const QString trashed = QDir::cleanPath(QFileInfo(trashedDir).absoluteFilePath());
    if (!isRunDirectory(trashed)) {
        *error = phrase("RunCatalog", "%1: not a run directory in the trash").arg(trashedDir);
        return false;
    }
    QString target;
    QFile origin(trashed + kOriginSuffix);
    if (origin.open(QIODevice::ReadOnly))
        target = QString::fromUtf8(origin.readAll()).trimmed();
    origin.close();
    if (target.isEmpty())
        target = QDir(m_root).filePath(QFileInfo(trashed).fileName());
    if (QFileInfo::exists(target)) {
        *error = phrase("RunCatalog", "%1: cannot restore: %2 exists").arg(trashedDir, target);
        return false;
    }
    if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QDir().rename(trashed, target)) {
        *error = phrase("RunCatalog", "%1: cannot move it back to %2").arg(trashedDir, target);
        return false;
    }
    QFile::remove(trashed + kOriginSuffix);
    return true;
}

} // namespace kp
