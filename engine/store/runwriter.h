#pragma once

#include "metrics/requestrecord.h"

#include <QByteArray>
#include <QFile>
#include <QJsonObject>
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
class RunWriter
{
public:
    RunWriter() = default;
    ~RunWriter();
    RunWriter(const RunWriter&) = delete;
    RunWriter& operator=(const RunWriter&) = delete;

    // Creates the directory (and steps/). Refuses a directory that already holds a run.json.
    bool open(const QString& dir, QString* error);
    const QString& dir() const { return m_dir; }

    bool writeRun(const QJsonObject& run, QString* error);
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
    std::map<int, std::unique_ptr<QFile>> m_requestFiles;
};

// Atomically replaces path with data; on failure the old file is untouched and error names the path.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error);

// One line of steps/NNN.requests.jsonl (no trailing newline). Times in seconds relative to the step start.
QByteArray requestRecordToJson(const RequestRecord& record);

} // namespace kp
