#pragma once

#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QHBoxLayout;
class QLabel;
QT_END_NAMESPACE

namespace kp::ui {

// A chart with a title row (title on the left, controls on the right) and a placeholder shown over
// the plot while it has nothing to draw. Follows the palette: restyle() runs when it changes.
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(const QString& title, QWidget* parent = nullptr);

    QChart* chart() const { return m_chart; }
    QChartView* view() const { return m_view; }
    QString title() const;
    void setTitle(const QString& title);
    void setPlaceholder(const QString& text); // empty hides it
    QString placeholder() const;

protected:
    QHBoxLayout* controls() const { return m_controls; }
    virtual void restyle() = 0;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void placePlaceholder();
    // The legend under the plot while its entries fit in one row, else beside it: a row too long for
    // the chart cuts its last entries.
    void fitLegend();

    QChart* m_chart;
    QChartView* m_view;
    QLabel* m_title;
    QLabel* m_placeholder;
    QHBoxLayout* m_controls;
    QTimer m_legendCheck;
};

} // namespace kp::ui
