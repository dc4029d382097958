#pragma once

#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QFile>
#include <QJsonObject>
#include <QLockFile>
#include <QString>

#include <map>
#include <memory>

namespace kp {

// Writes one run directory:
//   run.json                 profile snapshot (secrets removed), plan, environment, status
//   steps/NNN.json           one step's results (vLLM-compatible keys), written atomically
//   steps/NNN.requests.jsonl one RequestRecord per line, appended and flushed as requests finish
//   steps/NNN.metrics.jsonl  the server's metrics while the step ran, written atomically
// Every write is atomic (QSaveFile) or append-only, so a kill at any moment keeps every finished
// step and loses at most the requests in flight.
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

    // Replaces run.json. After the first write, the keys a person edits in the runs library (name,
    // tags, notes) are taken from the file on disk, so that an edit made while the run is written
    // survives the next step.
    bool writeRun(const QJsonObject& run, QString* error);

    // Closes the request files and gives up run.lock: the run is complete (before renaming its
    // directory, for instance).
    void close();

    // Whether a process that is alive holds the run directory's run.lock: the run is being written.
    static bool isLive(const QString& dir);
    bool appendRequest(int stepIndex, const RequestRecord& record, QString* error);
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
    std::map<int, std::unique_ptr<QFile>> m_requestFiles;
};

// Atomically replaces path with data; on failure the old file is untouched and error names the path.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error);

// One line of steps/NNN.requests.jsonl (no trailing newline). Times in seconds relative to the step start.
QByteArray requestRecordToJson(const RequestRecord& record);

} // namespace kp
