// libFuzzer: result files as the reference tools write them, per-request logs, and the importers.
#include "metrics/resultjson.h"
#include "runs/importers.h"
#include "runs/savedrun.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    kp::ResultJson::read(bytes, QStringLiteral("fuzz.json"));
    QString error;
    for (const QByteArray& line : bytes.split('\n'))
        kp::requestRecordFromJson(line, &error);

    // The importers read files: one temporary file per input, each format tried.
    QTemporaryDir dir;
    if (!dir.isValid())
        return 0;
    const QString path
        = dir.filePath(size > 0 && data[0] == '{' ? QStringLiteral("in.json") : QStringLiteral("in.jsonl"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return 0;
    file.close();
    for (const kp::ImportFormat format : { kp::ImportFormat::Auto, kp::ImportFormat::Vllm, kp::ImportFormat::Sglang,
             kp::ImportFormat::Guidellm, kp::ImportFormat::Aiperf }) {
        kp::ImportOptions options;
        options.format = format;
        const kp::ImportResult r = kp::importRun({ path }, dir.filePath(QStringLiteral("runs")), options);
        if (r.ok())
            kp::readSavedRun(r.dir);
    }
    return 0;
}
