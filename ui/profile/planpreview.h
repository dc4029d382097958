#pragma once

#include "profile/profile.h"

#include <QWidget>

class QLabel;
class QTreeWidget;

namespace kp::ui {

// The steps the sweep will run and what they cost (estimatePlan), for a profile whose load,
// workload and SLO sections are valid.
class PlanPreview : public QWidget
{
    Q_OBJECT
public:
    explicit PlanPreview(QWidget* parent = nullptr);

    void setProfile(const Profile& profile);
    // Shown instead of the plan while the profile cannot be planned.
    void setUnavailable(const QString& reason);

private:
    QLabel* m_steps = nullptr;
    QLabel* m_requests = nullptr;
    QLabel* m_duration = nullptr;
    QLabel* m_durationDetail = nullptr;
    QLabel* m_tokens = nullptr;
    QLabel* m_notes = nullptr;
    QLabel* m_unavailable = nullptr;
    QWidget* m_summary = nullptr;
    QTreeWidget* m_table = nullptr;
};

} // namespace kp::ui
