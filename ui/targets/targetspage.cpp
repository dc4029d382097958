#include "targets/targetspage.h"

#include "kit/connectiontest.h"
#include "kit/jobtracker.h"
#include "kit/profilelibrary.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace kp::ui {

namespace {

bool isReference(const QString& key)
{
    return key.isEmpty() || (key.startsWith(QLatin1String("${")) && key.endsWith(u'}'));
}

} // namespace

TargetsPage::TargetsPage(const QString& storePath, QWidget* parent)
    : QWidget(parent)
    , m_store(storePath)
    , m_reader(new JobTracker(this))
    , m_writer(new JobTracker(this))
    , m_usersFinder(new JobTracker(this))
    , m_removeAsker(new JobTracker(this))
    , m_editor(new QWidget(this))
    , m_list(new QListWidget(this))
    , m_add(new QPushButton(tr("&New target"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_save(new QPushButton(tr("&Save target"), this))
    , m_name(new QLineEdit(this))
    , m_baseUrl(new QLineEdit(this))
    , m_endpoint(new QLineEdit(this))
    , m_backend(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_keyNote(new QLabel(this))
    , m_headers(new QPlainTextEdit(this))
    , m_tlsVerify(new QCheckBox(tr("Verify TLS certificates"), this))
    , m_usedBy(new QLabel(this))
    , m_status(new QLabel(this))
    , m_test(new ConnectionTest(this))
{
    m_list->setObjectName(QStringLiteral("targetsList"));
    m_name->setObjectName(QStringLiteral("targetName"));
    m_baseUrl->setObjectName(QStringLiteral("targetBaseUrl"));
    m_model->setObjectName(QStringLiteral("targetModel"));
    m_key->setObjectName(QStringLiteral("targetApiKey"));
    m_save->setObjectName(QStringLiteral("saveTarget"));

    m_baseUrl->setPlaceholderText(tr("http://127.0.0.1:8000 or https://gateway.example.com/v1"));
    m_endpoint->setPlaceholderText(tr("default for the backend"));
    m_model->setPlaceholderText(tr("the first model the server lists"));
    m_key->setPlaceholderText(tr("${OPENAI_API_KEY}"));
    m_key->setToolTip(tr("Best as a reference to an environment variable, ${NAME}: one variable can serve many "
                         "targets, and the key never lands in a file."));
    m_headers->setPlaceholderText(tr("One header per line: Name: value (values may use ${VAR})"));
    m_headers->setMaximumHeight(80);
    for (Backend b : { Backend::OpenAiChat, Backend::OpenAi, Backend::Vllm, Backend::OpenAiResponses,
             Backend::AnthropicMessages, Backend::OpenAiEmbeddings })
        m_backend->addItem(backendName(b), QVariant::fromValue(b));
    m_keyNote->setWordWrap(true);
    m_usedBy->setWordWrap(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto* listLabel = new QLabel(tr("Saved targets"), left);
    leftLayout->addWidget(listLabel);
    leftLayout->addWidget(m_list, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    leftLayout->addLayout(buttons);

    auto* rightLayout = new QVBoxLayout(m_editor);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Base URL"), m_baseUrl);
    form->addRow(tr("Endpoint"), m_endpoint);
    form->addRow(tr("Backend"), m_backend);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("API key"), m_key);
    form->addRow(QString(), m_keyNote);
    form->addRow(tr("Headers"), m_headers);
    form->addRow(QString(), m_tlsVerify);
    rightLayout->addLayout(form);
    auto* saveRow = new QHBoxLayout;
    saveRow->addWidget(m_save);
    saveRow->addWidget(m_status, 1);
    rightLayout->addLayout(saveRow);
    rightLayout->addWidget(m_usedBy);
    rightLayout->addWidget(m_test);
    rightLayout->addStretch(1);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(m_editor);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    auto* path = new QLabel(tr("Kept in %1; a profile refers to a target by its name.").arg(m_store.path()), this);
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    path->setWordWrap(true);
    layout->addWidget(path);
    layout->addWidget(splitter, 1);

    connect(m_list, &QListWidget::currentRowChanged, this, &TargetsPage::onSelectionChanged);
    connect(m_add, &QPushButton::clicked, this, &TargetsPage::addNew);
    connect(m_remove, &QPushButton::clicked, this, &TargetsPage::removeCurrent);
    connect(m_save, &QPushButton::clicked, this, &TargetsPage::saveCurrent);
    for (QLineEdit* edit : { m_name, m_baseUrl, m_endpoint, m_model, m_key })
        connect(edit, &QLineEdit::textEdited, this, &TargetsPage::onFormEdited);
    connect(m_headers, &QPlainTextEdit::textChanged, this, &TargetsPage::onFormEdited);
    connect(m_backend, &QComboBox::currentIndexChanged, this, &TargetsPage::onFormEdited);
    connect(m_tlsVerify, &QCheckBox::toggled, this, &TargetsPage::onFormEdited);
    reload();
}

QString TargetsPage::errorText() const
{
    return m_error;
}

void TargetsPage::setError(const QString& message)
{
    m_error = message;
    m_status->setText(message);
}

QString TargetsPage::statusText() const
{
    return m_status->text();
}

bool TargetsPage::isReading() const
{
    return m_reading;
}

bool TargetsPage::isSaving() const
{
    return m_saving;
}

void TargetsPage::reload()
{
    if (m_saving) {
        // Read after the write, or the list would show the file as it was before it.
        m_reloadAfterWrite = true;
        return;
    }
    struct Read
    {
        TargetStore store;
        QStringList errors;
    };
    m_reading = true;
    m_reader->start(
        tr("Reading the saved targets"),
        [path = m_store.path()](const JobTracker::CancelFlag&) {
            Read read { TargetStore(path), {} };
            read.store.load(&read.errors);
            return read;
        },
        [this](Read read) {
            m_reading = false;
            const QString current = m_list->currentItem() ? m_list->currentItem()->text() : QString();
            m_store = std::move(read.store);
            m_readErrors = read.errors;
            refreshList(current);
            // After the form's own check, which would clear it.
            if (!read.errors.isEmpty())
                setError(read.errors.join(u'\n'));
            Q_EMIT loaded();
        });
    updateControls();
    m_status->setText(tr("Reading %1…").arg(m_store.path()));
}

void TargetsPage::refreshList(const QString& select, bool fillForm)
{
    m_filling = true;
    m_list->clear();
    for (const NamedTarget& t : m_store.targets())
        m_list->addItem(t.name);
    const QList<QListWidgetItem*> found = m_list->findItems(select, Qt::MatchExactly);
    if (!fillForm) {
        // onSelectionChanged does nothing while filling: the form keeps what the user typed.
        if (!found.isEmpty())
            m_list->setCurrentItem(found.constFirst());
        m_filling = false;
        updateControls();
        return;
    }
    m_filling = false;
    if (!found.isEmpty())
        m_list->setCurrentItem(found.constFirst());
    else if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    else
        showTarget(nullptr);
}

void TargetsPage::select(const QString& name)
{
    const QList<QListWidgetItem*> found = m_list->findItems(name, Qt::MatchExactly);
    if (!found.isEmpty())
        m_list->setCurrentItem(found.constFirst());
}

void TargetsPage::onSelectionChanged()
{
    if (m_filling)
        return;
    QListWidgetItem* item = m_list->currentItem();
    showTarget(item ? m_store.find(item->text()) : nullptr);
}

void TargetsPage::showTarget(const NamedTarget* target)
{
    m_filling = true;
    const NamedTarget shown = target ? *target : NamedTarget {};
    m_name->setText(shown.name);
    m_baseUrl->setText(shown.target.baseUrl);
    m_endpoint->setText(shown.target.endpoint);
    m_backend->setCurrentIndex(m_backend->findData(QVariant::fromValue(shown.target.backend)));
    m_model->setText(shown.target.model);
    m_key->setText(shown.target.apiKey);
    QStringList headers;
    for (const HttpHeader& h : shown.target.headers)
        headers << h.name + QStringLiteral(": ") + h.value;
    m_headers->setPlainText(headers.join(u'\n'));
    m_tlsVerify->setChecked(shown.target.tlsVerify);
    if (!target) {
        m_usersFinder->cancel();
        m_usedBy->clear();
    } else {
        m_usedBy->setText(tr("Looking for the profiles that refer to this target…"));
        findUsers(m_usersFinder, target->name, [this](const QStringList& users) {
            m_usedBy->setText(users.isEmpty() ? tr("No profile in the library refers to this target yet.")
                                              : tr("Used by %n profile(s): %1", nullptr, int(users.size()))
                                                    .arg(users.join(QStringLiteral(", "))));
        });
    }
    m_test->clear();
    m_filling = false;
    checkForm();
}

void TargetsPage::onFormEdited()
{
    if (m_filling)
        return;
    ++m_edits;
    checkForm();
}

void TargetsPage::checkForm()
{
    const QString key = m_key->text();
    m_key->setEchoMode(isReference(key) ? QLineEdit::Normal : QLineEdit::Password);
    m_keyNote->setText(key.isEmpty() ? tr("No key: requests carry no Authorization header (unless OPENAI_API_KEY is "
                                          "set).")
            : isReference(key)       ? tr("Read from the environment when a run starts.")
                                     : tr("A literal key is stored in the targets file (owner-only). A ${VAR} "
                                                "reference keeps it out of files."));
    QString error;
    const auto target = formTarget(&error);
    m_formValid = target.has_value();
    Profile profile;
    if (target)
        profile.target = target->target;
    m_test->setProfile(profile, m_formValid);
    updateControls();
    if (m_reading || m_saving)
        return; // the line says what is running until it ends
    if (target)
        setError(QString());
    else
        m_status->setText(error);
}

void TargetsPage::updateControls()
{
    // While the file is read the store is not known: nothing can be edited. While it is written the
    // form stays editable, but what would start another write or change the selection waits.
    const bool busy = m_reading || m_saving;
    const QListWidgetItem* item = m_list->currentItem();
    m_list->setEnabled(!busy);
    m_add->setEnabled(!busy);
    m_remove->setEnabled(!busy && item && m_store.find(item->text()));
    m_save->setEnabled(!busy && m_formValid);
    m_editor->setEnabled(!m_reading);
}

std::optional<NamedTarget> TargetsPage::formTarget(QString* error) const
{
    NamedTarget t;
    t.name = m_name->text().trimmed();
    if (const QString bad = TargetStore::checkName(t.name); !bad.isEmpty()) {
        *error = bad;
        return std::nullopt;
    }
    t.target.baseUrl = m_baseUrl->text().trimmed();
    t.target.endpoint = m_endpoint->text().trimmed();
    t.target.backend = m_backend->currentData().value<Backend>();
    t.target.model = m_model->text().trimmed();
    t.target.apiKey = m_key->text();
    t.target.tlsVerify = m_tlsVerify->isChecked();
    const QStringList lines = m_headers->toPlainText().split(u'\n', Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(u':');
        if (colon <= 0) {
            *error = tr("Headers, line %1: expected \"Name: value\"").arg(i + 1);
            return std::nullopt;
        }
        t.target.headers.append({ line.left(colon).trimmed(), line.mid(colon + 1).trimmed() });
    }
    if (const NamedTarget* existing = m_store.find(t.name)) {
        // Keep what the form does not show (timeouts, proxy, served model name).
        t.target.timeouts = existing->target.timeouts;
        t.target.proxyMode = existing->target.proxyMode;
        t.target.proxyUrl = existing->target.proxyUrl;
        t.target.servedModelName = existing->target.servedModelName;
    }
    Profile holder;
    holder.target = t.target;
    for (const ProfileIssue& issue : validateProfile(holder)) {
        if (issue.path.startsWith(QLatin1String("target"))) {
            *error = issue.toString();
            return std::nullopt;
        }
    }
    return t;
}

void TargetsPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // The user may have corrected the file elsewhere since it failed to read.
    if (!m_readErrors.isEmpty() && !m_reading && !m_saving)
        reload();
}

bool TargetsPage::fileReadWhole()
{
    if (m_readErrors.isEmpty())
        return true;
    setError(m_readErrors.join(u'\n') + u'\n'
        + tr("Not saved: part of the file could not be read, and saving would replace it without that part. "
             "Correct the file or move it away; the page reads it again when you come back to it."));
    return false;
}

bool TargetsPage::saveCurrent()
{
    if (m_reading || m_saving)
        return false; // the line beside Save says what is running; the form keeps the edit
    if (!fileReadWhole())
        return false;
    QString error;
    const auto target = formTarget(&error);
    if (!target) {
        setError(error);
        return false;
    }
    // Renaming: the new name takes the old one's place in the list.
    QListWidgetItem* item = m_list->currentItem();
    const QString previous = item ? item->text() : QString();
    TargetStore next = m_store;
    next.put(*target, previous);
    startWrite(next, target->name, tr("Saving \"%1\"…").arg(target->name), tr("Saved \"%1\".").arg(target->name));
    return true;
}

void TargetsPage::startWrite(
    const TargetStore& next, const QString& select, const QString& busyText, const QString& doneText)
{
    struct Written
    {
        bool ok = false;
        QString error;
    };
    m_saving = true;
    const quint64 editsBefore = m_edits;
    // The write goes on if the page is closed meanwhile: the tracker, a child of the page, then drops
    // the result, and only the result touches the page.
    m_writer->start(
        busyText,
        [next](const JobTracker::CancelFlag&) {
            Written w;
            w.ok = next.save(&w.error);
            return w;
        },
        [this, next, select, doneText, editsBefore](const Written& w) {
            m_saving = false;
            if (w.ok) {
                m_store = next;
                // Typed while the file was written: the list follows the file, the form keeps the typing.
                const bool edited = m_edits != editsBefore;
                refreshList(select, !edited);
                if (edited)
                    checkForm();
                m_error.clear();
                if (m_formValid || !edited)
                    m_status->setText(doneText);
            } else {
                // The store and the list stay as they were, the form as the user left it.
                setError(w.error);
                updateControls();
            }
            Q_EMIT saveFinished(w.ok);
            if (w.ok)
                Q_EMIT targetsChanged();
            if (m_reloadAfterWrite) {
                m_reloadAfterWrite = false;
                reload();
            }
        });
    updateControls();
    m_status->setText(busyText);
}

bool TargetsPage::removeCurrent()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item || m_reading || m_saving || !fileReadWhole())
        return false;
    const QString name = item->text();
    auto remove = [this, name] {
        TargetStore next = m_store;
        next.remove(name);
        startWrite(next, QString(), tr("Removing \"%1\"…").arg(name), tr("Removed \"%1\".").arg(name));
    };
    if (!isVisible()) {
        remove();
        return true;
    }
    findUsers(m_removeAsker, name, [this, name, remove](const QStringList& users) {
        const QString question = users.isEmpty()
            ? tr("Remove the target \"%1\"?").arg(name)
            : tr("Remove the target \"%1\"? %n profile(s) refer to it and will not run until it exists again: %2",
                nullptr, int(users.size()))
                  .arg(name, users.join(QStringLiteral(", ")));
        if (QMessageBox::question(this, tr("Remove target"), question) != QMessageBox::Yes)
            return;
        // Read, saved or removed meanwhile: nothing to do, or not now.
        if (m_reading || m_saving || !m_store.find(name))
            return;
        remove();
    });
    return true;
}

QString TargetsPage::usedByText() const
{
    return m_usedBy->text();
}

void TargetsPage::addNew()
{
    if (m_reading || m_saving)
        return;
    m_list->setCurrentRow(-1);
    m_list->clearSelection();
    NamedTarget fresh;
    int n = 1;
    do {
        fresh.name = n == 1 ? QStringLiteral("target") : QStringLiteral("target-%1").arg(n);
        ++n;
    } while (m_store.find(fresh.name));
    showTarget(nullptr);
    m_filling = true;
    m_name->setText(fresh.name);
    m_tlsVerify->setChecked(true);
    m_filling = false;
    checkForm();
    m_baseUrl->setFocus();
}

void TargetsPage::findUsers(JobTracker* tracker, const QString& name, std::function<void(const QStringList&)> then)
{
    tracker->start(
        tr("Looking for the profiles that refer to %1").arg(name),
        [name](const JobTracker::CancelFlag&) {
            QStringList users;
            for (const ProfileLibrary::Entry& entry : ProfileLibrary().entries()) {
                if (entry.error.isEmpty() && entry.targetName == name)
                    users << entry.name;
            }
            return users;
        },
        std::move(then));
}

} // namespace kp::ui
