#include "kit/chartpanel.h"

#include "kit/chartstyle.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetrics>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLocale>
#include <QScatterSeries>
#include <QVBoxLayout>

#include <algorithm>

namespace kp::ui {

ChartPanel::ChartPanel(const QString& title, QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_title(new QLabel(title, this))
    , m_placeholder(new QLabel(m_view))
    , m_controls(new QHBoxLayout)
{
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setShowToolTips(true); // a label cut short beside the plot shows whole on hover
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setFrameShape(QFrame::NoFrame);
    // Room for a readable plot under the legend and the axis titles, which are lines of the window's
    // language: a line of its script is measured (CJK lines are taller than Latin ones), or the
    // axis labels are elided to "…" in a small chart.
    const int line
        = QFontMetrics(m_view->font()).boundingRect(QLocale().nativeLanguageName() + QLatin1String("Ag")).height();
    m_view->setMinimumSize(220, std::max(160, 10 * line));
    m_view->installEventFilter(this);
    // The legend's fit is looked at again whenever the scene changed: a resize, a series added or renamed
    // (which changes the legend without moving the plot). Coalesced: the check is cheap, but a scene changes often.
    m_legendCheck.setSingleShot(true);
    m_legendCheck.setInterval(0);
    connect(&m_legendCheck, &QTimer::timeout, this, &ChartPanel::fitLegend);
    connect(m_chart->scene(), &QGraphicsScene::changed, &m_legendCheck, [this] { m_legendCheck.start(); });
    connect(m_chart, &QChart::plotAreaChanged, this, [this] {
        ChartStyle::refitVerticalAxes(m_chart);
        placePlaceholder();
    });

    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_placeholder->setForegroundRole(QPalette::PlaceholderText);
    m_placeholder->hide();

    auto* header = new QHBoxLayout;
    header->setContentsMargins(6, 2, 6, 0);
    header->setSpacing(8);
    header->addWidget(m_title);
    header->addStretch(1);
    m_controls->setSpacing(6);
    header->addLayout(m_controls);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_view, 1);
}

QString ChartPanel::title() const
{
    return m_title->text();
}

void ChartPanel::setTitle(const QString& title)
{
    m_title->setText(title);
}

void ChartPanel::setPlaceholder(const QString& text)
{
    m_placeholder->setText(text);
    m_placeholder->setVisible(!text.isEmpty());
    placePlaceholder();
}

QString ChartPanel::placeholder() const
{
    return m_placeholder->isVisibleTo(m_view) ? m_placeholder->text() : QString();
}

void ChartPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        restyle();
    QWidget::changeEvent(event);
}

bool ChartPanel::eventFilter(QObject* watched, QEvent* event)
{
    // The filter runs before the view's own resize, which lays the chart out again: place the text
    // once that is done.
    if (watched == m_view && event->type() == QEvent::Resize)
        QMetaObject::invokeMethod(this, &ChartPanel::placePlaceholder, Qt::QueuedConnection);
    return QWidget::eventFilter(watched, event);
}

void ChartPanel::placePlaceholder()
{
    // Over the plot, clear of the axes' labels; before the first layout, over the middle of the view.
    const QRectF plot = m_chart->plotArea();
    QRect area = m_view->rect().adjusted(40, 20, -40, -40);
    if (plot.width() > 40 && plot.height() > 20)
        area = m_view->mapFromScene(m_chart->mapToScene(plot)).boundingRect().adjusted(6, 4, -6, -4);
    m_placeholder->setGeometry(area);
    m_placeholder->raise();
}

void ChartPanel::fitLegend()
{
    QLegend* legend = m_chart->legend();
    if (!legend->isVisible())
        return;
    // The row's width as Qt lays it out, measured against Qt 6.4's cuts: per entry its label, about one line's
    // height for its marker and gaps (a scatter series' marker at its own size besides), and three lines' height
    // of margins.
    const QFontMetrics metrics(legend->font());
    const double line = metrics.height();
    double row = 3 * line;
    for (QLegendMarker* marker : legend->markers()) {
        if (!marker->isVisible() || marker->label().isEmpty())
            continue;
        row += metrics.horizontalAdvance(marker->label()) + 1.1 * line;
        if (const auto* scatter = qobject_cast<const QScatterSeries*>(marker->series()))
            row += scatter->markerSize();
    }
    const Qt::Alignment wanted = row > m_chart->size().width() ? Qt::AlignRight : Qt::AlignBottom;
    if (legend->alignment() != wanted)
        legend->setAlignment(wanted);
}

} // namespace kp::ui
