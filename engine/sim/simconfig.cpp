#include "sim/simconfig.h"

#include "metrics/boundedread.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace kp::sim {

using nlohmann::json;

namespace {

QString fromStd(const std::string& text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// 1-based line of the first occurrence of "key": in the text; 0 when not found.
int lineOfKey(const QByteArray& text, const std::string& key)
{
    const QByteArray quoted = '"' + QByteArray::fromStdString(key) + '"';
    qsizetype from = 0;
    while (true) {
        const qsizetype at = text.indexOf(quoted, from);
        if (at < 0)
            return 0;
        qsizetype after = at + quoted.size();
        while (after < text.size()
            && (text[after] == ' ' || text[after] == '\t' || text[after] == '\r' || text[after] == '\n'))
            ++after;
        if (after < text.size() && text[after] == ':')
            return int(QByteArrayView(text).first(at).count('\n')) + 1;
        from = at + 1;
    }
}

struct Context
{
    const QByteArray& text;
    const QString& source;

    QString error(const std::string& key, const QString& message) const
    {
        const int line = lineOfKey(text, key);
        const QString where = line > 0 ? QStringLiteral("%1:%2").arg(source).arg(line) : source;
        return QStringLiteral("%1: field '%2': %3").arg(where, fromStd(key), message);
    }
};

QString readInt(const Context& ctx, const std::string& key, const json& value, int minimum, int* out)
{
    if (!value.is_number_integer())
        return ctx.error(key, QStringLiteral("expected an integer, got %1").arg(fromStd(value.dump())));
    const long long v = value.get<long long>();
    if (v < minimum || v > std::numeric_limits<int>::max())
        return ctx.error(key, QStringLiteral("expected an integer of at least %1, got %2").arg(minimum).arg(v));
    *out = int(v);
    return {};
}

QString readDouble(const Context& ctx, const std::string& key, const json& value, double* out)
{
    if (!value.is_number())
        return ctx.error(key, QStringLiteral("expected a number, got %1").arg(fromStd(value.dump())));
    *out = value.get<double>();
    return {};
}

QString readString(const Context& ctx, const std::string& key, const json& value, QString* out)
{
    if (!value.is_string())
        return ctx.error(key, QStringLiteral("expected a string, got %1").arg(fromStd(value.dump())));
    *out = fromStd(value.get<std::string>());
    return {};
}

const char* const knownKeys[]
    = { "preset", "model", "max_model_len", "max_num_seqs", "max_num_batched_tokens", "kv_capacity_tokens",
          "block_size", "t_base_ms", "per_decode_ms", "per_prefill_token_ms", "per_kv_token_ms", "eos_mean_fraction",
          "kv_watermark", "per_waiting_ms", "prefix_cache", "api_key", "time_scale", "seed", "faults", "gpus", "twin" };

} // namespace

QString validateSimParams(const SimParams& p)
{
    if (p.modelId.trimmed().isEmpty())
        return QStringLiteral("model: must not be empty");
    if (p.maxModelLen < 2)
        return QStringLiteral("max_model_len: must be at least 2");
    if (p.maxNumSeqs < 1)
        return QStringLiteral("max_num_seqs: must be at least 1");
    if (p.maxNumBatchedTokens < 1)
        return QStringLiteral("max_num_batched_tokens: must be at least 1");
    if (p.blockSize < 1)
        return QStringLiteral("block_size: must be at least 1");
    if (p.kvCapacityTokens < p.blockSize)
        return QStringLiteral("kv_capacity_tokens: must hold at least one block");
    const auto finiteAtLeast = [](double v, double minimum) { return std::isfinite(v) && v >= minimum; };
    if (!finiteAtLeast(p.tBaseMs, 0) || p.tBaseMs <= 0)
        return QStringLiteral("t_base_ms: must be a number above 0");
    if (!finiteAtLeast(p.perDecodeMs, 0))
        return QStringLiteral("per_decode_ms: must be a number of at least 0");
    if (!finiteAtLeast(p.perPrefillTokenMs, 0))
        return QStringLiteral("per_prefill_token_ms: must be a number of at least 0");
    if (!finiteAtLeast(p.perKvTokenMs, 0))
        return QStringLiteral("per_kv_token_ms: must be a number of at least 0");
    if (!finiteAtLeast(p.eosMeanFraction, 0) || p.eosMeanFraction <= 0 || p.eosMeanFraction > 1)
        return QStringLiteral("eos_mean_fraction: must be above 0 and at most 1");
    if (!finiteAtLeast(p.kvWatermark, 0) || p.kvWatermark >= 1)
        return QStringLiteral("kv_watermark: must be at least 0 and below 1");
    if (!finiteAtLeast(p.perWaitingMs, 0))
        return QStringLiteral("per_waiting_ms: must be a number of at least 0");
    if (!finiteAtLeast(p.kvWatermark, 0) || p.kvWatermark >= 1)
        return QStringLiteral("kv_watermark: must be at least 0 and below 1");
    if (!finiteAtLeast(p.perWaitingMs, 0))
        return QStringLiteral("per_waiting_ms: must be a number of at least 0");
    return {};
}

QString parseSimReasoning(const QString& text, SimReasoning& reasoning)
{
    const QStringList parts = text.trimmed().split(QLatin1Char('~'));
    SimReasoning parsed;
    bool okMin = false;
    bool okMax = true;
    parsed.min = parts.value(0).trimmed().toInt(&okMin);
    parsed.max = parts.size() == 2 ? parts.value(1).trimmed().toInt(&okMax) : parsed.min;
    constexpr int limit = 1000000;
    if (parts.size() > 2 || !okMin || !okMax || parsed.min < 0 || parsed.max < parsed.min || parsed.max > limit)
        return QStringLiteral("'%1' is not a token count N or a range N~M (0 <= N <= M <= %2)").arg(text).arg(limit);
    reasoning = parsed;
    return {};
}

QString applySimConfig(const QByteArray& text, const QString& sourceName, SimServerOptions& options)
{
    json doc;
    try {
        doc = json::parse(text.constBegin(), text.constEnd());
    } catch (const json::parse_error& e) {
        const qsizetype byte = std::min<qsizetype>(qsizetype(e.byte), text.size());
        const QByteArrayView before = QByteArrayView(text).first(std::max<qsizetype>(0, byte - 1));
        const int line = int(before.count('\n')) + 1;
        const qsizetype lineStart = before.lastIndexOf('\n') + 1;
        const int column = int(before.size() - lineStart) + 1;
        QString what = fromStd(e.what());
        const qsizetype bracket = what.indexOf(QLatin1String("] "));
        if (what.startsWith(QLatin1Char('[')) && bracket > 0)
            what = what.mid(bracket + 2);
        return QStringLiteral("%1:%2:%3: invalid JSON: %4").arg(sourceName).arg(line).arg(column).arg(what);
    } catch (const json::exception& e) {
        return QStringLiteral("%1: unreadable JSON: %2").arg(sourceName, fromStd(e.what()));
    }
    if (!doc.is_object())
        return QStringLiteral("%1: expected a JSON object of simulator settings").arg(sourceName);

    const Context ctx { text, sourceName };
    SimServerOptions next = options;

    for (const auto& [key, value] : doc.items()) {
        if (std::find_if(std::begin(knownKeys), std::end(knownKeys), [&name = key](const char* k) { return name == k; })
            == std::end(knownKeys)) {
            QStringList known;
            for (const char* k : knownKeys)
                known.append(QString::fromLatin1(k));
            return ctx.error(key, QStringLiteral("unknown field (known: %1)").arg(known.join(QStringLiteral(", "))));
        }
    }

    if (const auto it = doc.find("preset"); it != doc.end()) {
        QString name;
        if (QString error = readString(ctx, "preset", *it, &name); !error.isEmpty())
            return error;
        const std::optional<SimPreset> preset = presetByName(name);
        if (!preset) {
            QStringList names;
            for (const SimPreset& p : presets())
                names.append(p.name);
            return ctx.error("preset",
                QStringLiteral("unknown preset '%1' (known: %2)").arg(name, names.join(QStringLiteral(", "))));
        }
        next.params = preset->params;
    }

    SimParams& p = next.params;
    for (const auto& [key, value] : doc.items()) {
        QString error;
        if (key == "preset")
            continue;
        if (key == "model")
            error = readString(ctx, key, value, &p.modelId);
        else if (key == "max_model_len")
            error = readInt(ctx, key, value, 2, &p.maxModelLen);
        else if (key == "max_num_seqs")
            error = readInt(ctx, key, value, 1, &p.maxNumSeqs);
        else if (key == "max_num_batched_tokens")
            error = readInt(ctx, key, value, 1, &p.maxNumBatchedTokens);
        else if (key == "kv_capacity_tokens")
            error = readInt(ctx, key, value, 1, &p.kvCapacityTokens);
        else if (key == "block_size")
            error = readInt(ctx, key, value, 1, &p.blockSize);
        else if (key == "t_base_ms")
            error = readDouble(ctx, key, value, &p.tBaseMs);
        else if (key == "per_decode_ms")
            error = readDouble(ctx, key, value, &p.perDecodeMs);
        else if (key == "per_prefill_token_ms")
            error = readDouble(ctx, key, value, &p.perPrefillTokenMs);
        else if (key == "per_kv_token_ms")
            error = readDouble(ctx, key, value, &p.perKvTokenMs);
        else if (key == "eos_mean_fraction")
            error = readDouble(ctx, key, value, &p.eosMeanFraction);
        else if (key == "kv_watermark")
            error = readDouble(ctx, key, value, &p.kvWatermark);
        else if (key == "per_waiting_ms")
            error = readDouble(ctx, key, value, &p.perWaitingMs);
        else if (key == "prefix_cache") {
            if (!value.is_boolean())
                error = ctx.error(key, QStringLiteral("expected true or false, got %1").arg(fromStd(value.dump())));
            else
                p.prefixCache = value.get<bool>();
        } else if (key == "api_key")
            error = readString(ctx, key, value, &next.apiKey);
        else if (key == "time_scale") {
            error = readDouble(ctx, key, value, &next.timeScale);
            if (error.isEmpty() && !(next.timeScale > 0 && next.timeScale <= 1e6))
                error = ctx.error(key, QStringLiteral("must be above 0 and at most 1000000"));
        } else if (key == "seed") {
            if (!value.is_number_unsigned())
                error = ctx.error(
                    key, QStringLiteral("expected a non-negative integer, got %1").arg(fromStd(value.dump())));
            else
                next.seed = value.get<quint64>();
        } else if (key == "gpus") {
            error = readInt(ctx, key, value, 0, &next.gpus);
            if (error.isEmpty() && next.gpus > 64)
                error = ctx.error(key, QStringLiteral("must be at most 64"));
        } else if (key == "faults") {
            if (!value.is_array()) {
                error = ctx.error(key, QStringLiteral("expected an array of \"KIND:RATE\" strings"));
            } else {
                for (const json& item : value) {
                    if (!item.is_string()) {
                        error = ctx.error(
                            key, QStringLiteral("expected \"KIND:RATE\" strings, got %1").arg(fromStd(item.dump())));
                        break;
                    }
                    if (const QString faultError = applyFaultSpec(fromStd(item.get<std::string>()), next.faults);
                        !faultError.isEmpty()) {
                        error = ctx.error(key, faultError);
                        break;
                    }
                }
            }
        }
        if (!error.isEmpty())
            return error;
    }

    if (const QString error = validateSimParams(p); !error.isEmpty()) {
        const qsizetype colon = error.indexOf(QLatin1Char(':'));
        const std::string field = error.left(colon).toStdString();
        return ctx.error(field, error.mid(colon + 2));
    }
    options = next;
    return {};
}

QString applySimConfigFile(const QString& path, SimServerOptions& options)
{
    QString error;
    const std::optional<QByteArray> data = readBoundedFile(path, kMaxSettingsFileBytes, &error);
    if (!data)
        return error;
    return applySimConfig(*data, path, options);
}

QString simPresetsHelp()
{
    constexpr qsizetype width = 100;
    QString text;
    for (const SimPreset& p : presets()) {
        text += QStringLiteral("  %1 (model %2)\n").arg(p.name, p.params.modelId);
        QString line = QStringLiteral("    ");
        for (const QString& word : p.description.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (line.size() > 4 && line.size() + 1 + word.size() > width) {
                text += line + QLatin1Char('\n');
                line = QStringLiteral("    ");
            }
            if (line.size() > 4)
                line += QLatin1Char(' ');
            line += word;
        }
        text += line + QStringLiteral("\n\n");
    }
    return text;
}

QString simFaultsHelp()
{
    return QStringLiteral(
        "  500, 503          answer with that HTTP status and an error body, at once\n"
        "  429               answer 429 with Retry-After: 1, at once\n"
        "  error-body        HTTP 200 whose body is an error object; streamed: an error event mid-stream,\n"
        "                    then [DONE]\n"
        "  malformed         one event mid-stream (or the whole body) is invalid JSON\n"
        "  cut               close the connection mid-stream, before [DONE]\n"
        "  stall[:SECONDS]   hold the output mid-stream for SECONDS (default 2), then resume\n"
        "  slow-first-byte[:SECONDS]  hold the response headers for SECONDS (default 2)\n");
}

} // namespace kp::sim
