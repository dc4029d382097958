#include "kit/runmeta.h"

#include "kit/runinfo.h"
#include "metrics/phrase.h"
#include "runs/savedrun.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace kp::ui {

RunMeta RunMeta::fromInfo(const RunInfo& info, const QString& status)
{
    RunMeta m;
    m.id = QFileInfo(info.runDirectory).fileName();
    m.name = info.profile.name.isEmpty() ? m.id : info.profile.name;
    m.target = runTarget(info.profile); // as a saved run names it: the same in every language
    m.model = info.profile.target.model;
    m.status = status;
    m.source = QStringLiteral("kneepoint");
    // The directory is named after the local time the run began: yyyyMMdd-HHmmss-<name>.
    m.created = QDateTime::fromString(m.id.left(15), QStringLiteral("yyyyMMdd-HHmmss"));
    return m;
}

QString RunMeta::dateText() const
{
    return created.isValid() ? created.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString();
}

QString RunMeta::predictionLine() const
{
    return prediction ? predictionSentence(*prediction).text() : QString();
}

QString RunMeta::captionLine() const
{
    QStringList parts;
    if (prediction)
        parts << QCoreApplication::translate("kp::ui::RunMeta", "predicted, not measured");
    if (!name.isEmpty())
        parts << name;
    if (!dateText().isEmpty())
        parts << dateText();
    if (!target.isEmpty())
        parts << target;
    if (!model.isEmpty())
        parts << model;
    return parts.join(QStringLiteral(" · "));
}

} // namespace kp::ui
