#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>

#include <optional>

QT_BEGIN_NAMESPACE
class QImage;
class QPainter;
class QPalette;
QT_END_NAMESPACE

namespace kp::ui {

class ChartPanel;

// What an exported chart says about itself: a title over the plot ("Load–latency · P99 TTFT"), the run
// it shows ("demo-sim · 2026-11-30 14:02 · built-in simulator"), and the chart's own key under it
// (regions, notes; rich text as the screen shows it).
struct ChartCaption
{
    QString title;
    QString subtitle;
    QString note;
};

enum class ChartFileFormat { Png, Svg, Pdf };

// Charts as files and on the clipboard, drawn by the same chart code as the screen: the panel's QChart
// is laid out at the export size and painted through QPainter onto an image, an SVG or a PDF page,
// with the caption around it. Panels are meant to be made for the export (ChartSet does that): the
// export resizes their chart and gives them the light export palette.
class ChartExport
{
public:
    static constexpr QSize kDefaultSize { 1200, 720 }; // logical pixels; PNG at 2× is 2400 × 1440

    // Light background, dark text: what reports and slides want whatever the desktop's theme.
    static QPalette exportPalette();
    // Paints caption and chart into the rectangle (0, 0, size) of painter's device, in logical pixels.
    static void paint(ChartPanel* panel, const ChartCaption& caption, QPainter* painter, QSize size);

    static QImage image(ChartPanel* panel, const ChartCaption& caption, QSize size = kDefaultSize, qreal scale = 1.0);
    static QByteArray png(ChartPanel* panel, const ChartCaption& caption, QSize size = kDefaultSize, qreal scale = 1.0);
    static QByteArray svg(ChartPanel* panel, const ChartCaption& caption, QSize size = kDefaultSize);
    static QByteArray pdf(ChartPanel* panel, const ChartCaption& caption, QSize size = kDefaultSize);
    static QByteArray bytes(ChartPanel* panel, const ChartCaption& caption, ChartFileFormat format,
        QSize size = kDefaultSize, qreal scale = 1.0);

    // Writes atomically; error names the file.
    static bool write(ChartPanel* panel, const ChartCaption& caption, ChartFileFormat format, const QString& path,
        QSize size, qreal scale, QString* error);
    // The image (at the screen's pixel ratio) and the SVG, so that editors that take vectors get them.
    static void copyToClipboard(ChartPanel* panel, const ChartCaption& caption, QSize size = kDefaultSize);

    // From a file name's suffix: .png, .svg, .pdf.
    static std::optional<ChartFileFormat> formatForPath(const QString& path);
    static QString suffix(ChartFileFormat format); // "png", "svg", "pdf"
};

} // namespace kp::ui
