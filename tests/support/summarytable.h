#pragma once

// A sweep as a user gets it from a report: one vLLM result file per rate, summaries only (no per-request
// lists). The twin's and the window's tests read the same table.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <vector>

namespace kp::testing {

// One row of a published sweep table: what vLLM's benchmark_serving.py reports per rate, without its
// per-request lists.
struct TableRow
{
    double rate, rps, p99Ttft, medianTtft, meanTpot;
};

// A vLLM result file of one row: `requests` (1000 in the table) of 128 prompt and 257 output tokens, the figures
// the table gives and what they give (the duration), no other keys.
inline QByteArray vllmResultFile(const TableRow& row, int requests = 1000)
{
    const int kRequests = requests;
    QJsonObject o;
    o.insert(QStringLiteral("date"), QStringLiteral("20261201-120000"));
    o.insert(QStringLiteral("backend"), QStringLiteral("vllm"));
    o.insert(QStringLiteral("model_id"), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
    o.insert(QStringLiteral("tokenizer_id"), QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
    o.insert(QStringLiteral("num_prompts"), kRequests);
    o.insert(QStringLiteral("request_rate"), row.rate);
    o.insert(QStringLiteral("burstiness"), 1.0);
    o.insert(QStringLiteral("max_concurrency"), QJsonValue::Null);
    o.insert(QStringLiteral("duration"), kRequests / row.rps);
    o.insert(QStringLiteral("completed"), kRequests);
    o.insert(QStringLiteral("total_input_tokens"), 128 * kRequests);
    o.insert(QStringLiteral("total_output_tokens"), 257 * kRequests);
    o.insert(QStringLiteral("request_throughput"), row.rps);
    o.insert(QStringLiteral("output_throughput"), 257 * row.rps);
    o.insert(QStringLiteral("median_ttft_ms"), row.medianTtft);
    o.insert(QStringLiteral("p99_ttft_ms"), row.p99Ttft);
    o.insert(QStringLiteral("mean_tpot_ms"), row.meanTpot);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// Eight rates, 1000 requests of 128 prompt and about 257 output tokens each: throughput peaks at 100 req/s and falls
// after it; TPOT grows with the load.
inline std::vector<TableRow> publishedTable()
{
    return { { 10, 9.87, 210.6, 132.3, 18.5 }, { 20, 19.52, 245.1, 147.6, 19.0 }, { 40, 38.11, 412.6, 173.4, 20.0 },
        { 60, 52.34, 680.3, 228.0, 21.0 }, { 80, 58.90, 1120.4, 353.8, 22.0 }, { 100, 60.12, 1850.6, 577.3, 23.0 },
        { 150, 58.44, 3200.8, 911.7, 25.5 }, { 200, 52.10, 5100.3, 1348.7, 28.0 } };
}

// The table's rows as DIR/vllm-RATEqps.json; false when a file cannot be written.
inline bool writeVllmResultFiles(const std::vector<TableRow>& table, const QString& dir, int requests = 1000)
{
    for (const TableRow& row : table) {
        QFile f(QDir(dir).filePath(QStringLiteral("vllm-%1qps.json").arg(row.rate)));
        if (!f.open(QIODevice::WriteOnly) || f.write(vllmResultFile(row, requests)) < 0)
            return false;
    }
    return true;
}

} // namespace kp::testing
