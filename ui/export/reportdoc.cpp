#include "export/reportdoc.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

namespace kp::ui {

namespace {

const char* const kStyle
    = R"(body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#202020;background:#fff;max-width:1240px;margin:24px auto;padding:0 16px;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #d0d0d0;padding:3px 8px;vertical-align:top}
th{background:#f2f2f2;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}table.kv th{background:none;font-weight:600}
pre{background:#f6f6f6;border:1px solid #e0e0e0;padding:8px;overflow:auto;font-size:.85em}
img{max-width:100%;height:auto;border:1px solid #e6e6e6}details{margin:.3em 0}summary{cursor:pointer}
)";

QString markdownEscape(const QString& text)
{
    QString s = text;
    for (const QChar c : { u'\\', u'*', u'`', u'[', u']', u'<', u'>' })
        s.replace(c, QStringLiteral("\\") + c);
    return s;
}

} // namespace

ReportDoc::ReportDoc(QString title)
    : m_title(std::move(title))
{ }

ReportDoc::Block& ReportDoc::add(Block::Kind kind)
{
    Block& b = m_blocks.emplace_back();
    b.kind = kind;
    return b;
}

void ReportDoc::heading(int level, const QString& text)
{
    Block& b = add(Block::Heading);
    b.level = std::clamp(level, 2, 4);
    b.text = text;
}

void ReportDoc::paragraph(const QString& text)
{
    add(Block::Paragraph).text = text;
}

void ReportDoc::bullets(const QStringList& items)
{
    if (!items.isEmpty())
        add(Block::Bullets).items = items;
}

void ReportDoc::table(const ReportTable& table)
{
    add(Block::Table).table = table;
}

void ReportDoc::keyValues(const QList<std::pair<QString, QString>>& rows)
{
    if (rows.isEmpty())
        return;
    Block& b = add(Block::Table);
    b.keyValue = true;
    b.table.header = { QStringLiteral(" "), QStringLiteral(" ") };
    for (const auto& [key, value] : rows)
        b.table.rows << QStringList { key, value };
}

void ReportDoc::code(const QString& text, const QString& label)
{
    Block& b = add(Block::Code);
    b.text = text;
    b.label = label;
}

void ReportDoc::image(const QString& name, const QString& alt, const QByteArray& png, QSize size)
{
    Block& b = add(Block::Image);
    b.label = name;
    b.text = alt;
    b.png = png;
    b.size = size;
}

QString ReportDoc::htmlText(const QString& text)
{
    QString s = text.toHtmlEscaped();
    s.replace(QStringLiteral("://"), QStringLiteral("&#58;//"));
    return s;
}

QString ReportDoc::markdownCell(const QString& text)
{
    QString s = markdownEscape(text);
    s.replace(u'|', QStringLiteral("\\|"));
    s.replace(u'\n', u' ');
    return s.isEmpty() ? QStringLiteral(" ") : s;
}

QByteArray ReportDoc::html(ImageMode mode) const
{
    const bool qt = mode == ImageMode::Resource;
    QString out;
    // The report is written in the language its phrases were translated to: the catalogue says which.
    const QString lang = QCoreApplication::translate("kp::ui::ReportDoc", "en",
        "the language of reports, as an HTML lang attribute: the BCP 47 tag of this translation");
    out += QStringLiteral("<!DOCTYPE html>\n<html lang=\"%1\">\n<head>\n<meta charset=\"utf-8\">\n")
               .arg(htmlText(lang));
    out += QStringLiteral("<meta name=\"generator\" content=\"Kneepoint\">\n");
    out += QStringLiteral("<title>%1</title>\n").arg(htmlText(m_title));
    if (!qt)
        out += QStringLiteral("<style>\n%1</style>\n").arg(QString::fromUtf8(kStyle));
    out += QStringLiteral("</head>\n<body>\n<h1>%1</h1>\n").arg(htmlText(m_title));
    const QString cellAttributes = qt ? QStringLiteral(" style=\"padding:2px 6px\"") : QString();
    for (const Block& b : m_blocks) {
        switch (b.kind) {
        case Block::Heading:
            out += QStringLiteral("<h%1>%2</h%1>\n").arg(b.level).arg(htmlText(b.text));
            break;
        case Block::Paragraph:
            out += QStringLiteral("<p>%1</p>\n").arg(htmlText(b.text));
            break;
        case Block::Bullets:
            out += QStringLiteral("<ul>\n");
            for (const QString& item : b.items)
                out += QStringLiteral("<li>%1</li>\n").arg(htmlText(item));
            out += QStringLiteral("</ul>\n");
            break;
        case Block::Table: {
            out += qt ? QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">\n")
                      : (b.keyValue ? QStringLiteral("<table class=\"kv\">\n") : QStringLiteral("<table>\n"));
            if (!b.keyValue) {
                out += QStringLiteral("<tr>");
                for (const QString& h : b.table.header)
                    out += QStringLiteral("<th%1>%2</th>").arg(cellAttributes, htmlText(h));
                out += QStringLiteral("</tr>\n");
            }
            for (const QStringList& row : b.table.rows) {
                out += QStringLiteral("<tr>");
                for (qsizetype c = 0; c < row.size(); ++c) {
                    if (b.keyValue && c == 0) {
                        out += QStringLiteral("<th%1>%2</th>").arg(cellAttributes, htmlText(row[c]));
                        continue;
                    }
                    const bool numeric = c < b.table.numeric.size() && b.table.numeric[c];
                    out += numeric ? (qt ? QStringLiteral("<td align=\"right\"%1>%2</td>")
                                         : QStringLiteral("<td class=\"n\"%1>%2</td>"))
                                         .arg(cellAttributes, htmlText(row[c]))
                                   : QStringLiteral("<td%1>%2</td>").arg(cellAttributes, htmlText(row[c]));
                }
                out += QStringLiteral("</tr>\n");
            }
            out += QStringLiteral("</table>\n");
            break;
        }
        case Block::Code:
            if (!b.label.isEmpty() && !qt)
                out += QStringLiteral("<details><summary>%1</summary>\n<pre>%2</pre>\n</details>\n")
                           .arg(htmlText(b.label), htmlText(b.text));
            else {
                if (!b.label.isEmpty())
                    out += QStringLiteral("<p><b>%1</b></p>\n").arg(htmlText(b.label));
                out += QStringLiteral("<pre>%1</pre>\n").arg(htmlText(b.text));
            }
            break;
        case Block::Image:
            if (qt)
                out += QStringLiteral("<p><img src=\"%1\" width=\"%2\" alt=\"%3\"></p>\n")
                           .arg(b.label)
                           .arg(640)
                           .arg(htmlText(b.text));
            else
                out += QStringLiteral("<p><img src=\"data:image/png;base64,%1\" width=\"%2\" alt=\"%3\"></p>\n")
                           .arg(QString::fromLatin1(b.png.toBase64()))
                           .arg(b.size.width())
                           .arg(htmlText(b.text));
            break;
        }
    }
    out += QStringLiteral("</body>\n</html>\n");
    return out.toUtf8();
}

QByteArray ReportDoc::markdown(std::vector<std::pair<QString, QByteArray>>* images) const
{
    QString out = QStringLiteral("# %1\n").arg(markdownEscape(m_title));
    for (const Block& b : m_blocks) {
        out += u'\n';
        switch (b.kind) {
        case Block::Heading:
            out += QString(b.level, u'#') + u' ' + markdownEscape(b.text) + u'\n';
            break;
        case Block::Paragraph:
            out += markdownEscape(b.text) + u'\n';
            break;
        case Block::Bullets:
            for (const QString& item : b.items)
                out += QStringLiteral("- ") + markdownEscape(item) + u'\n';
            break;
        case Block::Table: {
            const QStringList header
                = b.keyValue ? QStringList { QStringLiteral(" "), QStringLiteral(" ") } : b.table.header;
            QStringList cells;
            for (const QString& h : header)
                cells << markdownCell(h);
            out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            cells.clear();
            for (qsizetype c = 0; c < header.size(); ++c) {
                const bool numeric = c < b.table.numeric.size() && b.table.numeric[c];
                cells << (numeric ? QStringLiteral("---:") : QStringLiteral("---"));
            }
            out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            for (const QStringList& row : b.table.rows) {
                cells.clear();
                for (qsizetype c = 0; c < row.size(); ++c)
                    cells << (b.keyValue && c == 0 ? QStringLiteral("**%1**").arg(markdownCell(row[c]))
                                                   : markdownCell(row[c]));
                out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
            }
            break;
        }
        case Block::Code:
            if (!b.label.isEmpty())
                out += markdownEscape(b.label) + QStringLiteral(":\n\n");
            out += QStringLiteral("```\n") + b.text + (b.text.endsWith(u'\n') ? QString() : QStringLiteral("\n"))
                + QStringLiteral("```\n");
            break;
        case Block::Image:
            out += QStringLiteral("![%1](%2)\n")
                       .arg(markdownEscape(b.text), QString::fromLatin1(QUrl::toPercentEncoding(b.label)));
            if (images)
                images->emplace_back(b.label, b.png);
            break;
        }
    }
    return out.toUtf8();
}

QByteArray ReportDoc::pdf() const
{
    QTextDocument doc;
    for (const Block& b : m_blocks) {
        if (b.kind == Block::Image)
            doc.addResource(QTextDocument::ImageResource, QUrl(b.label), QImage::fromData(b.png, "PNG"));
    }
    QFont font = doc.defaultFont();
    font.setPointSizeF(8);
    doc.setDefaultFont(font);
    doc.setHtml(QString::fromUtf8(html(ImageMode::Resource)));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        // Landscape: the sweep table has a column per statistic.
        writer.setPageLayout(QPageLayout(
            QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter));
        writer.setTitle(m_title);
        writer.setCreator(QStringLiteral("Kneepoint"));
        doc.print(&writer);
    }
    return bytes;
}

} // namespace kp::ui
