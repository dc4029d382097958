#pragma once

#include "export/reportdoc.h"
#include "kit/runmeta.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace kp::ui {

class LiveRun;

enum class ReportFormat { Html, Markdown, Pdf, Csv, Json };

// Report formats by name ("html", "md", "pdf", "csv", "json") and by file suffix.
std::optional<ReportFormat> reportFormatFromKey(const QString& key);
std::optional<ReportFormat> reportFormatForPath(const QString& path);

// A copy of a JSON object with every credential-looking value replaced by "<redacted>": keys and header
// names like Authorization, api-key, x-api-key, token, secret, password, cookie. ${VAR} references stay.
QJsonObject redactSecrets(const QJsonObject& object);

// Numbers as reports print them: fixed precision, no grouping, the same on every machine.
namespace ReportNumber {
QString ms(std::optional<double> value); // "0.82", "18.7", "211", "—"
QString rate(double value); // req/s: "9.87", "146.2", "1205"
QString tokens(double value); // tok/s: "2534"
QString load(double value); // "40", "7.5", "inf"
} // namespace ReportNumber

// Everything about one run for a capacity review: the run and its environment (client and server as
// recorded), the profile without secrets, the knee and capacity findings with their reasoning, the
// charts, the sweep table, the errors and each step's summary block. Also the steps table as CSV and
// JSON. Reads the run from a LiveRun (a sweep that just ran, or one opened from disk).
class RunReport
{
public:
    RunReport(const LiveRun* run, RunMeta meta);

    // imageStem names the chart files of a Markdown report: "<stem>-latency.png", "<stem>-throughput.png".
    ReportDoc document(const QString& imageStem = QStringLiteral("chart")) const;
    QByteArray html() const;
    QByteArray markdown(const QString& imageStem, std::vector<std::pair<QString, QByteArray>>* images) const;
    QByteArray pdf() const;
    QByteArray stepsCsv() const;
    QByteArray stepsJson() const;

    // Writes the report atomically; Markdown also writes its charts beside the file. error names the file.
    bool write(ReportFormat format, const QString& path, QString* error) const;

    ReportTable runTable() const;
    ReportTable findingsTable() const;
    ReportTable sweepTable() const;
    // per step, the 95 % confidence intervals of its figures; no rows without intervals
    ReportTable intervalsTable() const;
    ReportTable serverTable() const; // per step, what the server's /metrics said; no rows without telemetry
    // per step, its GPUs and the energy they drew (a GPU exporter's figures); no rows without them
    ReportTable gpuTable() const;
    // "Timeline": every step second by second, or the steps around the knee when there are more than
    // kMaxTimelineSteps; the section says which.
    void timelineSection(ReportDoc& doc, const QString& imageStem) const;
    ReportTable errorsTable() const;
    double percentile() const; // of the analysed latency: the SLO's, else 99

private:
    const LiveRun* m_run;
    RunMeta m_meta;
};

// Writes data to path (writeFileAtomically: a special file such as a FIFO is written, not replaced); error
// names the file.
bool writeExportFile(const QString& path, const QByteArray& data, QString* error);
// Writes a Markdown report and its images beside it.
bool writeMarkdownWithImages(const QString& path, const QByteArray& markdown,
    const std::vector<std::pair<QString, QByteArray>>& images, QString* error);

} // namespace kp::ui
