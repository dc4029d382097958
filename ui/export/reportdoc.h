#pragma once

#include <QByteArray>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

namespace kp::ui {

struct ReportTable
{
    QStringList header;
    QList<QStringList> rows;
    QList<bool> numeric; // per column: right-aligned
};

// A report as a list of blocks, written out as self-contained HTML, Markdown (images beside it) or PDF.
// The run report and the comparison report are built with it, so the three formats say the same.
class ReportDoc
{
public:
    enum class ImageMode {
        DataUri, // <img src="data:image/png;base64,...">: one file that needs nothing else
        Resource, // <img src="NAME">: for QTextDocument, which gets the images as resources
    };

    explicit ReportDoc(QString title);

    void heading(int level, const QString& text); // 2 or 3; the title is level 1
    void paragraph(const QString& text);
    void bullets(const QStringList& items);
    void table(const ReportTable& table);
    void keyValues(const QList<std::pair<QString, QString>>& rows); // a two-column table without header
    void code(const QString& text, const QString& label = {}); // label: collapsible in HTML
    // name: the file name in Markdown ("report-latency.png"); size: the logical size the PNG was drawn at.
    void image(const QString& name, const QString& alt, const QByteArray& png, QSize size);

    const QString& title() const { return m_title; }
    QByteArray html(ImageMode mode = ImageMode::DataUri) const;
    // images: (file name, PNG) to be written beside the Markdown file.
    QByteArray markdown(std::vector<std::pair<QString, QByteArray>>* images) const;
    QByteArray pdf() const;

    // Text for HTML: escaped, and "://" written as "&#58;//", so that no text reads as a reference to
    // fetch and the file names no network address even in the target's URL.
    static QString htmlText(const QString& text);
    static QString markdownCell(const QString& text);

private:
    struct Block
    {
        enum Kind { Heading, Paragraph, Bullets, Table, Code, Image } kind = Paragraph;
        int level = 2;
        QString text;
        QString label;
        QStringList items;
        ReportTable table;
        QByteArray png;
        QSize size;
        bool keyValue = false;
    };
    Block& add(Block::Kind kind); // a new block at the end
    QString m_title;
    std::vector<Block> m_blocks;
};

} // namespace kp::ui
