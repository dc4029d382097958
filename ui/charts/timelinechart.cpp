#include "charts/timelinechart.h"

#include "kit/chartstyle.h"
#include "kit/stepreport.h"
#include "kit/uiformat.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QValueAxis>

#include <cmath>
#include <functional>
#include <optional>

namespace kp::ui {

namespace {

constexpr int kLeftSeries = 4;
constexpr int kRightSeries = 2;

struct Curve
{
    const char* name; // translated in the chart's context
    std::function<std::optional<double>(const TimelineSecond&)> value;
    QColor colour;
    Qt::PenStyle style = Qt::SolidLine;
};

std::optional<double> known(double v)
{
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> percent(const std::optional<double>& v)
{
    return v ? std::optional<double>(*v * 100.0) : std::nullopt;
}

struct ViewCurves
{
    std::vector<Curve> left, right;
    const char* leftTitle;
    const char* rightTitle;
};

ViewCurves curvesFor(TimelineChart::View view, const QPalette& pal)
{
    switch (view) {
    case TimelineChart::View::Latency:
        return { { { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "TTFT P50"),
                       [](const TimelineSecond& s) { return known(s.ttftP50Ms); }, ChartStyle::p50() },
                     { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "TTFT P99"),
                         [](const TimelineSecond& s) { return known(s.ttftP99Ms); }, ChartStyle::p99() },
                     { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "ITL P50"),
                         [](const TimelineSecond& s) { return known(s.itlP50Ms); }, ChartStyle::p50(), Qt::DashLine },
                     { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "ITL P99"),
                         [](const TimelineSecond& s) { return known(s.itlP99Ms); }, ChartStyle::p99(), Qt::DashLine } },
            {}, QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "Latency (ms)"), "" };
    case TimelineChart::View::Server:
        return { { { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "server: running"),
                       [](const TimelineSecond& s) { return s.running; }, ChartStyle::achieved() },
                     { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "server: waiting"),
                         [](const TimelineSecond& s) { return s.waiting; }, ChartStyle::slo() } },
            { { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "KV-cache usage"),
                  [](const TimelineSecond& s) { return percent(s.kvUsage); }, ChartStyle::knee(), Qt::DashLine },
                { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "prefix-cache hit rate"),
                    [](const TimelineSecond& s) { return percent(s.prefixCacheHitRate); }, ChartStyle::sloCapacity(),
                    Qt::DashLine } },
            QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "Requests"),
            QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "Percent") };
    case TimelineChart::View::Requests:
        break;
    }
    return { { { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "offered"),
                   [](const TimelineSecond& s) { return double(s.offered); }, ChartStyle::neutral(pal), Qt::DashLine },
                 { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "completed"),
                     [](const TimelineSecond& s) { return double(s.completed); }, ChartStyle::p50() },
                 { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "failed"),
                     [](const TimelineSecond& s) { return double(s.failed); }, ChartStyle::failure() },
                 { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "in flight"),
                     [](const TimelineSecond& s) { return double(s.inFlight); }, ChartStyle::achieved() } },
        { { QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "output tokens/s"),
            [](const TimelineSecond& s) { return s.outputTokens; }, ChartStyle::tokens() } },
        QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "Requests"),
        QT_TRANSLATE_NOOP("kp::ui::TimelineChart", "Output tokens/s") };
}

} // namespace

TimelineChart::TimelineChart(QWidget* parent)
    : ChartPanel(tr("Step timeline"), parent)
    , m_viewBox(new QComboBox(this))
    , m_x(new QValueAxis(chart()))
    , m_y(new QValueAxis(chart()))
    , m_y2(new QValueAxis(chart()))
{
    QChart* c = chart();
    for (QValueAxis* a : { m_x, m_y, m_y2 })
        a->setLabelFormat(QStringLiteral("%g"));
    c->addAxis(m_x, Qt::AlignBottom);
    c->addAxis(m_y, Qt::AlignLeft);
    c->addAxis(m_y2, Qt::AlignRight);
    m_x->setTitleText(tr("Second of the step (s)"));
    for (int i = 0; i < kLeftSeries + kRightSeries; ++i) {
        auto* s = new QLineSeries(c);
        c->addSeries(s);
        s->attachAxis(m_x);
        s->attachAxis(i < kLeftSeries ? m_y : m_y2);
        (i < kLeftSeries ? m_left : m_right).push_back(s);
    }
    c->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);

    for (View v : { View::Requests, View::Latency, View::Server })
        m_viewBox->addItem(viewWord(v), int(v));
    m_viewBox->setToolTip(tr("Which figures of each second to draw"));
    controls()->addWidget(m_viewBox);
    connect(m_viewBox, &QComboBox::currentIndexChanged, this,
        [this](int index) { setView(View(m_viewBox->itemData(index).toInt())); });
    view()->viewport()->installEventFilter(this);
    view()->viewport()->setCursor(Qt::PointingHandCursor);
    TimelineChart::restyle(); // this class's own: the object is not fully built yet
    redraw();
}

QString TimelineChart::viewKey(View view)
{
    switch (view) {
    case View::Requests:
        return QStringLiteral("requests");
    case View::Latency:
        return QStringLiteral("latency");
    case View::Server:
        return QStringLiteral("server");
    }
    return {};
}

QString TimelineChart::viewWord(View view)
{
    switch (view) {
    case View::Requests:
        return tr("Requests and tokens");
    case View::Latency:
        return tr("TTFT and ITL");
    case View::Server:
        return tr("Server");
    }
    return {};
}

void TimelineChart::setStep(const StepReport* step)
{
    if (step)
        m_step = *step;
    else
        m_step.reset();
    redraw();
}

void TimelineChart::setView(View which)
{
    m_view = which;
    const int index = m_viewBox->findData(int(which));
    if (index != m_viewBox->currentIndex()) {
        const QSignalBlocker block(m_viewBox);
        m_viewBox->setCurrentIndex(index);
    }
    restyle();
    redraw();
}

QStringList TimelineChart::seriesNames() const
{
    QStringList names;
    for (const auto* list : { &m_left, &m_right }) {
        for (QLineSeries* s : *list) {
            if (s->isVisible())
                names << s->name();
        }
    }
    return names;
}

int TimelineChart::pointCount(const QString& seriesName) const
{
    for (const auto* list : { &m_left, &m_right }) {
        for (QLineSeries* s : *list) {
            if (s->isVisible() && s->name() == seriesName)
                return int(s->count());
        }
    }
    return -1;
}

void TimelineChart::restyle()
{
    const QPalette pal = palette();
    ChartStyle::apply(chart(), pal);
    const ViewCurves curves = curvesFor(m_view, pal);
    for (int side = 0; side < 2; ++side) {
        const std::vector<Curve>& list = side == 0 ? curves.left : curves.right;
        const std::vector<QLineSeries*>& series = side == 0 ? m_left : m_right;
        for (std::size_t i = 0; i < series.size() && i < list.size(); ++i) {
            ChartStyle::styleLine(series[i], list[i].colour, 2.0, list[i].style);
            series[i]->setPointsVisible(true);
            series[i]->setMarkerSize(5);
        }
    }
}

bool TimelineChart::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == view()->viewport() && event->type() == QEvent::MouseButtonPress && m_step
        && !m_step->timeline.isEmpty()) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QPointF scene = view()->mapToScene(mouse->position().toPoint());
        const QPointF at = chart()->mapFromScene(scene);
        if (chart()->plotArea().contains(at)) {
            const double x = chart()->mapToValue(at, m_left.front()).x();
            const int second = int(std::floor(x + 0.5)); // points sit at the seconds' starts
            if (second >= 0 && second < int(m_step->timeline.seconds.size()))
                Q_EMIT secondClicked(second);
        }
    }
    return ChartPanel::eventFilter(watched, event);
}

void TimelineChart::redraw()
{
    const ViewCurves curves = curvesFor(m_view, palette());
    const std::vector<TimelineSecond> none;
    const std::vector<TimelineSecond>& seconds = m_step ? m_step->timeline.seconds : none;
    double leftMax = 0, rightMax = 0;
    bool any = false;
    for (int side = 0; side < 2; ++side) {
        const std::vector<Curve>& list = side == 0 ? curves.left : curves.right;
        const std::vector<QLineSeries*>& series = side == 0 ? m_left : m_right;
        for (std::size_t i = 0; i < series.size(); ++i) {
            if (i >= list.size()) {
                series[i]->clear();
                series[i]->setVisible(false);
                continue;
            }
            QList<QPointF> points;
            for (const TimelineSecond& s : seconds) {
                if (const std::optional<double> v = list[i].value(s)) {
                    points << QPointF(s.second, *v);
                    (side == 0 ? leftMax : rightMax) = std::max(side == 0 ? leftMax : rightMax, *v);
                }
            }
            any = any || !points.isEmpty();
            series[i]->setName(tr(list[i].name));
            series[i]->replace(points);
            // A figure the step never had (a server without metrics) stays out of the legend.
            series[i]->setVisible(!points.isEmpty());
        }
    }
    m_y->setTitleText(tr(curves.leftTitle));
    m_y2->setTitleText(curves.right.empty() ? QString() : tr(curves.rightTitle));
    m_y2->setVisible(!curves.right.empty());
    // Whole seconds on the x axis: a short step gets a tick per second, a long one round numbers of them.
    const double lastSecond = std::max(1.0, double(seconds.size()) - 1.0);
    if (lastSecond <= 10) {
        m_x->setRange(0, lastSecond);
        m_x->setTickCount(int(lastSecond) + 1);
    } else {
        ChartStyle::setNiceRange(m_x, lastSecond);
    }
    ChartStyle::setNiceRange(m_y, std::max(1.0, leftMax * 1.05), 4);
    ChartStyle::setNiceRange(m_y2, m_view == View::Server ? 100.0 : std::max(1.0, rightMax * 1.05), 4);

    if (m_step)
        setTitle(tr("Step %1 · %2, second by second · %3")
                     .arg(m_step->index() + 1)
                     .arg(UiFormat::loadText(m_step->config), viewWord(m_view)));
    else
        setTitle(tr("Step timeline"));
    if (!m_step)
        setPlaceholder(tr("Select a finished step to see it second by second."));
    else if (seconds.empty() && !m_step->noTimeline.isEmpty())
        setPlaceholder(tr("Step %1 has no timeline: %2.").arg(m_step->index() + 1).arg(m_step->noTimeline));
    else if (seconds.empty())
        setPlaceholder(tr("Step %1 has no request records, so no timeline (a run exported without them, or an "
                          "imported file).")
                           .arg(m_step->index() + 1));
    else if (!any)
        setPlaceholder(m_view == View::Server ? tr("The server's /metrics gave none of these figures for this step.")
                                              : tr("No request of this step completed."));
    else
        setPlaceholder({});
}

} // namespace kp::ui
