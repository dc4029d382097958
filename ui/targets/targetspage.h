#pragma once

#include "profile/targetstore.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace kp::ui {

class ConnectionTest;

// The saved targets (targets.json): a list on the left, the selected target's endpoint, backend,
// model, key reference, headers and TLS setting on the right, and the connection test for it.
// Saving writes the whole store atomically; profiles that refer to a target by name pick the change
// up when they next run.
class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPage(const QString& storePath = defaultTargetsPath(), QWidget* parent = nullptr);

    const TargetStore& store() const { return m_store; }
    QListWidget* list() const { return m_list; }
    ConnectionTest* connectionTest() const { return m_test; }
    QString errorText() const; // the last load or save problem, empty when none

    // Reads the file again (another program may have changed it).
    void reload();
    void select(const QString& name);
    // The form as a target; the error names the field that is wrong.
    std::optional<NamedTarget> formTarget(QString* error) const;
    bool saveCurrent(); // the form into the store, then the file
    bool removeCurrent(); // asks first when the page is visible
    void addNew();

    // Lets tests fill the form.
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* baseUrlEdit() const { return m_baseUrl; }
    QLineEdit* modelEdit() const { return m_model; }
    QLineEdit* keyEdit() const { return m_key; }
    QComboBox* backendBox() const { return m_backend; }

Q_SIGNALS:
    void targetsChanged(); // the file was written

private:
    void showTarget(const NamedTarget* target);
    void onSelectionChanged();
    void onFormEdited();
    void setError(const QString& message);
    void refreshList(const QString& select);
    QStringList profilesUsing(const QString& name) const;

    TargetStore m_store;
    QString m_error;
    QListWidget* m_list;
    QPushButton* m_add;
    QPushButton* m_remove;
    QPushButton* m_save;
    QLineEdit* m_name;
    QLineEdit* m_baseUrl;
    QLineEdit* m_endpoint;
    QComboBox* m_backend;
    QLineEdit* m_model;
    QLineEdit* m_key;
    QLabel* m_keyNote;
    QPlainTextEdit* m_headers;
    QCheckBox* m_tlsVerify;
    QLabel* m_usedBy;
    QLabel* m_status;
    ConnectionTest* m_test;
    bool m_filling = false;
};

} // namespace kp::ui
