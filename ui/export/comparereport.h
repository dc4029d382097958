#pragma once

#include "export/reportdoc.h"
#include "export/runreport.h"
#include "runs/comparison.h"
#include "serve/servercomparison.h"

#include <QByteArray>
#include <QString>

#include <utility>
#include <vector>

namespace kp::ui {

// The report of a comparison: the runs, their curves overlaid (the chosen metric and throughput), the
// knee, saturation and SLO capacity side by side, the deltas against the baseline at equal offered
// load, and the settings and environment that differ. HTML (self-contained), Markdown (charts beside
// it), PDF; CSV and JSON are the comparison's own (comparisonCsv, comparisonJson).
class CompareReport
{
public:
    CompareReport(const std::vector<SavedRun>* runs, const Comparison* comparison);
    // The runs are one server sweep's: its configurations' table and best sentence come first, and the
    // twin fitted on one of them is drawn dashed beside the others. Not owned; nullptr: none.
    void setServerComparison(const ServerComparison* group) { m_group = group; }

    ReportDoc document(const QString& imageStem = QStringLiteral("compare")) const;
    bool write(ReportFormat format, const QString& path, QString* error) const;

    ReportTable runsTable() const;
    ReportTable findingsTable() const;
    ReportTable deltasTable() const;
    ReportTable differencesTable() const;
    QString title() const;
    // A server sweep's configurations side by side: state, knee, SLO capacity, per GPU, peak throughput, the
    // best output tok/s of its front, its points on the group's front, and the twin's prediction with its
    // error.
    static ReportTable serverTable(const ServerComparison& group);

private:
    const std::vector<SavedRun>* m_runs;
    const Comparison* m_comparison;
    const ServerComparison* m_group = nullptr;
};

} // namespace kp::ui
