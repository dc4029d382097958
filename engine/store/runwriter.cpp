#include "store/runwriter.h"

#include "metrics/jsontext.h"

#include "metrics/stepmetrics.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QTemporaryFile>

namespace kp {

bool checkWritableDirectory(const QString& dir, QString* error)
{
    // The nearest folder that exists must take a new file; what does not exist yet is made later.
    QFileInfo info(QDir::cleanPath(QDir(dir).absolutePath()));
    while (!info.exists()) {
        const QFileInfo parent(info.absolutePath());
        if (parent.absoluteFilePath() == info.absoluteFilePath())
            break;
        info = parent;
    }
    if (!info.isDir()) {
        if (error)
            *error = QStringLiteral("%1: cannot be a folder: %2 is a file").arg(dir, info.filePath());
        return false;
    }
    QTemporaryFile probe(QDir(info.filePath()).filePath(QStringLiteral(".kneepoint-write-check-XXXXXX")));
    if (!probe.open() || probe.write("x", 1) != 1 || !probe.flush()) {
        if (error)
            *error = QStringLiteral("%1: cannot write in %2: %3").arg(dir, info.filePath(), probe.errorString());
        return false;
    }
    return true;
}

RunWriter::~RunWriter() = default;

namespace {

QString requestsPathIn(const QString& dir, int stepIndex)
{
    return QStringLiteral("%1/steps/%2.requests.jsonl").arg(dir).arg(stepIndex, 3, 10, QLatin1Char('0'));
}

} // namespace

bool RunWriter::open(const QString& dir, QString* error)
{
    QDir d(dir);
    if (d.exists(QStringLiteral("run.json"))) {
        *error = QStringLiteral("%1: already holds a run (run.json); choose another directory").arg(dir);
        return false;
    }
    if (!d.mkpath(QStringLiteral("steps"))) {
        *error = QStringLiteral("%1: cannot create the run directory").arg(dir);
        return false;
    }
    m_dir = QFileInfo(dir).absoluteFilePath();
    m_lock = std::make_unique<QLockFile>(m_dir + QStringLiteral("/run.lock"));
    m_lock->setStaleLockTime(0); // held for the whole sweep: stale only when its process is gone
    if (!m_lock->tryLock(2000)) {
        *error = m_lock->error() == QLockFile::LockFailedError
            ? QStringLiteral("%1: another process is writing a run here (run.lock)").arg(dir)
            : QStringLiteral("%1: cannot create run.lock").arg(dir);
        m_lock.reset();
        m_dir.clear();
        return false;
    }
    // Checked again under the lock: another writer may have held it, written its run and let go while
    // this one waited; two runs must never share one directory's files.
    if (d.exists(QStringLiteral("run.json"))) {
        *error = QStringLiteral("%1: already holds a run (run.json); choose another directory").arg(dir);
        m_lock.reset();
        m_dir.clear();
        return false;
    }
    return true;
}

void RunWriter::close()
{
    m_requests.reset();
    m_lock.reset();
}

bool RunWriter::isLive(const QString& dir)
{
    const QString path = dir + QStringLiteral("/run.lock");
    if (!QFileInfo::exists(path))
        return false;
    QLockFile lock(path);
    lock.setStaleLockTime(0); // never take a live writer's lock for stale because it is old
    if (lock.tryLock(0)) {
        lock.unlock(); // its writer is gone
        return false;
    }
    return lock.error() == QLockFile::LockFailedError;
}

bool RunWriter::writeRun(RunDocument run, QString* error)
{
    const QString path = m_dir + QStringLiteral("/run.json");
    if (m_wroteRun) {
        if (const RunDocumentRead onDisk = readRunDocument(path); onDisk.ok()) {
            run.name = onDisk.document->name;
            run.tags = onDisk.document->tags;
            run.notes = onDisk.document->notes;
        }
    }
    if (!writeRunDocument(path, run, error))
        return false;
    m_wroteRun = true;
    return true;
}

bool RunWriter::writeRun(const QJsonObject& run, QString* error)
{
    RunDocumentRead read = parseRunDocument(run, m_dir + QStringLiteral("/run.json"));
    if (!read.ok()) {
        *error = read.error;
        return false;
    }
    return writeRun(*std::move(read.document), error);
}

QString RunWriter::stepPath(int stepIndex) const
{
    return QStringLiteral("%1/steps/%2.json").arg(m_dir).arg(stepIndex, 3, 10, QLatin1Char('0'));
}

QString RunWriter::requestsPath(int stepIndex) const
{
    return requestsPathIn(m_dir, stepIndex);
}

QString RunWriter::metricsPath(int stepIndex) const
{
    return QStringLiteral("%1/steps/%2.metrics.jsonl").arg(m_dir).arg(stepIndex, 3, 10, QLatin1Char('0'));
}

bool RunWriter::writeMetrics(int stepIndex, const QByteArray& jsonl, QString* error)
{
    return writeFileAtomically(metricsPath(stepIndex), jsonl, error);
}

bool RunWriter::appendRequest(int stepIndex, const RequestRecord& record, QString* error)
{
    if (!m_requests)
        m_requests = std::make_unique<RequestLog>([dir = m_dir](int step) { return requestsPathIn(dir, step); });
    return m_requests->append(stepIndex, record, error);
}

bool RunWriter::flushRequests(QString* error)
{
    return !m_requests || m_requests->sync(-1, error);
}

bool RunWriter::writeStep(int stepIndex, const QByteArray& json, QString* error)
{
    if (m_requests && !m_requests->sync(stepIndex, error))
        return false;
    return writeFileAtomically(stepPath(stepIndex), json, error);
}

// The line a request gets in requests.jsonl: the object QJsonDocument would write (keys in its sorted
// order, numbers and strings as its writer writes them; tst_runs::recordLinesMatchQtsWriter compares
// the two), written directly, without building a QJsonObject of every field and token time first.
QByteArray requestRecordToJson(const RequestRecord& r)
{
    QByteArray out;
    out.reserve(400 + 22 * qsizetype(r.chunkNs.size()) + 3 * (r.requestId.size() + r.model.size())
        + (r.success() ? 0 : 3 * r.errorMessage.size() + 64));
    const auto key = [&out](const char* name) {
        out += out.isEmpty() ? '{' : ',';
        out += '"';
        out += name;
        out += "\":";
    };
    const auto integer = [&](const char* name, qint64 value) {
        key(name);
        out += QByteArray::number(value);
    };
    const auto boolean = [&](const char* name, bool value) {
        key(name);
        out += value ? "true" : "false";
    };
    const auto string = [&](const char* name, QStringView value) {
        key(name);
        appendJsonString(out, value);
    };
    const auto seconds = [&](const char* name, qint64 ns) {
        key(name);
        if (ns < 0)
            out += "null";
        else
            appendJsonNumber(out, double(ns) / 1e9);
    };

    const bool success = r.success();
    if (r.attempts > 1) // the usual single send is left out, to keep the files small
        integer("attempts", r.attempts);
    if (r.cachedTokens >= 0)
        integer("cached_tokens", r.cachedTokens);
    key("chunks");
    out += '[';
    for (std::size_t i = 0; i < r.chunkNs.size(); ++i) {
        if (i > 0)
            out += ',';
        appendJsonNumber(out, double(r.chunkNs[i]) / 1e9);
    }
    out += ']';
    if (r.connectNs >= 0) // a duration; left out for requests on a kept-alive connection
        seconds("connect", r.connectNs);
    seconds("end", r.endNs);
    if (!success) {
        string("error", r.errorMessage);
        string("error_class", failureClassKey(r.failure));
    }
    seconds("first_byte", r.firstByteNs);
    seconds("first_content", r.firstContentNs);
    seconds("first_token", r.firstTokenNs);
    integer("http_status", r.httpStatus);
    integer("index", r.index);
    seconds("last_token", r.lastTokenNs);
    if (r.requestedOutputTokens > 0)
        integer("max_tokens", r.requestedOutputTokens);
    if (!r.model.isEmpty())
        string("model", r.model);
    integer("output_tokens", r.outputTokens);
    boolean("output_tokens_from_usage", r.outputTokensFromUsage);
    integer("prompt_tokens", r.promptTokens);
    if (r.reasoningTokens >= 0)
        integer("reasoning_tokens", r.reasoningTokens);
    string("request_id", r.requestId);
    // What the advice for a failure draws on, so that a reopened run gives the same advice.
    if (const ResponseFacts& f = r.response; !success && !f.isEmpty()) {
        key("response");
        bool first = true;
        const auto field = [&](const char* name) {
            out += first ? "{\"" : ",\"";
            first = false;
            out += name;
            out += "\":";
        };
        if (!f.contentEncoding.isEmpty()) {
            field("content_encoding");
            appendJsonString(out, f.contentEncoding);
        }
        if (f.contextExceeded) {
            field("context_exceeded");
            out += "true";
        }
        if (f.contextLimit) {
            field("context_limit");
            appendJsonNumber(out, double(*f.contextLimit));
        }
        if (!f.location.isEmpty()) {
            field("location");
            appendJsonString(out, f.location);
        }
        if (f.retryAfterS) {
            field("retry_after_s");
            appendJsonNumber(out, *f.retryAfterS);
        }
        out += '}';
    }
    seconds("scheduled", r.scheduledNs);
    seconds("sent", r.sentNs);
    if (r.serverPromptTokens >= 0)
        integer("server_prompt_tokens", r.serverPromptTokens);
    if (r.session >= 0)
        integer("session", r.session);
    boolean("success", success);
    if (r.session >= 0)
        integer("turn", r.turn);
    out += '}';
    return out;
}

} // namespace kp
