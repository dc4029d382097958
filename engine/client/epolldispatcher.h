#pragma once

#include <QAbstractEventDispatcher>

#include <QtGlobal>

#include <atomic>
#include <functional>
#include <unordered_map>
#include <vector>

namespace kp {

// An event dispatcher for the socket transport's worker threads (Linux): one epoll set holds the
// sockets, so a pass costs what is ready, not what is open. glib's dispatcher (and Qt's own poll one)
// walk every open socket on every pass; with hundreds of streams per thread that walk is most of the
// client's kernel time. Same semantics as Qt's UNIX dispatcher: level-triggered read, write and
// exception notifiers; timers by deadline, each fired at most once per pass, the next deadline one
// interval after the last (or one interval from now when it is late); posted events delivered at the
// start of every pass; wakeUp() from any thread through an eventfd.
class EpollDispatcher final : public QAbstractEventDispatcher
{
    Q_OBJECT
public:
    explicit EpollDispatcher(QObject* parent = nullptr);
    ~EpollDispatcher() override;

    // Whether this system has epoll (false only if the kernel refuses an epoll or event descriptor).
    bool isValid() const { return m_epoll >= 0 && m_wake >= 0; }

    bool processEvents(QEventLoop::ProcessEventsFlags flags) override;

    void registerSocketNotifier(QSocketNotifier* notifier) override;
    void unregisterSocketNotifier(QSocketNotifier* notifier) override;

    void registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject* object) override;
    bool unregisterTimer(int timerId) override;
    bool unregisterTimers(QObject* object) override;
    QList<TimerInfo> registeredTimers(QObject* object) const override;
    int remainingTime(int timerId) override;

    void wakeUp() override;
    void interrupt() override;

    // Calls `fn` once the monotonic clock (steadyNowNs()) reaches `ns`: the wait ends then, and the
    // call comes in that pass. One call is pending at a time; a
    // new one replaces it, and a null `fn` cancels it. The thread's timer slack is cut to 1 ns at the
    // first call, so the kernel does not round the wait up by its default 50 µs. Only from the
    // dispatcher's own thread.
    void callAt(qint64 ns, std::function<void()> fn);

    // Sends the read readiness of `fd` straight to `fn`, instead of through its read notifier's event
    // and the signals of the object behind it, while that notifier stays registered (its
    // unregistration, or a null `fn`, ends this). For a descriptor whose owner reads it itself: what
    // the notifier's object would do on a read (a QAbstractSocket taking the close) is then `fn`'s to
    // do. False when `fd` has no read notifier registered. Only from the dispatcher's own thread.
    bool setReader(int fd, std::function<void()> fn);
    // How many activations went to readers so far (any thread may ask).
    qint64 readerCalls() const { return m_readerCalls.load(std::memory_order_relaxed); }

private:
    struct Notifiers
    {
        QSocketNotifier* read = nullptr;
        QSocketNotifier* write = nullptr;
        QSocketNotifier* exception = nullptr;
        quint32 events = 0; // what the epoll set asks for this descriptor
        std::function<void()> reader; // setReader's: takes the read notifier's activations
    };
    struct Timer
    {
        int id = 0;
        qint64 intervalMs = 0;
        Qt::TimerType type = Qt::CoarseTimer;
        QObject* object = nullptr;
        qint64 deadlineNs = 0;
    };

    void updateEpoll(int fd, Notifiers& n);
    void insertTimer(const Timer& timer); // keeps m_timers sorted by deadline
    qint64 nextDeadlineNs() const;
    int activateTimers();
    void drainWake();
    bool runCallAt(); // the pending call, if its time has come
    bool wait(int fd, qint64 timeoutNs, int* ready);

    int m_epoll = -1;
    int m_wake = -1;
    std::atomic<bool> m_wakePending { false };
    std::atomic<bool> m_interrupt { false };
    bool m_pwait2 = true; // epoll_pwait2 (nanosecond timeouts) until the kernel says it has none
    std::unordered_map<int, Notifiers> m_notifiers;
    std::vector<Timer> m_timers; // sorted by deadline, earliest first
    // The notifiers a pass activates; one unregistered meanwhile is cleared here so it is not sent to.
    std::vector<QSocketNotifier*> m_pending;
    std::vector<int> m_firing; // the timers a pass fires, by id
    qint64 m_callAtNs = -1;
    std::function<void()> m_callAt;
    bool m_slackCut = false;
    std::atomic<qint64> m_readerCalls { 0 };
};

// The dispatcher for a new socket worker thread: an EpollDispatcher on Linux, or nullptr for Qt's own.
QAbstractEventDispatcher* makeSocketDispatcher();

} // namespace kp
