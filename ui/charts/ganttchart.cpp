#include "charts/ganttchart.h"

#include "kit/chartstyle.h"
#include "kit/stepreport.h"
#include "kit/uiformat.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QSpinBox>
#include <QValueAxis>

#include <algorithm>

namespace kp::ui {

namespace {

// Above this many bars the request labels would overlap: the axis then shows none.
constexpr int kMaxLabelledBars = 20;

double seconds(qint64 ns)
{
    return double(ns) / 1e9;
}

} // namespace

GanttChart::GanttChart(QWidget* parent)
    : ChartPanel(tr("Requests of one second"), parent)
    , m_secondBox(new QSpinBox(this))
    , m_series(new QHorizontalStackedBarSeries(chart()))
    , m_offset(new QBarSet(QString(), m_series))
    , m_queued(new QBarSet(tr("waiting to be sent"), m_series))
    , m_waiting(new QBarSet(tr("waiting for the first token"), m_series))
    , m_streaming(new QBarSet(tr("streaming"), m_series))
    , m_failedSet(new QBarSet(tr("failed"), m_series))
    , m_x(new QValueAxis(chart()))
    , m_y(new QBarCategoryAxis(chart()))
{
    QChart* c = chart();
    m_series->append({ m_offset, m_queued, m_waiting, m_streaming, m_failedSet });
    m_series->setBarWidth(0.8);
    c->addSeries(m_series);
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    m_series->attachAxis(m_x);
    m_series->attachAxis(m_y);
    m_x->setLabelFormat(QStringLiteral("%g"));
    m_x->setTitleText(tr("Time in step (s)"));
    m_y->setTitleText(tr("Requests"));
    // The offset only places the bars: no legend entry.
    for (QLegendMarker* marker : c->legend()->markers(m_series)) {
        if (marker->label().isEmpty())
            marker->setVisible(false);
    }

    auto* label = new QLabel(tr("Second"), this);
    m_secondBox->setToolTip(tr("The second of the step whose scheduled requests are drawn (click the timeline to "
                               "pick one)"));
    m_secondBox->setRange(0, 0);
    controls()->addWidget(label);
    controls()->addWidget(m_secondBox);
    connect(m_secondBox, &QSpinBox::valueChanged, this, [this](int value) {
        if (value != m_second) {
            m_second = value;
            redraw();
        }
    });
    GanttChart::restyle(); // this class's own: the object is not fully built yet
    redraw();
}

void GanttChart::setStep(const StepReport* step, int second)
{
    if (step != (m_step ? &*m_step : nullptr)) {
        if (step)
            m_step = *step;
        else
            m_step.reset();
    }
    const int last = step && !step->timeline.isEmpty() ? int(step->timeline.seconds.size()) - 1 : 0;
    m_second = std::clamp(second, 0, last);
    {
        const QSignalBlocker block(m_secondBox);
        m_secondBox->setRange(0, last);
        m_secondBox->setValue(m_second);
    }
    redraw();
}

void GanttChart::setSecond(int second)
{
    setStep(m_step ? &*m_step : nullptr, second);
}

int GanttChart::barCount() const
{
    return int(m_y->count());
}

int GanttChart::failedCount() const
{
    return m_failed;
}

void GanttChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    m_offset->setColor(Qt::transparent);
    m_offset->setBorderColor(Qt::transparent);
    for (auto [set, colour] :
        { std::pair { m_queued, ChartStyle::neutral(pal) }, std::pair { m_waiting, ChartStyle::p99() },
            std::pair { m_streaming, ChartStyle::p50() }, std::pair { m_failedSet, ChartStyle::failure() } }) {
        set->setColor(colour);
        set->setBorderColor(colour);
    }
}

void GanttChart::redraw()
{
    for (QBarSet* set : { m_offset, m_queued, m_waiting, m_streaming, m_failedSet })
        set->remove(0, int(set->count()));
    m_y->clear();
    m_failed = 0;

    std::vector<TimelineRequest> requests;
    qint64 offered = 0;
    if (m_step && m_second < int(m_step->timeline.seconds.size())) {
        requests = m_step->timeline.requestsIn(m_second);
        offered = m_step->timeline.seconds[std::size_t(m_second)].offered;
    }
    // The first scheduled at the top: a category axis counts from the bottom.
    std::reverse(requests.begin(), requests.end());
    double from = m_second, to = m_second + 1.0;
    QStringList categories;
    QList<qreal> offset, queued, waiting, streaming, failed;
    for (const TimelineRequest& r : requests) {
        const qint64 start = r.scheduledNs >= 0 ? r.scheduledNs : r.sentNs;
        const qint64 sent = r.sentNs >= 0 ? r.sentNs : start;
        const qint64 end = std::max(r.endNs, sent);
        const qint64 first = r.failed || r.firstTokenNs < 0 ? end : r.firstTokenNs;
        offset << seconds(start);
        queued << seconds(sent - start);
        waiting << (r.failed ? 0.0 : seconds(first - sent));
        streaming << (r.failed ? 0.0 : seconds(end - first));
        failed << (r.failed ? std::max(seconds(end - sent), 0.002) : 0.0); // a failure at once stays visible
        m_failed += r.failed ? 1 : 0;
        from = std::min(from, seconds(start));
        to = std::max(to, seconds(end));
        categories << QStringLiteral("#%1").arg(r.index);
    }
    m_offset->append(offset);
    m_queued->append(queued);
    m_waiting->append(waiting);
    m_streaming->append(streaming);
    m_failedSet->append(failed);
    m_y->append(categories);
    m_y->setLabelsVisible(categories.size() <= kMaxLabelledBars);
    ChartStyle::setNiceRange(m_x, std::floor(from), to, 5);

    if (m_step)
        setTitle(tr("Step %1 · %2 · requests scheduled in second %3")
                     .arg(m_step->index() + 1)
                     .arg(UiFormat::loadText(m_step->config))
                     .arg(m_second));
    else
        setTitle(tr("Requests of one second"));
    if (!m_step)
        setPlaceholder(tr("Select a finished step, then a second of its timeline."));
    else if (m_step->timeline.isEmpty() && !m_step->noTimeline.isEmpty())
        setPlaceholder(tr("Step %1 has no timeline: %2.").arg(m_step->index() + 1).arg(m_step->noTimeline));
    else if (m_step->timeline.isEmpty())
        setPlaceholder(tr("Step %1 has no request records to draw.").arg(m_step->index() + 1));
    else if (requests.empty())
        setPlaceholder(tr("No request was scheduled in second %1 of step %2.").arg(m_second).arg(m_step->index() + 1));
    else
        setPlaceholder({});
    // More requests than bars: say how many were left out.
    if (offered > qint64(requests.size()) && !requests.empty())
        setTitle(title() + u' ' + tr("(the first %1 of %2)").arg(requests.size()).arg(UiFormat::count(offered)));
}

} // namespace kp::ui
