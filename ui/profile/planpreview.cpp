#include "planpreview.h"

#include "kit/uiformat.h"
#include "planestimate.h"
#include "sweep/sweepplan.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace kp::ui {

namespace {

enum Column { IndexColumn, LoadColumn, RequestsColumn, SendingColumn, PurposeColumn, ColumnCount };

QLabel* valueLabel(const QString& name)
{
    auto* l = new QLabel;
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QString purposeText(const StepEstimate& e)
{
    const QString& p = e.step.purpose;
    if (p == QLatin1String("floor"))
        return PlanPreview::tr("floor: one request at a time");
    if (p == QLatin1String("ceiling"))
        return PlanPreview::tr("ceiling: every request at once");
    if (!e.loadKnown)
        return PlanPreview::tr("between floor and ceiling");
    return PlanPreview::tr("sweep");
}

} // namespace

PlanPreview::PlanPreview(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(6);

    m_unavailable = valueLabel(QStringLiteral("plan.unavailable"));
    m_unavailable->setForegroundRole(QPalette::PlaceholderText);
    m_unavailable->setVisible(false);
    v->addWidget(m_unavailable);

    m_summary = new QWidget;
    auto* form = new QFormLayout(m_summary);
    form->setContentsMargins(0, 0, 0, 0);
    form->setLabelAlignment(Qt::AlignRight);
    form->setVerticalSpacing(3);
    m_steps = valueLabel(QStringLiteral("plan.steps"));
    m_requests = valueLabel(QStringLiteral("plan.requests"));
    m_duration = valueLabel(QStringLiteral("plan.duration"));
    m_durationDetail = valueLabel(QStringLiteral("plan.durationDetail"));
    m_durationDetail->setForegroundRole(QPalette::PlaceholderText);
    m_tokens = valueLabel(QStringLiteral("plan.tokens"));
    auto* duration = new QWidget;
    auto* dv = new QVBoxLayout(duration);
    dv->setContentsMargins(0, 0, 0, 0);
    dv->setSpacing(1);
    dv->addWidget(m_duration);
    dv->addWidget(m_durationDetail);
    form->addRow(tr("Steps"), m_steps);
    form->addRow(tr("Requests"), m_requests);
    form->addRow(tr("Duration"), duration);
    form->addRow(tr("Tokens"), m_tokens);
    v->addWidget(m_summary);

    m_table = new QTreeWidget;
    m_table->setObjectName(QStringLiteral("plan.table"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels({ tr("#"), tr("Load"), tr("Requests"), tr("Sending"), tr("Why") });
    m_table->headerItem()->setToolTip(SendingColumn, tr("Time to send the step's requests at the offered rate"));
    m_table->header()->setStretchLastSection(true);
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->header()->setSectionResizeMode(PurposeColumn, QHeaderView::Stretch);
    for (int c : { IndexColumn, RequestsColumn, SendingColumn })
        m_table->headerItem()->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
    v->addWidget(m_table, 1);

    m_notes = valueLabel(QStringLiteral("plan.notes"));
    m_notes->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(m_notes);
}

void PlanPreview::setUnavailable(const QString& reason)
{
    m_unavailable->setText(reason);
    m_unavailable->setVisible(true);
    m_summary->setEnabled(false);
    m_table->setEnabled(false);
}

void PlanPreview::setProfile(const Profile& profile)
{
    m_unavailable->setVisible(false);
    m_summary->setEnabled(true);
    m_table->setEnabled(true);

    const PlanEstimate plan = estimatePlan(profile);
    const auto stepCount = int(plan.steps.size());
    const QString dependsOnServer = tr("depends on the server");

    m_table->clear();
    QList<QTreeWidgetItem*> rows;
    for (int i = 0; i < stepCount; ++i) {
        const StepEstimate& e = plan.steps[std::size_t(i)];
        auto* row = new QTreeWidgetItem;
        row->setText(IndexColumn, QString::number(i + 1));
        row->setText(LoadColumn, e.loadKnown ? UiFormat::loadText(e.step.mode, e.step.load) : tr("auto"));
        row->setText(RequestsColumn, e.requests ? formatCount(*e.requests) : tr("—"));
        row->setText(SendingColumn, e.sendingS ? formatDuration(*e.sendingS) : tr("—"));
        row->setText(PurposeColumn, purposeText(e));
        if (!e.requests)
            row->setToolTip(RequestsColumn, dependsOnServer);
        if (!e.sendingS)
            row->setToolTip(SendingColumn, dependsOnServer);
        if (!e.step.detail.isEmpty())
            row->setToolTip(PurposeColumn, e.step.detail);
        for (int c : { IndexColumn, RequestsColumn, SendingColumn })
            row->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        rows << row;
    }
    m_table->addTopLevelItems(rows);

    m_steps->setText(stepCount == 1 ? tr("1 step") : tr("%1 steps").arg(stepCount));

    QString requests;
    if (plan.unknownRequestSteps == stepCount)
        requests = dependsOnServer;
    else if (plan.unknownRequestSteps > 0)
        requests = tr("at least %1 requests (%2 more steps run for a fixed time)")
                       .arg(formatCount(plan.requests))
                       .arg(plan.unknownRequestSteps);
    else
        requests = tr("%1 requests").arg(formatCount(plan.requests));
    if (plan.warmupRequests > 0)
        requests += tr(" + %1 warm-up").arg(formatCount(plan.warmupRequests));
    m_requests->setText(requests);

    QStringList detail;
    if (plan.unknownDurationSteps == stepCount && plan.cooldownS == 0) {
        m_duration->setText(dependsOnServer);
    } else {
        m_duration->setText((plan.unknownDurationSteps > 0 ? tr("at least %1") : tr("≈ %1"))
                                .arg(formatDuration(plan.knownDurationS())));
        detail << tr("sending %1").arg(formatDuration(plan.sendingS));
        if (plan.cooldownS > 0)
            detail << tr("cooldown %1").arg(formatDuration(plan.cooldownS));
    }
    QStringList plus;
    if (plan.unknownDurationSteps > 0 && plan.unknownDurationSteps < stepCount)
        plus << (plan.unknownDurationSteps == 1
                ? tr("1 step whose length depends on the server")
                : tr("%1 steps whose length depends on the server").arg(plan.unknownDurationSteps));
    if (plan.warmupRequests > 0)
        plus << tr("warm-up");
    plus << tr("answering each step's last requests");
    m_durationDetail->setText((detail.isEmpty() ? QString() : detail.join(QStringLiteral(" · ")) + QStringLiteral("; "))
        + tr("plus %1").arg(plus.join(tr(", "))));

    if (!plan.randomDataset) {
        m_tokens->setText(tr("depends on the dataset"));
    } else if (plan.requests == 0) {
        m_tokens->setText(dependsOnServer);
    } else {
        const QString prefix = plan.unknownRequestSteps > 0 ? tr("at least %1") : tr("≈ %1");
        const QString output = profile.workload.ignoreEos ? tr("%1 output").arg(formatCount(plan.outputTokens))
                                                          : tr("up to %1 output").arg(formatCount(plan.outputTokens));
        m_tokens->setText(tr("%1 tokens (%2 input, %3)")
                              .arg(prefix.arg(formatCount(plan.inputTokens + plan.outputTokens)),
                                  formatCount(plan.inputTokens), output));
    }

    QStringList notes;
    if (profile.load.plan.kind == PlanKind::Auto && profile.load.mode == LoadMode::Rate)
        notes << tr("The auto rates are chosen once the floor and ceiling are measured.");
    if (plan.refineSteps > 0)
        notes << (plan.refineSteps == 1 ? tr("Refinement may add 1 step.")
                                        : tr("Refinement may add up to %1 steps.").arg(plan.refineSteps));
    if (plan.repeats > 0 && profile.load.plan.repeatScope == Plan::RepeatScope::All)
        notes << (plan.repeats == 1 ? tr("Every load runs once more after the pass.")
                                    : tr("Every load runs %1 more times after the pass.").arg(plan.repeats));
    else if (plan.repeats > 0)
        notes << (plan.repeats == 1 ? tr("The best step that meets the SLO runs once more.")
                                    : tr("The best step that meets the SLO runs %1 more times.").arg(plan.repeats));
    if (profile.load.plan.earlyStop)
        notes << tr("Escalation stops early if the server collapses.");
    // Prompts sent again feed a prefix cache: say how many before the run.
    const bool moreRequests = plan.unknownRequestSteps > 0 || plan.refineSteps > 0 || plan.repeats > 0
        || profile.load.plan.kind == PlanKind::Auto;
    const PromptReuse reuse = workloadPromptReuse(profile.workload, plan.requests + plan.warmupRequests, moreRequests);
    if (reuse.repeated() > 0) {
        const QString share = QString::number(std::max(1.0, std::round(reuse.share() * 100.0)), 'f', 0);
        const QString requestCount = formatCount(reuse.requests);
        if (reuse.distinctAtMost)
            notes << tr("The dataset gives at most %1 prompts for %2%3 requests: at least %4 % of requests will "
                        "re-send a prompt (a prefix-caching server will look faster than under real traffic).")
                         .arg(formatCount(reuse.distinctPrompts), reuse.atLeast ? tr("at least ") : QString(),
                             requestCount, share);
        else
            notes << tr("The dataset has %1 prompts for %2%3 requests: %4 % of requests will re-send a prompt (a "
                        "prefix-caching server will look faster than under real traffic).")
                         .arg(formatCount(reuse.distinctPrompts), reuse.atLeast ? tr("at least ") : QString(),
                             requestCount, share);
    }
    m_notes->setText(notes.join(QLatin1Char(' ')));
    m_notes->setVisible(!notes.isEmpty());
}

} // namespace kp::ui
