// libFuzzer: a step's request records as steps/NNN.requests.jsonl holds them (and its scrapes as
// steps/NNN.metrics.jsonl), read as the views read them, then the step's second-by-second timeline.
#include "runs/savedrun.h"
#include "runs/steptimeline.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // One file, rewritten for every input: the reader reads a path.
    static QTemporaryDir dir;
    if (!dir.isValid())
        return 0;
    static const QString path = dir.filePath(QStringLiteral("000.requests.jsonl"));
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
            return 0;
    }
    std::vector<kp::RequestRecord> records;
    QString error;
    QStringList skipped;
    if (!kp::readRequestRecords(path, &records, &error, &skipped))
        return 0;
    std::vector<kp::RequestRecord> strict;
    const bool strictOk = kp::readRequestRecords(path, &strict, &error);
    // The lenient reader keeps every record the strict one does; with nothing skipped, they agree.
    if (strictOk && strict.size() != records.size())
        __builtin_trap();
    if (skipped.isEmpty() != strictOk)
        __builtin_trap();

    // The step's duration from the first byte: 0 to 30 s, or unknown (0) now and then, whose bound is
    // a day (the slow case, kept rare so the smoke run stays fast).
    const double durationS = size > 0 && data[0] % 64 != 0 ? double(data[0] % 31) + 0.5 : 0.0;
    const kp::StepTimeline t
        = kp::StepTimeline::compute(records, kp::StepTelemetry::samplesFromJsonl(bytes), durationS);
    const qint64 boundS = kp::StepTimeline::boundNs(durationS) / 1000000000;
    if (t.seconds.size() > std::size_t(boundS) + 1 || t.recordsOutside > qint64(records.size()))
        __builtin_trap();
    qint64 offered = 0;
    for (std::size_t i = 0; i < t.seconds.size(); ++i) {
        if (t.seconds[i].second != int(i))
            __builtin_trap();
        offered += t.seconds[i].offered;
    }
    if (offered + t.recordsOutside > qint64(records.size()))
        __builtin_trap();
    if (!t.isEmpty())
        t.requestsIn(int(t.seconds.size()) - 1);
    kp::timelineCsvRows(1, QStringLiteral("5 req/s"), t);
    t.leftOutNotes(path, path, durationS);
    return 0;
}
