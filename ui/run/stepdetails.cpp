#include "run/stepdetails.h"

#include "run/errorsmodel.h"
#include "run/histogramchart.h"
#include "run/stepstablemodel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace kp::ui {

StepDetails::StepDetails(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(new QPlainTextEdit(this))
    , m_histogram(new HistogramChart(this))
    , m_failures(new ErrorsModel(this))
    , m_failureView(new QTableView(this))
{
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::PlainText);
    m_header->setContentsMargins(4, 2, 4, 2);
    m_summary->setReadOnly(true);
    m_summary->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_summary->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_summary->setPlaceholderText(tr("Select a step to see its summary block."));
    m_failureView->setModel(m_failures);
    m_failureView->verticalHeader()->hide();
    m_failureView->horizontalHeader()->setStretchLastSection(true);
    m_failureView->setWordWrap(false);
    m_failureView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_summary, tr("Summary"));
    m_tabs->addTab(m_histogram, tr("Histogram"));
    m_tabs->addTab(m_failureView, tr("Failures"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_header);
    layout->addWidget(m_tabs, 1);
    setStep(nullptr, 99);
}

void StepDetails::setStep(const StepReport* step, double percentile)
{
    m_stepIndex = step ? step->index() : -1;
    m_histogram->setStep(step, percentile);
    if (!step) {
        m_header->setText(tr("No step selected"));
        m_summary->clear();
        m_failures->setGroups({});
        m_tabs->setTabText(2, tr("Failures"));
        return;
    }
    QString header = tr("Step %1 · %2 · %3 requests in %4 s")
                         .arg(step->index() + 1)
                         .arg(step->load)
                         .arg(step->metrics.completed + step->metrics.failed)
                         .arg(step->durationS, 0, 'f', 1);
    const QStringList flags = StepsTableModel::flagWords(*step);
    if (!flags.isEmpty())
        header += QStringLiteral(" · ") + flags.join(QStringLiteral(", "));
    if (step->meetsSlo && !*step->meetsSlo)
        header += QStringLiteral(" (") + step->sloDetail + QStringLiteral(")");
    m_header->setText(header);
    m_summary->setPlainText(step->summary);
    m_failures->setGroups(step->failures);
    m_tabs->setTabText(2, step->metrics.failed > 0 ? tr("Failures (%1)").arg(step->metrics.failed) : tr("Failures"));
    m_failureView->resizeColumnsToContents();
    m_failureView->setColumnWidth(
        ErrorsModel::Example, std::min(m_failureView->columnWidth(ErrorsModel::Example), std::max(200, width() / 2)));
}

QString StepDetails::summaryText() const
{
    return m_summary->toPlainText();
}

} // namespace kp::ui
