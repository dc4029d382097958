#pragma once

#include "run/stepreport.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;
QT_END_NAMESPACE

namespace kp::ui {

class ErrorsModel;
class HistogramChart;

// One step in full: the reference's summary block, its latency histograms and its failures.
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

private:
    int m_stepIndex = -1;
    QLabel* m_header;
    QTabWidget* m_tabs;
    QPlainTextEdit* m_summary;
    HistogramChart* m_histogram;
    ErrorsModel* m_failures;
    QTableView* m_failureView;
};

} // namespace kp::ui
