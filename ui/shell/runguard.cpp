#include "shell/runguard.h"

#include "sim/filelimit.h"
#include "sweep/sweepplanner.h"

#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QUrl>

namespace kp::ui {

SafetyLimits guiSafetyLimits()
{
    SafetyLimits limits;
    limits.openFileLimit = sim::raiseFileLimit(); // raised at start: this reads what is in force
    const QSettings settings;
    bool ok = false;
    const qint64 above = settings.value(QStringLiteral("safety/confirm_above_requests")).toLongLong(&ok);
    if (ok && above >= 0)
        limits.confirmAboveRequests = above;
    return limits;
}

QStringList sweepStartQuestions(const Profile& profile, const SafetyLimits& limits, bool* overLimits)
{
    const std::vector<PlannedStep> planned = SweepPlanner(profile.load, profile.slo).preview();
    const Workload& w = profile.workload;
    // The dataset is read when the sweep starts: estimate with the profile's lengths.
    const double prompt = w.inputLen + w.prefixLen;
    const double output = w.fixedOutputLen ? *w.fixedOutputLen : w.outputLen;
    const SafetyCheck check = checkSafety(profile, planned, prompt, output, limits);
    QStringList questions;
    if (overLimits)
        *overLimits = !check.overLimits.isEmpty();
    if (check.insecureKey && check.insecureCarrier.isEmpty())
        questions << QObject::tr("The API key (%1) would be sent over plain HTTP to %2, which is not this machine: "
                                 "anyone on the way can read it.")
                         .arg(profile.target.resolvedApiKey(false).describe(), QUrl(profile.target.baseUrl).host());
    else if (check.insecureKey)
        questions << QObject::tr("Credentials (%1) would be sent over plain HTTP to %2, which is not this machine: "
                                 "anyone on the way can read it.")
                         .arg(check.insecureCarrier, QUrl(profile.target.baseUrl).host());
    if (!check.fileLimitProblem.isEmpty())
        questions << QObject::tr("Requests would fail: %1.").arg(check.fileLimitProblem);
    if (!check.overLimits.isEmpty())
        questions
            << QObject::tr("The plan goes past the load limits: %1.").arg(check.overLimits.join(QObject::tr("; ")));
    if (check.needsConfirmation)
        questions << QObject::tr("This sweep sends %1 (more than %2 requests to another machine).")
                         .arg(check.summary)
                         .arg(limits.confirmAboveRequests);
    if (!profile.target.tlsVerify && QUrl(profile.target.baseUrl).scheme() == QLatin1String("https"))
        questions << QObject::tr("TLS certificates are not checked (target.tls_verify is off): the server's "
                                 "identity is not verified.");
    return questions;
}

bool confirmSweepStart(QWidget* parent, const Profile& profile, bool* allowHighLoad)
{
    bool overLimits = false;
    const QStringList questions = sweepStartQuestions(profile, guiSafetyLimits(), &overLimits);
    if (allowHighLoad)
        *allowHighLoad = false;
    if (questions.isEmpty())
        return true;
    QMessageBox box(QMessageBox::Warning, QObject::tr("Start the sweep?"),
        QObject::tr("Before the sweep starts, please confirm:"), QMessageBox::Cancel, parent);
    box.setInformativeText(questions.join(QStringLiteral("\n\n")));
    QPushButton* go = box.addButton(QObject::tr("Start anyway"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    const bool goAhead = box.clickedButton() == go;
    if (allowHighLoad)
        *allowHighLoad = goAhead && overLimits;
    return goAhead;
}

} // namespace kp::ui
