#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;

namespace kp::ui {

// The profile as text (Kneepoint's JSON, or the file as written when it cannot be read), with the
// loader's located errors and warnings listed under it; clicking one moves the cursor there.
class ProfileJsonEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileJsonEditor(QWidget* parent = nullptr);

    QString text() const;
    // Replaces the text without emitting textEdited(); the cursor keeps its line where it can.
    void setText(const QString& text);
    void setDiagnostics(const QStringList& errors, const QStringList& warnings);
    void setNote(const QString& note);

Q_SIGNALS:
    void textEdited();

private:
    void jumpTo(const QString& diagnostic);

    QPlainTextEdit* m_edit = nullptr;
    QListWidget* m_diagnostics = nullptr;
    QLabel* m_note = nullptr;
    bool m_setting = false;
};

} // namespace kp::ui
