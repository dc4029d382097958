#pragma once

#include <QObject>
#include <QTimer>

class QSocketNotifier;

namespace kp {

// A single-shot timer armed for an absolute steady-clock time (steadyNowNs()) with sub-millisecond
// precision and no busy waiting. Qt's timers count whole milliseconds: armed for the floor, a timer
// fires early and has to be re-armed at 0 ms until the time comes, which spins the event loop for
// up to a millisecond before every arrival (at 1,000 req/s, a whole core). On Linux this is a timerfd
// on CLOCK_MONOTONIC, the clock of std::chrono::steady_clock, watched by the thread's event loop;
// elsewhere a precise QTimer armed for the ceiling.
class DeadlineTimer : public QObject
{
    Q_OBJECT
public:
    explicit DeadlineTimer(QObject* parent = nullptr);
    ~DeadlineTimer() override;

    // Fires timeout() once at atNs, or as soon as possible when atNs has passed. Replaces any earlier time.
    void startAt(qint64 atNs);
    void stop();
    bool isActive() const { return m_active; }

Q_SIGNALS:
    void timeout();

private:
    void fire();

    bool m_active = false;
    int m_fd = -1;
    QSocketNotifier* m_notifier = nullptr;
    QTimer m_fallback;
};

} // namespace kp
