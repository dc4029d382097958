#include "targets/matrixrun.h"

#include "kit/liverun.h"
#include "kit/sweepcontroller.h"
#include "runs/runcatalog.h"

#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace kp::ui {

std::optional<MatrixChoice> askMatrix(QWidget* parent, const TargetStore& store)
{
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("matrixDialog"));
    dialog.setWindowTitle(QObject::tr("Run against targets"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(QObject::tr("The current profile is swept against each chosen target (and model), one "
                                         "after another. When all have run, the comparison opens."),
        &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* list = new QListWidget(&dialog);
    list->setObjectName(QStringLiteral("matrixTargets"));
    for (const NamedTarget& t : store.targets()) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1 — %2%3")
                .arg(t.name, displayUrl(t.target.baseUrl),
                    t.target.model.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(t.target.model)),
            list);
        item->setData(Qt::UserRole, t.name);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    layout->addWidget(list);
    auto* form = new QFormLayout;
    auto* models = new QLineEdit(&dialog);
    models->setObjectName(QStringLiteral("matrixModels"));
    models->setPlaceholderText(QObject::tr("optional: model ids separated by commas"));
    form->addRow(QObject::tr("Models"), models);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Run"));
    layout->addWidget(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto update = [&] {
        int checked = 0;
        for (int i = 0; i < list->count(); ++i)
            checked += list->item(i)->checkState() == Qt::Checked ? 1 : 0;
        const int modelCount = int(models->text().split(u',', Qt::SkipEmptyParts).size());
        buttons->button(QDialogButtonBox::Ok)->setEnabled(checked > 0 && checked * std::max(1, modelCount) >= 2);
    };
    QObject::connect(list, &QListWidget::itemChanged, &dialog, update);
    QObject::connect(models, &QLineEdit::textChanged, &dialog, update);
    update();
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    MatrixChoice choice;
    for (int i = 0; i < list->count(); ++i) {
        if (list->item(i)->checkState() == Qt::Checked)
            choice.targets << *store.find(list->item(i)->data(Qt::UserRole).toString());
    }
    for (const QString& m : models->text().split(u',', Qt::SkipEmptyParts)) {
        if (!m.trimmed().isEmpty())
            choice.models << m.trimmed();
    }
    return choice;
}

std::vector<Profile> matrixProfiles(const Profile& base, const MatrixChoice& choice)
{
    std::vector<Profile> out;
    const QStringList models = choice.models.isEmpty() ? QStringList { QString() } : choice.models;
    for (const NamedTarget& t : choice.targets) {
        for (const QString& model : models) {
            Profile p = base;
            p.targetName.clear();
            p.target = withSavedTarget(t.target, base.target);
            if (!model.isEmpty())
                p.target.model = model;
            const QString baseName = base.name.isEmpty() ? QObject::tr("Sweep") : base.name;
            p.name = model.isEmpty() ? QStringLiteral("%1 — %2").arg(baseName, t.name)
                                     : QStringLiteral("%1 — %2 — %3").arg(baseName, t.name, model);
            out.push_back(p);
        }
    }
    return out;
}

MatrixRun::MatrixRun(SweepController* controller, LiveRun* run, QObject* parent)
    : QObject(parent)
    , m_controller(controller)
    , m_run(run)
{
    connect(m_run, &LiveRun::stateChanged, this, [this](LiveRun::State state) {
        if (!m_active)
            return;
        if (state == LiveRun::State::Finished)
            onRunEnded(false);
        else if (state == LiveRun::State::Stopped || state == LiveRun::State::Failed) {
            m_failed = true;
            onRunEnded(true);
        }
    });
}

bool MatrixRun::start(std::vector<Profile> profiles)
{
    if (m_active || profiles.empty() || m_controller->isRunning())
        return false;
    m_queue = std::move(profiles);
    m_next = 0;
    m_dirs.clear();
    m_failed = false;
    m_active = true;
    m_tag = QStringLiteral("matrix-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    startNext();
    return true;
}

void MatrixRun::startNext()
{
    const Profile& p = m_queue.at(m_next++);
    Q_EMIT progress(tr("Matrix %1 of %2: %3").arg(m_next).arg(m_queue.size()).arg(p.name));
    m_controller->start(p);
}

void MatrixRun::startWhenIdle()
{
    // The controller's thread reports the end of a sweep just before it is idle.
    if (m_controller->isRunning()) {
        QTimer::singleShot(50, this, &MatrixRun::startWhenIdle);
        return;
    }
    startNext();
}

void MatrixRun::onRunEnded(bool stopped)
{
    if (m_run->hasInfo() && !m_run->info().runDirectory.isEmpty()) {
        const QString dir = m_run->info().runDirectory;
        m_dirs << dir;
        QString error;
        RunCatalog(m_controller->runsDirectory()).setTags(dir, { m_tag }, &error);
    }
    if (!stopped && m_next < m_queue.size()) {
        QTimer::singleShot(0, this, &MatrixRun::startWhenIdle);
        return;
    }
    m_active = false;
    Q_EMIT finished(m_dirs, !m_failed && m_next == m_queue.size());
}

} // namespace kp::ui
