#pragma once

#include "kit/stepreport.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
class QTableWidget;
QT_END_NAMESPACE

namespace kp::ui {

class ErrorsModel;
class HistogramChart;

// One step in full: the reference's summary block, its latency histograms, its failures, its
// metrics by prompt-length bucket and, under a model mix, by model.
class StepDetails : public QWidget
{
    Q_OBJECT
public:
    explicit StepDetails(QWidget* parent = nullptr);

    void setStep(const StepReport* step, double percentile); // nullptr clears it
    int stepIndex() const { return m_stepIndex; }
    QString summaryText() const;
    HistogramChart* histogram() const { return m_histogram; }
    QTabWidget* tabs() const { return m_tabs; }
    QTableWidget* lengthTable() const { return m_lengths; }
    QTableWidget* modelTable() const { return m_models; }

private:
    int m_stepIndex = -1;
    QLabel* m_header;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_summary;
    HistogramChart* m_histogram;
    ErrorsModel* m_failures;
    QTableView* m_failureView;
    QTableWidget* m_lengths; // the step by prompt-length bucket
    void setLengthBuckets(const StepMetrics& metrics);
    QTableWidget* m_models; // the step by model of a mix (workload.model_mix)
    QTableWidget* m_ttft = nullptr; // where TTFT went (TtftBreakdownChart::tableRows)
    void setModels(const StepMetrics& metrics);
};

} // namespace kp::ui
