#pragma once

#include "client/transport.h"

#include <QAbstractEventDispatcher>
#include <QMetaObject>
#include <QString>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace kp {

// The threads of a transport: one worker object per thread (an HttpWorker or a SocketWorker), requests
// handed out round-robin by queued invocation, records re-emitted as the owner's Transport::finished.
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
            // Direct: re-emitted from the worker thread; receivers in other threads get it queued.
            QObject::connect(w.worker, &W::finished, owner, &Transport::finished, Qt::DirectConnection);
            w.thread->start();
            m_workers.push_back(std::move(w));
        }
    }

    void send(HttpRequest request)
    {
        W* worker = m_workers[m_next.fetch_add(1, std::memory_order_relaxed) % m_workers.size()].worker;
        QMetaObject::invokeMethod(
            worker, [worker, request = std::move(request)] { worker->start(request); }, Qt::QueuedConnection);
    }

    void cancelAll(const QString& why)
    {
        for (auto& w : m_workers) {
            W* worker = w.worker;
            QMetaObject::invokeMethod(
                worker, [worker, why] { worker->cancelAll(why); }, Qt::QueuedConnection);
        }
    }

    int size() const { return static_cast<int>(m_workers.size()); }

private:
    struct Worker
    {
        std::unique_ptr<QThread> thread;
        W* worker = nullptr; // lives in thread, deleted when it finishes
    };
    std::vector<Worker> m_workers;
    std::atomic<unsigned> m_next { 0 };
};

} // namespace kp
