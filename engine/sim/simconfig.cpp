#include "sim/simconfig.h"

#include "metrics/boundedread.h"
#include "sim/simparameters.h"

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

// A parameter of the table, typed and range-checked as the table says.
QString readParameter(const Context& ctx, const SimParameter& parameter, const json& value, SimParams& params)
{
    const std::string key = parameter.key;
    switch (parameter.type) {
    case SimParameterType::Text: {
        QString text;
        if (QString error = readString(ctx, key, value, &text); !error.isEmpty())
            return error;
        parameter.setText(params, text);
        return {};
    }
    case SimParameterType::Boolean:
        if (!value.is_boolean())
            return ctx.error(key, QStringLiteral("expected true or false, got %1").arg(fromStd(value.dump())));
        parameter.set(params, value.get<bool>() ? 1 : 0);
        return {};
    case SimParameterType::Integer:
    case SimParameterType::Number:
        if (!value.is_number())
            return ctx.error(key,
                QStringLiteral("expected %1, got %2")
                    .arg(parameter.type == SimParameterType::Integer ? QStringLiteral("an integer")
                                                                     : QStringLiteral("a number"),
                        fromStd(value.dump())));
        const double v = value.get<double>();
        if (const QString error = simParameterValueError(parameter, v); !error.isEmpty())
            return ctx.error(key, error);
        parameter.set(params, v);
        return {};
    }
    return {};
}

// The server's own settings, beside the model's parameters (simParameters()).
const char* const serverKeys[] = { "api_key", "time_scale", "seed", "faults", "gpus", "twin" };

QStringList knownKeys()
{
    QStringList known { QStringLiteral("preset") };
    for (const SimParameter& p : simParameters())
        known.append(QString::fromLatin1(p.key));
    for (const char* k : serverKeys)
        known.append(QString::fromLatin1(k));
    return known;
}

} // namespace

QString validateSimParams(const SimParams& p)
{
    if (p.modelId.trimmed().isEmpty())
        return QStringLiteral("model: must not be empty");
    for (const SimParameter& parameter : simParameters()) {
        if (!parameter.isNumeric())
            continue;
        if (const QString error = simParameterValueError(parameter, parameter.get(p)); !error.isEmpty())
            return QStringLiteral("%1: %2").arg(QString::fromLatin1(parameter.key), error);
    }
    if (p.kvCapacityTokens < p.blockSize)
        return QStringLiteral("kv_capacity_tokens: %1 tokens do not hold one block of %2 (block_size)")
            .arg(p.kvCapacityTokens)
            .arg(p.blockSize);
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

    const QStringList known = knownKeys();
    for (const auto& [key, value] : doc.items()) {
        if (!known.contains(fromStd(key)))
            return ctx.error(key, QStringLiteral("unknown field (known: %1)").arg(known.join(QStringLiteral(", "))));
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
        if (const SimParameter* parameter = findSimParameter(fromStd(key)))
            error = readParameter(ctx, *parameter, value, p);
        else if (key == "api_key")
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
