// How fast, and in how much memory, the ShareGPT reader goes through a file the size of the common
// ShareGPT_V3_unfiltered_cleaned_split.json (about 670 MB). The file is generated (deterministic
// random words, ShareGPT's layout and a long-tailed length distribution) unless --file names one.

#include "dataset/dataset.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <sys/resource.h>

namespace {

// Peak resident set size so far, in MiB (Linux: ru_maxrss is in KiB).
double peakRssMiB()
{
    rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

// Current resident set size, MiB, from /proc/self/statm.
double currentRssMiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * 4096.0 / (1024.0 * 1024.0) : 0;
}

const char* const kWords[] = { "the", "model", "answer", "question", "explain", "server", "token", "python", "function",
    "data", "value", "result", "please", "write", "code", "example", "error", "memory", "cache", "history", "story",
    "music", "travel", "recipe", "\\u00e9t\\u00e9", "caf\\u00e9", "\\u4e2d\\u6587", "naïve", "line\\nbreak",
    "quote\\\"d", "tab\\tbed" };

void appendWords(std::string& out, std::mt19937_64& rng, int count)
{
    std::uniform_int_distribution<std::size_t> pick(0, std::size(kWords) - 1);
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            out += ' ';
        out += kWords[pick(rng)];
    }
}

int logNormal(std::mt19937_64& rng, double median, double sigma, int lo, int hi)
{
    std::normal_distribution<double> normal(std::log(median), sigma);
    return std::clamp(static_cast<int>(std::lround(std::exp(normal(rng)))), lo, hi);
}

// Writes about `megabytes` MB of ShareGPT JSON; returns the number of conversations.
qint64 generate(const QString& path, qint64 megabytes)
{
    std::FILE* f = std::fopen(QFile::encodeName(path).constData(), "wb");
    if (!f)
        qFatal("cannot write %s", qPrintable(path));
    std::mt19937_64 rng(670);
    const qint64 target = megabytes * 1000 * 1000;
    qint64 written = 0;
    qint64 conversations = 0;
    std::string chunk = "[";
    std::uniform_real_distribution<double> unit(0, 1);
    while (written + qint64(chunk.size()) < target) {
        if (conversations > 0)
            chunk += ",\n";
        chunk += R"({"id": "bench-)" + std::to_string(conversations) + R"(", "conversations": [)";
        const int turns = unit(rng) < 0.02 ? 1 : 2 * logNormal(rng, 2, 0.7, 1, 20);
        for (int t = 0; t < turns; ++t) {
            chunk += t ? ", " : "";
            chunk += t % 2 ? R"({"from": "gpt", "value": ")" : R"({"from": "human", "value": ")";
            appendWords(chunk, rng, t % 2 ? logNormal(rng, 220, 0.9, 1, 4000) : logNormal(rng, 60, 1.3, 1, 6000));
            chunk += "\"}";
        }
        chunk += "]}";
        ++conversations;
        if (chunk.size() > (1u << 20)) {
            written += qint64(std::fwrite(chunk.data(), 1, chunk.size(), f));
            chunk.clear();
        }
    }
    chunk += "]\n";
    std::fwrite(chunk.data(), 1, chunk.size(), f);
    std::fclose(f);
    return conversations;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("ShareGPT reader: time and peak memory on a large file."));
    parser.addHelpOption();
    const QCommandLineOption fileOption(QStringLiteral("file"),
        QStringLiteral("Read this file (default: generate one in a new temporary directory)."), QStringLiteral("PATH"));
    const QCommandLineOption sizeOption(QStringLiteral("megabytes"),
        QStringLiteral("Size of the generated file (default 670)."), QStringLiteral("MB"), QStringLiteral("670"));
    const QCommandLineOption promptsOption(QStringLiteral("num-prompts"),
        QStringLiteral("Prompts to keep (default 1000)."), QStringLiteral("N"), QStringLiteral("1000"));
    const QCommandLineOption keepOption(QStringLiteral("keep"), QStringLiteral("Keep the generated file."));
    parser.addOptions({ fileOption, sizeOption, promptsOption, keepOption });
    parser.process(app);

    QString path = parser.value(fileOption);
    bool generated = false;
    QTemporaryDir tempDir(QDir::tempPath() + QStringLiteral("/kneepoint-bench-sharegpt-XXXXXX"));
    if (path.isEmpty()) {
        if (!tempDir.isValid())
            qFatal("cannot create a directory under %s", qPrintable(QDir::tempPath()));
        tempDir.setAutoRemove(!parser.isSet(keepOption));
        path = tempDir.filePath(QStringLiteral("sharegpt.json"));
        QElapsedTimer t;
        t.start();
        const qint64 n = generate(path, parser.value(sizeOption).toLongLong());
        generated = true;
        std::printf("generated %s: %lld conversations, %.1f MB in %.1f s\n", qPrintable(path),
            static_cast<long long>(n), double(QFileInfo(path).size()) / 1e6, double(t.elapsed()) / 1e3);
    }
    const double rssBefore = currentRssMiB();
    const double peakBefore = peakRssMiB();
    kp::ShareGptOptions options;
    options.numPrompts = parser.value(promptsOption).toInt();
    int lastPercent = -1;
    options.progress = [&lastPercent](qint64 done, qint64 total) {
        const int percent = total > 0 ? int(done * 100 / total) : 0;
        if (percent / 25 != lastPercent / 25)
            std::printf("  progress %d%%\n", percent);
        lastPercent = percent;
    };
    QElapsedTimer timer;
    timer.start();
    const kp::DatasetResult result = kp::loadShareGpt(path, options);
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (!result.ok()) {
        std::fprintf(stderr, "error: %s\n", qPrintable(result.error));
        return 1;
    }
    const kp::ShareGptStats& s = result.shareGpt;
    std::printf(
        "read %.1f MB in %.2f s (%.0f MB/s)\n", double(s.bytes) / 1e6, seconds, double(s.bytes) / 1e6 / seconds);
    std::printf("conversations %lld, usable %lld, kept %zu (too few turns %lld, prompt short %lld, output short %lld, "
                "prompt long %lld, total long %lld)\n",
        static_cast<long long>(s.conversations), static_cast<long long>(s.usable), result.prompts.size(),
        static_cast<long long>(s.tooFewTurns), static_cast<long long>(s.promptTooShort),
        static_cast<long long>(s.outputTooShort), static_cast<long long>(s.promptTooLong),
        static_cast<long long>(s.totalTooLong));
    std::printf("resident memory: %.1f MiB before, peak %.1f MiB (peak before reading %.1f MiB)\n", rssBefore,
        peakRssMiB(), peakBefore);
    if (generated && parser.isSet(keepOption))
        std::printf("kept %s\n", qPrintable(path));
    return 0;
}
