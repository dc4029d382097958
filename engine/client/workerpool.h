#pragma once

#include "client/transport.h"

#include <QAbstractEventDispatcher>
#include <QMetaObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <variant>
#include <vector>

namespace kp {

// The threads of a transport: one worker object per thread (an HttpWorker or a SocketWorker), requests
// handed out round-robin, records re-emitted as the owner's Transport::finished in the owner's thread.
//
// Both hand-offs go through a locked queue that is woken only when it turns non-empty: a thread that is
// busy when more work arrives takes all of it in one pass, with one posted event and one wake-up for the
// lot instead of one per request and one per record. A cancel goes through the same queue as the
// requests, so it ends exactly those sent before it.
template <typename W> class WorkerPool
{
public:
    WorkerPool() = default;
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;
    ~WorkerPool()
    {
        for (auto& w : m_workers) {
            w.thread->quit();
            w.thread->wait();
        }
    }

    // options.workers threads (default: one per core); make() creates each worker before it moves.
    // dispatcher() gives each thread its event dispatcher before it starts (nullptr: Qt's default).
    template <typename Make>
    void start(Transport* owner, const TransportOptions& options, const QString& name, Make make,
        const std::function<QAbstractEventDispatcher*()>& dispatcher = {})
    {
        const int count = std::min(TransportOptions::kMaxWorkers,
            options.workers > 0 ? options.workers : std::max(1, QThread::idealThreadCount()));
        m_workers.reserve(count);
        for (int i = 0; i < count; ++i) {
            Worker w;
            w.thread = std::make_unique<QThread>();
            w.thread->setObjectName(QStringLiteral("%1-%2").arg(name).arg(i));
            if (QAbstractEventDispatcher* d = dispatcher ? dispatcher() : nullptr)
                w.thread->setEventDispatcher(d); // the thread owns it from here
            w.worker = make();
            w.worker->moveToThread(w.thread.get());
            QObject::connect(w.thread.get(), &QThread::finished, w.worker, &QObject::deleteLater);
            w.inbox = std::make_shared<Inbox>();
            // Direct: runs in the worker thread, which queues the record for the owner's thread.
            QObject::connect(
                w.worker, &W::finished, w.worker,
                [outbox = m_outbox, owner](const RequestRecord& record) { outbox->push(owner, record); },
                Qt::DirectConnection);
            w.thread->start();
            m_workers.push_back(std::move(w));
        }
    }

    void send(HttpRequest request)
    {
        Worker& w = m_workers[m_next.fetch_add(1, std::memory_order_relaxed) % m_workers.size()];
        w.inbox->push(w.worker, std::move(request));
    }

    void cancelAll(const QString& why)
    {
        for (Worker& w : m_workers)
            w.inbox->push(w.worker, Cancel { why });
    }

    // Pulled, the records wait in the queue until the owner's thread calls pullRecords(), which emits
    // them there and then: the owner, which wakes often anyway, saves a wake-up per batch of records.
    void setRecordsPulled(Transport* owner, bool pulled) { m_outbox->setPulled(owner, pulled); }
    void pullRecords(Transport* owner) { m_outbox->drain(owner); }

    int size() const { return static_cast<int>(m_workers.size()); }
    QThread* thread(int i) const { return m_workers[static_cast<std::size_t>(i)].thread.get(); }

private:
    struct Cancel
    {
        QString why;
    };
    // Requests and cancels for one worker, in the order they were given.
    struct Inbox
    {
        std::mutex mutex;
        std::vector<std::variant<HttpRequest, Cancel>> items;

        void push(W* worker, std::variant<HttpRequest, Cancel> item)
        {
            std::unique_lock lock(mutex);
            items.push_back(std::move(item));
            if (items.size() > 1)
                return; // a drain is on its way
            lock.unlock();
            QMetaObject::invokeMethod(
                worker, [this, worker] { drain(worker); }, Qt::QueuedConnection);
        }
        void drain(W* worker)
        {
            std::vector<std::variant<HttpRequest, Cancel>> taken;
            {
                std::lock_guard lock(mutex);
                taken.swap(items);
            }
            for (const auto& item : taken) {
                if (const auto* request = std::get_if<HttpRequest>(&item))
                    worker->start(*request);
                else
                    worker->cancelAll(std::get<Cancel>(item).why);
            }
        }
    };
    // Finished records of every worker, for the owner's thread.
    struct Outbox
    {
        std::mutex mutex;
        std::vector<RequestRecord> records;
        bool pulled = false; // the owner takes them (pullRecords()); nobody is woken for them

        void push(Transport* owner, const RequestRecord& record)
        {
            std::unique_lock lock(mutex);
            records.push_back(record);
            if (pulled || records.size() > 1)
                return; // taken at the owner's next pull, or a drain is on its way
            lock.unlock();
            post(owner);
        }
        void setPulled(Transport* owner, bool on)
        {
            std::unique_lock lock(mutex);
            const bool waiting = pulled && !on && !records.empty();
            pulled = on;
            lock.unlock();
            if (waiting) // they were left for a pull that will not come
                post(owner);
        }
        void post(Transport* owner)
        {
            QMetaObject::invokeMethod(
                owner, [this, owner] { drain(owner); }, Qt::QueuedConnection);
        }
        void drain(Transport* owner)
        {
            std::vector<RequestRecord> taken;
            {
                std::lock_guard lock(mutex);
                taken.swap(records);
            }
            // A receiver may end the run and delete the transport; the rest then have nobody to go to.
            const QPointer<Transport> alive(owner);
            for (const RequestRecord& record : taken) {
                if (!alive)
                    return;
                Q_EMIT owner->finished(record);
            }
        }
    };
    struct Worker
    {
        std::unique_ptr<QThread> thread;
        W* worker = nullptr; // lives in thread, deleted when it finishes
        std::shared_ptr<Inbox> inbox; // outlives the worker's posted drains (the pool waits for the thread)
    };
    std::vector<Worker> m_workers;
    std::shared_ptr<Outbox> m_outbox = std::make_shared<Outbox>();
    std::atomic<unsigned> m_next { 0 };
};

} // namespace kp
