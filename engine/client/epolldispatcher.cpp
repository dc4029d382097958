#include "client/epolldispatcher.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLoggingCategory>
#include <QSocketNotifier>
#include <QThread>
#include <QTimerEvent>
#include <QVarLengthArray>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <utility>

#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace kp {

Q_DECLARE_LOGGING_CATEGORY(lcClient)

namespace {

constexpr int kMaxEvents = 256; // per pass; more ready descriptors are taken by the next pass
constexpr qint64 kMsNs = 1'000'000;

qint64 monotonicNs()
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The notifiers one pass is about to activate. A notifier unregistered (disabled or deleted) while an
// earlier one of the same pass runs is cleared from every pass still on the stack (a slot may run a
// nested event loop), so nothing is sent to a dead object.
struct Pass
{
    QSocketNotifier* items[kMaxEvents * 3];
    bool direct[kMaxEvents * 3]; // a read notifier whose activation goes to its descriptor's reader
    int count = 0;
    Pass* outer = nullptr;
};

thread_local Pass* t_pass = nullptr;

} // namespace

EpollDispatcher::EpollDispatcher(QObject* parent)
    : QAbstractEventDispatcher(parent)
    , m_epoll(::epoll_create1(EPOLL_CLOEXEC))
    , m_wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{
    if (m_epoll < 0 || m_wake < 0) {
        qCWarning(lcClient) << "epoll dispatcher:" << std::strerror(errno);
        return;
    }
    epoll_event ev {};
    ev.events = EPOLLIN;
    ev.data.fd = m_wake;
    if (::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_wake, &ev) != 0) {
        qCWarning(lcClient) << "epoll dispatcher: cannot watch its wake-up descriptor:" << std::strerror(errno);
        ::close(m_wake);
        m_wake = -1;
    }
}

EpollDispatcher::~EpollDispatcher()
{
    if (m_wake >= 0)
        ::close(m_wake);
    if (m_epoll >= 0)
        ::close(m_epoll);
}

void EpollDispatcher::registerSocketNotifier(QSocketNotifier* notifier)
{
    Q_ASSERT(notifier && notifier->thread() == thread() && thread() == QThread::currentThread());
    const int fd = int(notifier->socket());
    Notifiers& n = m_notifiers[fd];
    switch (notifier->type()) {
    case QSocketNotifier::Read:
        n.read = notifier;
        break;
    case QSocketNotifier::Write:
        n.write = notifier;
        break;
    case QSocketNotifier::Exception:
        n.exception = notifier;
        break;
    }
    updateEpoll(fd, n);
}

void EpollDispatcher::unregisterSocketNotifier(QSocketNotifier* notifier)
{
    Q_ASSERT(notifier && thread() == QThread::currentThread());
    for (Pass* p = t_pass; p; p = p->outer) {
        for (int i = 0; i < p->count; ++i) {
            if (p->items[i] == notifier)
                p->items[i] = nullptr;
        }
    }
    const int fd = int(notifier->socket());
    const auto it = m_notifiers.find(fd);
    if (it == m_notifiers.end())
        return;
    Notifiers& n = it->second;
    if (n.read == notifier) {
        n.read = nullptr;
        n.reader = nullptr;
    }
    if (n.write == notifier)
        n.write = nullptr;
    if (n.exception == notifier)
        n.exception = nullptr;
    updateEpoll(fd, n);
}

// Level-triggered, as Qt's notifiers are: a socket stays ready until it is read (or written).
void EpollDispatcher::updateEpoll(int fd, Notifiers& n)
{
    const quint32 wanted = (n.read ? quint32(EPOLLIN) : 0u) | (n.write ? quint32(EPOLLOUT) : 0u)
        | (n.exception ? quint32(EPOLLPRI) : 0u);
    if (wanted == n.events) {
        if (wanted == 0)
            m_notifiers.erase(fd);
        return;
    }
    epoll_event ev {};
    ev.events = wanted;
    ev.data.fd = fd;
    // epoll reports a hang-up or an error whatever it is asked, so a descriptor with no enabled
    // notifier leaves the set rather than waking every pass.
    const int op = wanted == 0 ? EPOLL_CTL_DEL : (n.events == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD);
    const bool ok = ::epoll_ctl(m_epoll, op, fd, &ev) == 0;
    if (!ok)
        qCWarning(lcClient) << "epoll dispatcher: cannot watch socket descriptor" << fd << ":" << std::strerror(errno);
    if (wanted == 0)
        m_notifiers.erase(fd);
    else if (ok)
        n.events = wanted;
}

void EpollDispatcher::insertTimer(const Timer& timer)
{
    const auto at = std::upper_bound(m_timers.begin(), m_timers.end(), timer.deadlineNs,
        [](qint64 deadline, const Timer& t) { return deadline < t.deadlineNs; });
    m_timers.insert(at, timer);
}

// Coarse timers are kept as precise ones (Qt allows a coarse timer 5% of slack; none is taken), very
// coarse ones are rounded to whole seconds as Qt rounds them.
void EpollDispatcher::registerTimer(int timerId, qint64 interval, Qt::TimerType timerType, QObject* object)
{
    Q_ASSERT(timerId > 0 && interval >= 0 && object);
    Q_ASSERT(object->thread() == thread() && thread() == QThread::currentThread());
    Timer t;
    t.id = timerId;
    t.intervalMs = timerType == Qt::VeryCoarseTimer ? (interval + 500) / 1000 * 1000 : interval;
    t.type = timerType;
    t.object = object;
    t.deadlineNs = monotonicNs() + t.intervalMs * kMsNs;
    insertTimer(t);
}

bool EpollDispatcher::unregisterTimer(int timerId)
{
    const auto it
        = std::find_if(m_timers.begin(), m_timers.end(), [timerId](const Timer& t) { return t.id == timerId; });
    if (it == m_timers.end())
        return false;
    m_timers.erase(it);
    return true;
}

bool EpollDispatcher::unregisterTimers(QObject* object)
{
    const auto end
        = std::remove_if(m_timers.begin(), m_timers.end(), [object](const Timer& t) { return t.object == object; });
    const bool any = end != m_timers.end();
    m_timers.erase(end, m_timers.end());
    return any;
}

QList<QAbstractEventDispatcher::TimerInfo> EpollDispatcher::registeredTimers(QObject* object) const
{
    QList<TimerInfo> out;
    for (const Timer& t : m_timers) {
        if (t.object == object)
            out.append(TimerInfo(t.id, int(t.intervalMs), t.type));
    }
    return out;
}

int EpollDispatcher::remainingTime(int timerId)
{
    const auto it
        = std::find_if(m_timers.begin(), m_timers.end(), [timerId](const Timer& t) { return t.id == timerId; });
    if (it == m_timers.end())
        return -1;
    const qint64 left = it->deadlineNs - monotonicNs();
    return left <= 0 ? 0 : int((left + kMsNs - 1) / kMsNs);
}

qint64 EpollDispatcher::nextDeadlineNs() const
{
    return m_timers.empty() ? -1 : m_timers.front().deadlineNs;
}

// Every timer due when the pass began fires once, earliest first; its next deadline is one interval
// after this one, or one interval from now when it is already late (Qt's rule: no burst of catch-ups).
int EpollDispatcher::activateTimers()
{
    if (m_timers.empty())
        return 0;
    const qint64 now = monotonicNs();
    QVarLengthArray<int, 16> due;
    for (const Timer& t : m_timers) {
        if (t.deadlineNs > now)
            break;
        due.append(t.id);
    }
    int fired = 0;
    for (const int id : due) {
        const auto it = std::find_if(m_timers.begin(), m_timers.end(), [id](const Timer& t) { return t.id == id; });
        if (it == m_timers.end() || it->deadlineNs > now) // stopped, or restarted, by an earlier one
            continue;
        Timer t = *it;
        m_timers.erase(it);
        t.deadlineNs += t.intervalMs * kMsNs;
        if (t.deadlineNs < now)
            t.deadlineNs = now + t.intervalMs * kMsNs;
        insertTimer(t);
        QTimerEvent event(id);
        QCoreApplication::sendEvent(t.object, &event);
        ++fired;
    }
    return fired;
}

void EpollDispatcher::wakeUp()
{
    // One write per wake-up until the loop has taken it (posting many events costs one syscall).
    if (m_wakePending.exchange(true, std::memory_order_acq_rel))
        return;
    const quint64 one = 1;
    ssize_t written;
    do {
        written = ::write(m_wake, &one, sizeof one);
    } while (written < 0 && errno == EINTR);
}

void EpollDispatcher::interrupt()
{
    m_interrupt.store(true, std::memory_order_release);
    wakeUp();
}

// Read, then clear: a wake-up that lands in between is not lost, its events are delivered at the
// start of the next pass.
void EpollDispatcher::drainWake()
{
    quint64 value = 0;
    while (::read(m_wake, &value, sizeof value) < 0 && errno == EINTR) { }
    m_wakePending.store(false, std::memory_order_release);
}

void EpollDispatcher::callAt(qint64 ns, std::function<void()> fn)
{
    if (!fn) {
        m_callAtNs = -1;
        m_callAt = nullptr;
        return;
    }
    if (!m_slackCut) {
        ::prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
        m_slackCut = true;
    }
    m_callAtNs = ns;
    m_callAt = std::move(fn);
}

bool EpollDispatcher::setReader(int fd, std::function<void()> fn)
{
    Q_ASSERT(thread() == QThread::currentThread());
    const auto it = m_notifiers.find(fd);
    if (it == m_notifiers.end() || !it->second.read)
        return false;
    it->second.reader = std::move(fn);
    return true;
}

bool EpollDispatcher::runCallAt()
{
    if (m_callAtNs < 0 || monotonicNs() < m_callAtNs)
        return false;
    m_callAtNs = -1;
    const std::function<void()> fn = std::exchange(m_callAt, nullptr); // it may set the next one
    fn();
    return true;
}

bool EpollDispatcher::processEvents(QEventLoop::ProcessEventsFlags flags)
{
    m_interrupt.store(false, std::memory_order_relaxed);
    Q_EMIT awake();
    QCoreApplication::sendPostedEvents();

    const bool includeNotifiers = !(flags & QEventLoop::ExcludeSocketNotifiers);
    const bool canWait = (flags & QEventLoop::WaitForMoreEvents) && !m_interrupt.load(std::memory_order_acquire);
    if (canWait)
        Q_EMIT aboutToBlock();
    if (m_interrupt.load(std::memory_order_acquire))
        return false;

    qint64 timeoutNs = 0; // a poll without waiting
    if (canWait) {
        qint64 deadline = nextDeadlineNs();
        if (m_callAtNs >= 0 && (deadline < 0 || m_callAtNs < deadline))
            deadline = m_callAtNs;
        timeoutNs = deadline < 0 ? -1 : std::max<qint64>(0, deadline - monotonicNs());
    }
    timespec ts {};
    if (timeoutNs >= 0) {
        ts.tv_sec = time_t(timeoutNs / 1'000'000'000);
        ts.tv_nsec = long(timeoutNs % 1'000'000'000);
    }

    int handled = 0;
    if (!includeNotifiers) { // only the wake-up descriptor: the sockets wait for a pass that takes them
        pollfd p { m_wake, POLLIN, 0 };
        if (::ppoll(&p, 1, timeoutNs >= 0 ? &ts : nullptr, nullptr) > 0) {
            drainWake();
            ++handled;
        }
        handled += runCallAt();
        return activateTimers() + handled > 0;
    }

    epoll_event events[kMaxEvents];
    int ready = -1;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
    if (m_pwait2) {
        ready = ::epoll_pwait2(m_epoll, events, kMaxEvents, timeoutNs >= 0 ? &ts : nullptr, nullptr);
        if (ready < 0 && errno == ENOSYS)
            m_pwait2 = false; // a kernel before 5.11: millisecond timeouts, rounded up
    }
#else
    m_pwait2 = false;
#endif
    if (!m_pwait2)
        ready = ::epoll_wait(m_epoll, events, kMaxEvents, timeoutNs < 0 ? -1 : int((timeoutNs + kMsNs - 1) / kMsNs));
    if (ready < 0 && errno != EINTR)
        qCWarning(lcClient) << "epoll dispatcher: waiting failed:" << std::strerror(errno);

    Pass pass;
    pass.outer = t_pass;
    for (int i = 0; i < ready; ++i) {
        const int fd = events[i].data.fd;
        const quint32 e = events[i].events;
        if (fd == m_wake) {
            drainWake();
            ++handled;
            continue;
        }
        const auto it = m_notifiers.find(fd);
        if (it == m_notifiers.end())
            continue;
        const Notifiers& n = it->second;
        // As Qt's poll dispatcher: a hang-up or an error is news for the reader and the writer.
        if (n.read && (e & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
            pass.direct[pass.count] = bool(n.reader);
            pass.items[pass.count++] = n.read;
        }
        if (n.write && (e & (EPOLLOUT | EPOLLHUP | EPOLLERR))) {
            pass.direct[pass.count] = false;
            pass.items[pass.count++] = n.write;
        }
        if (n.exception && (e & EPOLLPRI)) {
            pass.direct[pass.count] = false;
            pass.items[pass.count++] = n.exception;
        }
    }
    t_pass = &pass;
    for (int i = 0; i < pass.count; ++i) {
        QSocketNotifier* notifier = pass.items[i];
        if (!notifier)
            continue;
        pass.items[i] = nullptr;
        ++handled;
        if (pass.direct[i]) {
            // Still registered (an unregistered one was cleared above); a copy, because the reader may
            // end itself (close the descriptor) while it runs.
            const auto it = m_notifiers.find(int(notifier->socket()));
            if (it != m_notifiers.end() && it->second.read == notifier && it->second.reader) {
                const std::function<void()> reader = it->second.reader;
                m_readerCalls.store(m_readerCalls.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
                reader();
                continue;
            }
        }
        QEvent event(QEvent::SockAct);
        QCoreApplication::sendEvent(notifier, &event);
    }
    t_pass = pass.outer;

    // After the notifiers: the call may close and open descriptors, which must not meet this pass's
    // events under a reused number.
    handled += runCallAt();
    handled += activateTimers();
    return handled > 0;
}

QAbstractEventDispatcher* makeSocketDispatcher()
{
    auto* dispatcher = new EpollDispatcher;
    if (dispatcher->isValid())
        return dispatcher;
    delete dispatcher;
    return nullptr;
}

} // namespace kp
