#pragma once

#include "metrics/requestrecord.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace kp {

// Appends request records to the steps' request files (one JSON line per record) on a thread of its
// own, so that the thread that finishes requests (the one running the dispatch timer) only hands each
// record over: a mutex and a copy into the queue. The writer thread turns records into lines
// (requestRecordToJson) and writes them in batches, one write() per file per batch, at most kMaxDelay
// after a record was handed over or as soon as kBatchLines are waiting: a kill loses at most the
// records handed over in the last kMaxDelay, and the last line written may be cut. Lines are written in
// the order the records were appended. The files are opened, written and closed by the writer thread
// alone.
//
// A write that fails is reported once, by the next append or sync, with "FILE: cannot append: REASON";
// the file that failed takes no more lines.
class RequestLog
{
public:
    static constexpr std::chrono::milliseconds kMaxDelay { 50 };
    static constexpr std::size_t kBatchLines = 512;

    // pathOf names the request file of a step; it is called on the writer thread.
    explicit RequestLog(std::function<QString(int)> pathOf);
    // Writes every record handed over, closes the files and ends the thread.
    ~RequestLog();
    RequestLog(const RequestLog&) = delete;
    RequestLog& operator=(const RequestLog&) = delete;

    // Queues the record for stepIndex's file. False with the error of an earlier write that failed.
    bool append(int stepIndex, const RequestRecord& record, QString* error);
    // Returns once every record appended before it is written (and, with closeStep >= 0, that step's
    // file closed). False with the error of a write that failed and was not reported yet.
    bool sync(int closeStep, QString* error);

private:
    struct Item
    {
        int step = 0;
        RequestRecord record;
    };
    void run();
    bool takeError(QString* error); // m_mutex held

    std::function<QString(int)> m_pathOf;
    std::mutex m_mutex;
    std::condition_variable m_wake; // the writer: records, a sync or the end
    std::condition_variable m_synced; // sync(): a batch is written
    std::vector<Item> m_pending;
    std::vector<int> m_toClose;
    std::uint64_t m_syncWanted = 0;
    std::uint64_t m_syncDone = 0;
    bool m_stop = false;
    QString m_error;
    std::thread m_thread; // last: started once the members above exist
};

} // namespace kp
