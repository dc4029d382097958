#pragma once

#include "metrics/filewrite.h"
#include "metrics/requestrecord.h"
#include "store/requestlog.h"
#include "store/rundocument.h"

#include <QByteArray>
#include <QFileDevice>
#include <QJsonObject>
#include <QLockFile>
#include <QString>

#include <map>
#include <memory>

namespace kp {

// Writes one run directory:
//   run.json                 profile snapshot (secrets removed), plan, environment, status
//   steps/NNN.json           one step's results (vLLM-compatible keys), written atomically
//   steps/NNN.requests.jsonl one RequestRecord per line, appended as requests finish, by a writer
//                            thread (RequestLog) about 50 ms after appendRequest at most
//   steps/NNN.metrics.jsonl  the server's metrics while the step ran, written atomically
// Every write is atomic (writeFileAtomically) or append-only, so a kill at any moment keeps every finished
// step and loses at most the requests in flight and those finished in the last 50 ms (whose lines
// were not written yet; the last line written may be cut).
// Whether dir can be made and written, proved by writing (and removing) a file in the nearest folder
// of its path that exists; nothing is left behind. False with "DIR: cannot be a folder: F is a file"
// or "DIR: cannot write in F: ..." otherwise.
bool checkWritableDirectory(const QString& dir, QString* error);

class RunWriter
{
public:
    RunWriter() = default;
    ~RunWriter();
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    // Creates the directory (and steps/) and holds its run.lock while the writer lives, so that
    // readers tell a run that is still being written from one whose writer died (isLive). Refuses a
    // directory that already holds a run.json.
    bool open(const QString& dir, QString* error);
    const QString& dir() const { return m_dir; }

    // Replaces run.json (writeRunDocument). After the first write, what a person edits in the runs
    // library (name, tags, notes) is taken from the file on disk, so that an edit made while the run
    // is written survives the next step.
    bool writeRun(RunDocument run, QString* error);
    // The same for run.json held as a JSON object: read as a RunDocument first (parseRunDocument),
    // false with its error when it is not one.
    bool writeRun(const QJsonObject& run, QString* error);

    // Writes the requests appended so far, closes the request files and gives up run.lock: the run
    // is complete (before renaming its directory, for instance). The destructor does the same.
    void close();

    // Whether a process that is alive holds the run directory's run.lock: the run is being written.
    static bool isLive(const QString& dir);
    // Hands the record to the writer thread and returns; the line is written about 50 ms later at
    // most. False with "FILE: cannot append: REASON" when an earlier line could not be written.
    bool appendRequest(int stepIndex, const RequestRecord& record, QString* error);
    // Returns once every request appended so far is written; false with a write error not reported yet.
    bool flushRequests(QString* error);
    // Writes the step's requests appended so far and closes its request file first, so that
    // steps/NNN.json lands after every line of its step. False with the request file's error, if one
    // is not reported yet, or the step file's.
    bool writeStep(int stepIndex, const QByteArray& json, QString* error);

    QString stepPath(int stepIndex) const;
    QString requestsPath(int stepIndex) const;
    // steps/NNN.metrics.jsonl: the server's /metrics scraped while the step ran, one sample a line
    // (ServerSample::toJsonLine), written atomically when the step ends.
    QString metricsPath(int stepIndex) const;
    bool writeMetrics(int stepIndex, const QByteArray& jsonl, QString* error);

private:
    QString m_dir;
    std::unique_ptr<QLockFile> m_lock;
    bool m_wroteRun = false;
    std::unique_ptr<RequestLog> m_requests; // after m_lock: drained before the lock goes
};

// One line of steps/NNN.requests.jsonl (no trailing newline). Times in seconds relative to the step start.
QByteArray requestRecordToJson(const RequestRecord& record);

} // namespace kp
