#pragma once

#include "client/probe.h"
#include "profile/profile.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QGridLayout;
class QLabel;
class QPushButton;

namespace kp {
class BuiltinSimulator;
}

namespace kp::ui {

class JobTracker;

// "Test connection": runs the probe (health, models, a tiny completion) against the profile's
// target without blocking, and shows each check with its latency and, on failure, the hint. A
// sim:// target gets a built-in simulator for the duration of the test.
class ConnectionTest : public QWidget
{
    Q_OBJECT
public:
    explicit ConnectionTest(QWidget* parent = nullptr);
    ~ConnectionTest() override;

    // The profile the next test uses; testable is false while its target has problems.
    void setProfile(const Profile& profile, bool testable);
    bool isRunning() const { return m_probe != nullptr || m_resolving; }
    void start();
    void cancel();
    // Forgets the last result (another profile was opened).
    void clear();

Q_SIGNALS:
    void finished(const kp::ProbeReport& report);

private:
    void startProbe(const ProbeTarget& target, const QString& simulatorNote);
    void onFinished(const ProbeReport& report);
    void showFailure(const QString& message);
    void updateButton();

    Profile m_profile;
    bool m_testable = false;
    // The API key is read in the background (a keychain entry may take seconds): meanwhile the test
    // counts as running, and a cancel drops that read's answer.
    JobTracker* m_keys;
    bool m_resolving = false;
    QPointer<Probe> m_probe;
    std::unique_ptr<BuiltinSimulator> m_simulator;
    QPushButton* m_button = nullptr;
    QLabel* m_status = nullptr;
    QWidget* m_checks = nullptr;
    QGridLayout* m_checkGrid = nullptr;
    QLabel* m_notes = nullptr;
};

} // namespace kp::ui
