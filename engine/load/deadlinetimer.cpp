#include "load/deadlinetimer.h"

#include "client/transport.h"

#include <QSocketNotifier>

#include <algorithm>

#ifdef Q_OS_LINUX
#include <sys/timerfd.h>
#include <unistd.h>
#endif

namespace kp {

DeadlineTimer::DeadlineTimer(QObject* parent)
    : QObject(parent)
    , m_fallback(this)
{
#ifdef Q_OS_LINUX
    m_fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (m_fd >= 0) {
        // Always enabled: a timerfd is readable only from its expiry until it is read, and re-arming or
        // disarming it clears an expiry not yet read. So a readiness that finds nothing to read (an
        // expiry the timer was stopped or re-armed after) fires nothing, and no arrival pays for
        // registering and unregistering the descriptor with the event loop.
        m_notifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, [this] {
            quint64 expirations = 0;
            if (::read(m_fd, &expirations, sizeof expirations) == ssize_t(sizeof expirations))
                fire();
        });
    }
#endif
    m_fallback.setSingleShot(true);
    m_fallback.setTimerType(Qt::PreciseTimer);
    connect(&m_fallback, &QTimer::timeout, this, &DeadlineTimer::fire);
}

DeadlineTimer::~DeadlineTimer()
{
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        delete m_notifier;
        ::close(m_fd);
    }
#endif
}

void DeadlineTimer::startAt(qint64 atNs)
{
    m_active = true;
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        // An absolute time in the past expires at once; zero would disarm the timer instead.
        const qint64 at = std::max<qint64>(atNs, 1);
        itimerspec spec {};
        spec.it_value.tv_sec = static_cast<time_t>(at / 1'000'000'000);
        spec.it_value.tv_nsec = static_cast<long>(at % 1'000'000'000);
        if (::timerfd_settime(m_fd, TFD_TIMER_ABSTIME, &spec, nullptr) == 0)
            return;
    }
#endif
    const qint64 waitNs = std::max<qint64>(0, atNs - steadyNowNs());
    m_fallback.start(static_cast<int>((waitNs + 999'999) / 1'000'000));
}

void DeadlineTimer::stop()
{
    m_active = false;
    m_fallback.stop();
#ifdef Q_OS_LINUX
    if (m_fd >= 0) {
        const itimerspec off {};
        ::timerfd_settime(m_fd, 0, &off, nullptr);
    }
#endif
}

void DeadlineTimer::fire()
{
    if (!m_active)
        return;
    m_active = false;
    Q_EMIT timeout();
}

} // namespace kp
