#include "export/chartexport.h"

#include "kit/chartpanel.h"
#include "kit/chartstyle.h"
#include "metrics/filewrite.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QClipboard>
#include <QFileInfo>
#include <QFontMetrics>
#include <QGraphicsScene>
#include <QImage>
#include <QMimeData>
#include <QPageSize>
#include <QPainter>
#include <QPalette>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextDocument>

namespace kp::ui {

namespace {

constexpr int kMargin = 16;

QFont exportFont(int pixelSize, bool bold = false)
{
    QFont f = QApplication::font();
    f.setPixelSize(pixelSize);
    f.setBold(bold);
    return f;
}

} // namespace

QPalette ChartExport::exportPalette()
{
    QPalette pal = QApplication::palette();
    const QColor white(0xFF, 0xFF, 0xFF);
    const QColor ink(0x20, 0x20, 0x20);
    for (QPalette::ColorGroup group : { QPalette::Active, QPalette::Inactive, QPalette::Disabled }) {
        pal.setColor(group, QPalette::Window, white);
        pal.setColor(group, QPalette::Base, white);
        pal.setColor(group, QPalette::AlternateBase, QColor(0xF4, 0xF4, 0xF4));
        pal.setColor(group, QPalette::Text, ink);
        pal.setColor(group, QPalette::WindowText, ink);
        pal.setColor(group, QPalette::PlaceholderText, QColor(0x70, 0x70, 0x70));
    }
    return pal;
}

void ChartExport::paint(ChartPanel* panel, const ChartCaption& caption, QPainter* painter, QSize size)
{
    const QPalette pal = exportPalette();
    if (panel->palette() != pal)
        panel->setPalette(pal); // the panel restyles its chart on the palette change
    const QColor text = pal.color(QPalette::Text);
    const QColor muted = ChartStyle::neutral(pal);
    const int width = size.width() - 2 * kMargin;

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setRenderHint(QPainter::TextAntialiasing);
    painter->fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));

    int y = kMargin;
    auto line = [&](const QString& words, const QFont& font, const QColor& colour) {
        if (words.isEmpty())
            return;
        const QFontMetrics fm(font);
        painter->setFont(font);
        painter->setPen(colour);
        painter->drawText(QRect(kMargin, y, width, fm.height()), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
            fm.elidedText(words, Qt::ElideRight, width));
        y += fm.height() + 2;
    };
    line(caption.title, exportFont(18, true), text);
    line(caption.subtitle, exportFont(13), muted);

    QTextDocument note;
    qreal noteHeight = 0;
    if (!caption.note.isEmpty()) {
        note.setDefaultFont(exportFont(12));
        note.setDocumentMargin(0);
        note.setHtml(caption.note);
        note.setTextWidth(width);
        noteHeight = note.size().height() + 6;
    }

    const QRectF chartRect(kMargin / 2.0, y + 4.0, size.width() - double(kMargin),
        std::max(50.0, size.height() - (y + 4.0) - noteHeight - kMargin));
    QChart* chart = panel->chart();
    chart->resize(chartRect.size());
    // The chart lays out its axes and legend in posted events; do it before painting.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    chart->scene()->render(painter, chartRect, QRectF(chart->pos(), chart->size()), Qt::IgnoreAspectRatio);
    // What the screen shows over an empty chart ("Every request failed: ..."), the file shows too.
    if (const QString empty = panel->placeholder(); !empty.isEmpty()) {
        painter->setFont(exportFont(16));
        painter->setPen(muted);
        painter->drawText(chartRect.adjusted(40, 40, -40, -40), Qt::AlignCenter | Qt::TextWordWrap, empty);
    }

    if (noteHeight > 0) {
        painter->translate(kMargin, chartRect.bottom() + 6);
        QAbstractTextDocumentLayout::PaintContext context;
        context.palette = pal;
        context.palette.setColor(QPalette::Text, muted);
        note.documentLayout()->draw(painter, context);
    }
    painter->restore();
}

QImage ChartExport::image(ChartPanel* panel, const ChartCaption& caption, QSize size, qreal scale)
{
    scale = std::clamp(scale, 0.25, 8.0);
    QImage img(QSize(qRound(size.width() * scale), qRound(size.height() * scale)), QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(scale);
    img.fill(Qt::white);
    QPainter p(&img);
    paint(panel, caption, &p, size);
    p.end();
    return img;
}

QByteArray ChartExport::png(ChartPanel* panel, const ChartCaption& caption, QSize size, qreal scale)
{
    QImage img = image(panel, caption, size, scale);
    img.setText(QStringLiteral("Title"), caption.title);
    img.setText(QStringLiteral("Description"), caption.subtitle);
    img.setText(QStringLiteral("Software"), QStringLiteral("Kneepoint"));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    img.save(&buffer, "PNG");
    return bytes;
}

QByteArray ChartExport::svg(ChartPanel* panel, const ChartCaption& caption, QSize size)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(caption.title);
    generator.setDescription(caption.subtitle);
    QPainter p(&generator);
    paint(panel, caption, &p, size);
    p.end();
    return bytes;
}

QByteArray ChartExport::pdf(ChartPanel* panel, const ChartCaption& caption, QSize size)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(96); // one logical pixel per device unit
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point, QString(), QPageSize::ExactMatch));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(caption.title);
        writer.setCreator(QStringLiteral("Kneepoint"));
        QPainter p(&writer);
        paint(panel, caption, &p, size);
        p.end();
    }
    return bytes;
}

QByteArray ChartExport::bytes(
    ChartPanel* panel, const ChartCaption& caption, ChartFileFormat format, QSize size, qreal scale)
{
    switch (format) {
    case ChartFileFormat::Png:
        return png(panel, caption, size, scale);
    case ChartFileFormat::Svg:
        return svg(panel, caption, size);
    case ChartFileFormat::Pdf:
        return pdf(panel, caption, size);
    }
    return {};
}

bool ChartExport::write(ChartPanel* panel, const ChartCaption& caption, ChartFileFormat format, const QString& path,
    QSize size, qreal scale, QString* error)
{
    const QByteArray data = bytes(panel, caption, format, size, scale);
    if (data.isEmpty()) {
        if (error)
            *error = QObject::tr("%1: the chart could not be drawn").arg(path);
        return false;
    }
    QString message;
    if (!writeFileAtomically(path, data, &message)) {
        if (error)
            *error = message;
        return false;
    }
    return true;
}

void ChartExport::copyToClipboard(ChartPanel* panel, const ChartCaption& caption, QSize size)
{
    auto* mime = new QMimeData;
    mime->setImageData(image(panel, caption, size, std::max<qreal>(1.0, qApp->devicePixelRatio())));
    mime->setData(QStringLiteral("image/svg+xml"), svg(panel, caption, size));
    QApplication::clipboard()->setMimeData(mime);
}

std::optional<ChartFileFormat> ChartExport::formatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ChartFileFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ChartFileFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ChartFileFormat::Pdf;
    return std::nullopt;
}

QString ChartExport::suffix(ChartFileFormat format)
{
    switch (format) {
    case ChartFileFormat::Png:
        return QStringLiteral("png");
    case ChartFileFormat::Svg:
        return QStringLiteral("svg");
    case ChartFileFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return {};
}

} // namespace kp::ui
