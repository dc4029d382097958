#include "profilejsoneditor.h"

#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStyle>
#include <QTextBlock>
#include <QVBoxLayout>

namespace kp::ui {

ProfileJsonEditor::ProfileJsonEditor(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    v->setSpacing(4);

    m_note = new QLabel;
    m_note->setObjectName(QStringLiteral("json.note"));
    m_note->setWordWrap(true);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setVisible(false);
    v->addWidget(m_note);

    m_edit = new QPlainTextEdit;
    m_edit->setObjectName(QStringLiteral("json.text"));
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_edit->setTabStopDistance(m_edit->fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    connect(m_edit, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_setting)
            Q_EMIT textEdited();
    });
    v->addWidget(m_edit, 1);

    m_diagnostics = new QListWidget;
    m_diagnostics->setObjectName(QStringLiteral("json.diagnostics"));
    m_diagnostics->setWordWrap(true);
    m_diagnostics->setIconSize(QSize(16, 16));
    m_diagnostics->setVisible(false);
    m_diagnostics->setMaximumHeight(m_diagnostics->fontMetrics().lineSpacing() * 7);
    connect(m_diagnostics, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { jumpTo(item->text()); });
    connect(m_diagnostics, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { jumpTo(item->text()); });
    v->addWidget(m_diagnostics);
}

QString ProfileJsonEditor::text() const
{
    return m_edit->toPlainText();
}

void ProfileJsonEditor::setText(const QString& text)
{
    if (text == m_edit->toPlainText())
        return;
    const int line = m_edit->textCursor().blockNumber();
    const int scroll = m_edit->verticalScrollBar()->value();
    m_setting = true;
    m_edit->setPlainText(text);
    m_setting = false;
    QTextCursor c(m_edit->document()->findBlockByNumber(std::min(line, m_edit->blockCount() - 1)));
    m_edit->setTextCursor(c);
    m_edit->verticalScrollBar()->setValue(scroll);
}

void ProfileJsonEditor::setDiagnostics(const QStringList& errors, const QStringList& warnings)
{
    m_diagnostics->clear();
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const QString& e : errors) {
        auto* item = new QListWidgetItem(errorIcon, e, m_diagnostics);
        item->setData(Qt::UserRole, QStringLiteral("error"));
    }
    for (const QString& w : warnings) {
        auto* item = new QListWidgetItem(warningIcon, w, m_diagnostics);
        item->setData(Qt::UserRole, QStringLiteral("warning"));
    }
    m_diagnostics->setVisible(m_diagnostics->count() > 0);
}

void ProfileJsonEditor::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void ProfileJsonEditor::jumpTo(const QString& diagnostic)
{
    // "name:LINE:COL: ..." (columns count characters)
    static const QRegularExpression located(QStringLiteral(":(\\d+):(\\d+): "));
    const QRegularExpressionMatch m = located.match(diagnostic);
    if (!m.hasMatch())
        return;
    const int line = m.captured(1).toInt();
    const int column = m.captured(2).toInt();
    const QTextBlock block = m_edit->document()->findBlockByNumber(line - 1);
    if (!block.isValid())
        return;
    QTextCursor c(block);
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::clamp(column - 1, 0, block.length() - 1));
    m_edit->setTextCursor(c);
    m_edit->setFocus();
    m_edit->centerCursor();
}

} // namespace kp::ui
