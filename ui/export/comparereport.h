#pragma once

#include "export/reportdoc.h"
#include "export/runreport.h"
#include "runs/comparison.h"

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

    ReportDoc document(const QString& imageStem = QStringLiteral("compare")) const;
    bool write(ReportFormat format, const QString& path, QString* error) const;

    ReportTable runsTable() const;
    ReportTable findingsTable() const;
    ReportTable deltasTable() const;
    ReportTable differencesTable() const;
    QString title() const;

private:
    const std::vector<SavedRun>* m_runs;
    const Comparison* m_comparison;
};

} // namespace kp::ui
