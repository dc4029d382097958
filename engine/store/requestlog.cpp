#include "store/requestlog.h"

#include "store/runwriter.h"

#include <QByteArray>
#include <QFile>

#include <algorithm>
#include <map>

namespace kp {

namespace {

// The file of one step, as the writer thread holds it.
struct StepFile
{
    std::unique_ptr<QFile> file;
    bool failed = false; // a write failed: no more lines, so none lands after a cut one
};

} // namespace

RequestLog::RequestLog(std::function<QString(int)> pathOf)
    : m_pathOf(std::move(pathOf))
    , m_thread([this] { run(); })
{ }

RequestLog::~RequestLog()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

bool RequestLog::takeError(QString* error)
{
    if (m_error.isEmpty())
        return true;
    if (error)
        *error = m_error;
    m_error.clear();
    return false;
}

bool RequestLog::append(int stepIndex, const RequestRecord& record, QString* error)
{
    std::size_t waiting = 0;
    {
        const std::lock_guard lock(m_mutex);
        if (!takeError(error))
            return false;
        m_pending.push_back({ stepIndex, record });
        waiting = m_pending.size();
    }
    // The writer sleeps until the first record of a batch, then at most kMaxDelay or until the batch is full.
    if (waiting == 1 || waiting == kBatchLines)
        m_wake.notify_one();
    return true;
}

bool RequestLog::sync(int closeStep, QString* error)
{
    std::unique_lock lock(m_mutex);
    if (closeStep >= 0)
        m_toClose.push_back(closeStep);
    const std::uint64_t ticket = ++m_syncWanted;
    m_wake.notify_one();
    m_synced.wait(lock, [&] { return m_syncDone >= ticket; });
    return takeError(error);
}

void RequestLog::run()
{
    std::map<int, StepFile> files;
    std::vector<Item> batch;
    std::vector<int> closes;
    std::vector<std::pair<int, QByteArray>> lines; // per step, in the order the steps first appear
    std::unique_lock lock(m_mutex);
    for (;;) {
        const auto urgent = [&] { return m_stop || m_syncWanted > m_syncDone || m_pending.size() >= kBatchLines; };
        m_wake.wait(lock, [&] { return urgent() || !m_pending.empty(); });
        if (!urgent())
            m_wake.wait_for(lock, kMaxDelay, urgent);
        batch.swap(m_pending);
        closes.swap(m_toClose);
        const std::uint64_t synced = m_syncWanted;
        const bool stop = m_stop;
        lock.unlock();

        QString failure;
        for (const Item& item : batch) {
            auto it = std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == item.step; });
            if (it == lines.end()) {
                lines.emplace_back(item.step, QByteArray());
                it = lines.end() - 1;
            }
            it->second += requestRecordToJson(item.record);
            it->second += '\n';
        }
        batch.clear();
        for (auto& [step, data] : lines) {
            if (data.isEmpty())
                continue;
            StepFile& f = files[step];
            if (!f.failed && !f.file) {
                f.file = std::make_unique<QFile>(m_pathOf(step));
                if (!f.file->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)) {
                    f.failed = true;
                    if (failure.isEmpty())
                        failure
                            = QStringLiteral("%1: cannot append: %2").arg(f.file->fileName(), f.file->errorString());
                }
            }
            // One unbuffered write per batch: a line is on disk once the batch it came in is written.
            if (!f.failed && !writeFully(*f.file, data)) {
                f.failed = true;
                if (failure.isEmpty())
                    failure = QStringLiteral("%1: cannot append: %2").arg(f.file->fileName(), f.file->errorString());
            }
        }
        lines.clear();
        for (int step : closes)
            files.erase(step);
        closes.clear();
        if (stop)
            files.clear();

        lock.lock();
        if (!failure.isEmpty() && m_error.isEmpty())
            m_error = failure;
        m_syncDone = synced;
        m_synced.notify_all();
        if (stop && m_pending.empty())
            return;
    }
}

} // namespace kp
