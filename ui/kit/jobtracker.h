#pragma once

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <utility>

namespace kp::ui {

// What a job's work sees: set (as an atomic_bool) when its result is no longer wanted, and where it
// says how far it is. It converts to the `const std::atomic_bool*` the readers take.
class JobControl : public std::atomic_bool
{
public:
    JobControl()
        : std::atomic_bool(false)
    { }

    // done of total units (steps, runs); safe from the work's thread, shown as a percentage.
    void progress(int done, int total) const
    {
        if (m_report)
            m_report(done, total);
    }
    std::function<void(int, int)> progressFunction() const
    {
        return [this](int done, int total) { progress(done, total); };
    }

private:
    friend class JobTracker;
    std::function<void(int, int)> m_report;
};

// Long work of the window (opening a saved run, reading runs to compare) goes through one of these:
// the work runs on the global thread pool, its result comes back to the GUI thread, and a result that
// is no longer wanted — the tracker started newer work, was cancelled, or is gone — is dropped. The
// GUI thread only starts jobs and receives values.
class JobTracker : public QObject
{
    Q_OBJECT
public:
    using CancelFlag = JobControl;

    explicit JobTracker(QObject* parent = nullptr)
        : QObject(parent)
    { }
    ~JobTracker() override { cancel(); }

    // work(const CancelFlag&) runs in a pool thread, may stop early once the flag is set and may report
    // progress through it; done(result) runs in this tracker's thread, only for the newest job, and
    // before busyChanged(false).
    template <class Work, class Done> void start(const QString& what, Work work, Done done)
    {
        cancel();
        const quint64 generation = ++m_generation;
        auto cancelled = std::make_shared<CancelFlag>();
        m_cancelled = cancelled;
        m_what = what;
        setBusy(true);
        QPointer<JobTracker> self(this);
        cancelled->m_report = [self, generation](int unitsDone, int unitsTotal) {
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [self, generation, unitsDone, unitsTotal] {
                    if (self && self->m_generation == generation && self->m_busy)
                        Q_EMIT self->progressChanged(unitsDone, unitsTotal);
                },
                Qt::QueuedConnection);
        };
        QThreadPool::globalInstance()->start(
            [self, generation, cancelled, work = std::move(work), done = std::move(done)]() mutable {
                auto result = work(*cancelled);
                // Delivered through the application object, which outlives every tracker; the tracker
                // itself is looked at only there, in the GUI thread.
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [self, generation, cancelled, done = std::move(done), result = std::move(result)]() mutable {
                        if (!self || *cancelled || self->m_generation != generation)
                            return;
                        self->m_cancelled.reset();
                        done(std::move(result));
                        self->setBusy(false);
                    },
                    Qt::QueuedConnection);
            });
    }

    // Drops the running job's result and tells its work to stop.
    void cancel()
    {
        if (m_cancelled)
            m_cancelled->store(true);
        m_cancelled.reset();
        ++m_generation;
        setBusy(false);
    }

    bool isBusy() const { return m_busy; }
    const QString& what() const { return m_what; } // the running job, in words

Q_SIGNALS:
    void busyChanged(bool busy);
    // The newest job's progress: done of total units; none until the job reports.
    void progressChanged(int done, int total);

private:
    void setBusy(bool busy)
    {
        if (busy == m_busy)
            return;
        m_busy = busy;
        Q_EMIT busyChanged(busy);
    }

    quint64 m_generation = 0;
    std::shared_ptr<CancelFlag> m_cancelled;
    QString m_what;
    bool m_busy = false;
};

} // namespace kp::ui
