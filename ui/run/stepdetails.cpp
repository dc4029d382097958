#include "run/stepdetails.h"

#include "charts/ttftbreakdownchart.h"
#include "kit/stepstablemodel.h"
#include "kit/uiformat.h"
#include "run/errorsmodel.h"
#include "run/histogramchart.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace kp::ui {

StepDetails::StepDetails(QWidget* parent)
    : QWidget(parent)
    , m_header(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_summary(new QPlainTextEdit(this))
    , m_histogram(new HistogramChart(this))
    , m_failures(new ErrorsModel(this))
    , m_failureView(new QTableView(this))
    , m_lengths(new QTableWidget(this))
    , m_models(new QTableWidget(this))
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
    m_lengths->verticalHeader()->hide();
    m_lengths->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_lengths->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tabs->addTab(m_lengths, tr("By length"));
    m_models->verticalHeader()->hide();
    m_models->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_models->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tabs->addTab(m_models, tr("By model"));
    m_ttft = new QTableWidget(this);
    m_ttft->verticalHeader()->hide();
    m_ttft->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_ttft->setToolTip(tr("Means per step; the server's percentiles (≈) are estimated from its histogram buckets."));
    m_tabs->addTab(m_ttft, tr("TTFT breakdown"));
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
        setLengthBuckets(StepMetrics {});
        setModels(StepMetrics {});
        m_ttft->setRowCount(0);
        return;
    }
    QString header
        = tr("Step %1 · %2 · %3")
              .arg(step->index() + 1)
              .arg(UiFormat::loadText(step->config), StepsTableModel::requestsWord(step->metrics, step->durationS));
    const QStringList flags = StepsTableModel::flagWords(*step);
    if (!flags.isEmpty())
        header += QStringLiteral(" · ") + UiFormat::joined(flags);
    if (step->meetsSlo && !*step->meetsSlo)
        header += QStringLiteral(" (") + step->sloDetail + QStringLiteral(")");
    m_header->setText(header);
    m_summary->setPlainText(step->summary);
    m_failures->setGroups(step->failures);
    m_tabs->setTabText(2,
        isKnown(step->metrics.failed) && step->metrics.failed > 0 ? tr("Failures (%1)").arg(step->metrics.failed)
                                                                  : tr("Failures"));
    setLengthBuckets(step->metrics);
    setModels(step->metrics);
    const QList<QStringList> ttftRows = TtftBreakdownChart::tableRows(*step);
    m_ttft->clear();
    m_ttft->setColumnCount(int(TtftBreakdownChart::tableHeader().size()));
    m_ttft->setHorizontalHeaderLabels(TtftBreakdownChart::tableHeader());
    m_ttft->setRowCount(int(ttftRows.size()));
    for (int r = 0; r < ttftRows.size(); ++r) {
        for (int c = 0; c < ttftRows[r].size(); ++c)
            m_ttft->setItem(r, c, new QTableWidgetItem(ttftRows[r][c]));
    }
    m_ttft->resizeColumnsToContents();
    m_failureView->resizeColumnsToContents();
    m_failureView->setColumnWidth(
        ErrorsModel::Example, std::min(m_failureView->columnWidth(ErrorsModel::Example), std::max(200, width() / 2)));
}

void StepDetails::setLengthBuckets(const StepMetrics& m)
{
    const double p = m.options.percentiles.empty()
        ? 99.0
        : *std::max_element(m.options.percentiles.begin(), m.options.percentiles.end());
    m_lengths->clear();
    m_lengths->setColumnCount(8);
    m_lengths->setHorizontalHeaderLabels({ tr("Prompt tokens"), tr("Requests"), tr("Failed"), tr("Req/s"),
        tr("Mean TTFT (ms)"), tr("P%1 TTFT (ms)").arg(p), tr("Mean TPOT (ms)"), tr("Mean E2EL (ms)") });
    int rows = 0;
    m_lengths->setRowCount(0);
    for (const LengthBucketMetrics& b : m.lengthBuckets) {
        if (b.requests() == 0)
            continue;
        m_lengths->insertRow(rows);
        const QStringList cells { b.label(), QString::number(b.requests()), QString::number(b.failed),
            QString::number(b.requestThroughput, 'f', 2), QString::number(b.ttft.mean, 'f', 1),
            QString::number(b.ttft.percentile(p).value_or(0.0), 'f', 1), QString::number(b.tpot.mean, 'f', 1),
            QString::number(b.e2el.mean, 'f', 1) };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c == 0 ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignRight | Qt::AlignVCenter));
            m_lengths->setItem(rows, c, item);
        }
        ++rows;
    }
    m_lengths->resizeColumnsToContents();
    m_tabs->setTabEnabled(m_tabs->indexOf(m_lengths), rows > 0);
    m_tabs->setTabToolTip(m_tabs->indexOf(m_lengths),
        rows > 0 ? tr("The step's requests by prompt length (workload.length_buckets)")
                 : tr("No prompt-length buckets for this step (workload.length_buckets is empty)"));
}

void StepDetails::setModels(const StepMetrics& m)
{
    m_models->clear();
    m_models->setColumnCount(12);
    m_models->setHorizontalHeaderLabels({ tr("Model"), tr("Requests"), tr("Completed"), tr("Failed"), tr("Req/s"),
        tr("Output tok/s"), tr("Median TTFT (ms)"), tr("P99 TTFT (ms)"), tr("Median TPOT (ms)"), tr("P99 TPOT (ms)"),
        tr("Median E2EL (ms)"), tr("P99 E2EL (ms)") });
    m_models->setRowCount(int(m.perModel.size()));
    const QString unknown = QStringLiteral("\u2014");
    const auto latency = [&](const LatencyStats& s, std::optional<double> value) {
        return s.count != 0 && value ? QString::number(*value, 'f', 1) : unknown;
    };
    for (int row = 0; row < int(m.perModel.size()); ++row) {
        const ModelMetrics& mm = m.perModel[std::size_t(row)];
        const QStringList cells { mm.model, QString::number(mm.requests()), QString::number(mm.completed),
            QString::number(mm.failed), QString::number(mm.requestThroughput, 'f', 2),
            QString::number(mm.outputThroughput, 'f', 1), latency(mm.ttft, mm.ttft.median),
            latency(mm.ttft, mm.ttft.percentile(99)), latency(mm.tpot, mm.tpot.median),
            latency(mm.tpot, mm.tpot.percentile(99)), latency(mm.e2el, mm.e2el.median),
            latency(mm.e2el, mm.e2el.percentile(99)) };
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setTextAlignment(c == 0 ? (Qt::AlignLeft | Qt::AlignVCenter) : (Qt::AlignRight | Qt::AlignVCenter));
            m_models->setItem(row, c, item);
        }
    }
    m_models->resizeColumnsToContents();
    const bool mix = !m.perModel.empty();
    m_tabs->setTabEnabled(m_tabs->indexOf(m_models), mix);
    m_tabs->setTabToolTip(m_tabs->indexOf(m_models),
        mix ? tr("The step's requests by model of the mix (workload.model_mix)")
            : tr("No model mix in this step (workload.model_mix is empty)"));
}

QString StepDetails::summaryText() const
{
    return m_summary->toPlainText();
}

} // namespace kp::ui
