#pragma once

#include "profile/targetstore.h"

#include <QWidget>

#include <functional>

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
class JobTracker;

// The saved targets (targets.json): a list on the left, the selected target's endpoint, backend,
// model, key reference, headers and TLS setting on the right, and the connection test for it.
// Saving writes the whole store atomically; profiles that refer to a target by name pick the change
// up when they next run. The file is read and written by background jobs: while it is read the page
// waits (the store is not known yet), while it is written the form stays editable but no other save,
// removal or reading starts, so saves land in the order they were asked for.
class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPage(const QString& storePath = defaultTargetsPath(), QWidget* parent = nullptr);

    const TargetStore& store() const { return m_store; }
    QListWidget* list() const { return m_list; }
    ConnectionTest* connectionTest() const { return m_test; }
    QString errorText() const; // the last load or save problem, empty when none
    QString statusText() const; // what the line beside Save says: reading, saving, saved, a problem

    // Reads the file again in the background (another program may have changed it); after a save that
    // is still being written, when it is done. A file that could not be read whole is read again each
    // time the page is shown, and nothing is saved over it until it reads cleanly.
    void reload();
    bool isReading() const;
    bool isSaving() const; // a save or a removal is being written
    void select(const QString& name);
    // The form as a target; the error names the field that is wrong.
    std::optional<NamedTarget> formTarget(QString* error) const;
    // The form into the store, then the file in the background: true when the write started; false,
    // with the reason shown, when the form is not a target or the file is being read or written.
    // Refused too while the file could not be read whole: a save would drop what was not read.
    bool saveCurrent();
    // When the page is visible, asks first, once the profiles that use the target are known (true: the
    // question is coming); hidden, writes at once (true: the write started).
    bool removeCurrent();
    QString usedByText() const; // the line under the form: the profiles that refer to the target shown
    void addNew();

    // Lets tests fill the form.
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* baseUrlEdit() const { return m_baseUrl; }
    QLineEdit* modelEdit() const { return m_model; }
    QLineEdit* keyEdit() const { return m_key; }
    QComboBox* backendBox() const { return m_backend; }

Q_SIGNALS:
    void targetsChanged(); // the file was written
    void loaded(); // a read ended: the list shows the file (or errorText() says why it could not)
    void saveFinished(bool ok); // a save or removal ended; errorText() says why when not ok

protected:
    void showEvent(QShowEvent* event) override;

private:
    // False, with the reason shown, when the last read left part of the file unread.
    bool fileReadWhole();
    void showTarget(const NamedTarget* target);
    void onSelectionChanged();
    void onFormEdited(); // the user changed a field
    void checkForm(); // the form's state: its problem, Save, the connection test's target
    void updateControls();
    void setError(const QString& message);
    // Fills the list from the store and selects `select`; fillForm false leaves the form as the user
    // has it.
    void refreshList(const QString& select, bool fillForm = true);
    // Writes `next` in the background; on success it becomes the store and `select` is selected.
    void startWrite(const TargetStore& next, const QString& select, const QString& busyText, const QString& doneText);
    // The library's profiles that refer to the target `name`, found in the background (each profile is
    // read): `then(users)` runs on the GUI thread unless `tracker` starts newer work first.
    void findUsers(JobTracker* tracker, const QString& name, std::function<void(const QStringList&)> then);

    TargetStore m_store;
    QString m_error;
    QStringList m_readErrors; // the last read's problems: the file is not saved over while there are any
    JobTracker* m_reader;
    JobTracker* m_writer;
    JobTracker* m_usersFinder; // "Used by" of the target shown
    JobTracker* m_removeAsker; // who uses a target about to be removed, for the question
    bool m_reading = false;
    bool m_saving = false;
    bool m_reloadAfterWrite = false;
    bool m_formValid = false;
    quint64 m_edits = 0; // the user's edits of the form, counted: a job's end leaves newer ones alone
    QWidget* m_editor;
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
