#include "sseparser.h"

#include "client/simdjsonfields.h"
#include "metrics/inerttext.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

namespace kp {

namespace {

constexpr char utf8Bom[] = { '\xEF', '\xBB', '\xBF' };

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool isSseFieldLine(QByteArrayView line)
{
    if (line.startsWith(':'))
        return true;
    const qsizetype colon = line.indexOf(':');
    const QByteArrayView field = colon < 0 ? line : line.first(colon);
    return field == "data" || field == "event" || field == "id" || field == "retry";
}

} // namespace

void SseParser::noteBytes(QByteArrayView bytes)
{
    if (m_head.size() < maxHeadBytes) {
        if (m_head.isEmpty()) // one allocation of the final size, not one that doubles: it lives as long as the stream
            m_head.reserve(maxHeadBytes);
        m_head.append(bytes.first(std::min(bytes.size(), maxHeadBytes - m_head.size())));
    }

    if (m_kind == SseBodyKind::Unknown && !m_sawSignificantByte) {
        for (qsizetype i = 0; i < bytes.size(); ++i) {
            const qint64 position = m_bytesFed + i;
            const char c = bytes[i];
            if (isBlank(c) || (position < 3 && c == utf8Bom[position]))
                continue;
            m_sawSignificantByte = true;
            if (c == '{' || c == '[')
                m_kind = SseBodyKind::Json;
            break;
        }
    }
    // Keep the body until it is known to be an event stream: a JSON reply or an error page is read whole.
    if (m_kind != SseBodyKind::EventStream && m_body.size() < maxBodyBytes)
        m_body.append(bytes.first(std::min(bytes.size(), maxBodyBytes - m_body.size())));
    m_bytesFed += bytes.size();
}

qsizetype SseParser::feed(QByteArrayView bytes, std::vector<SseEvent>& events)
{
    return feed(bytes, [this, &events](QByteArrayView type, QByteArrayView data) {
        events.push_back(SseEvent { type.toByteArray(), data.toByteArray(), m_lastEventId });
    });
}

qsizetype SseParser::feed(QByteArrayView bytes, const EventSink& sink)
{
    Q_ASSERT(!m_finished);
    qsizetype count = 0;
    if (bytes.isEmpty())
        return 0;
    noteBytes(bytes);
    if (m_overflowed)
        return 0;

    qsizetype i = 0;
    if (m_skipLf) {
        m_skipLf = false;
        if (bytes[0] == '\n')
            i = 1;
    }
    const qsizetype size = bytes.size();
    const char* const base = bytes.data();
    while (i < size) {
        // The line's end: the first LF, or a CR before it (lines end in CR, LF or CR LF). memchr scans
        // a vector at a time; a CR inside an event is rare, so the second search is over one line.
        const auto* lf = static_cast<const char*>(std::memchr(base + i, '\n', std::size_t(size - i)));
        const char* const stop = lf ? lf : base + size;
        const auto* cr = static_cast<const char*>(std::memchr(base + i, '\r', std::size_t(stop - (base + i))));
        qsizetype end = (cr ? cr : stop) - base;
        if (m_line.size() + (end - i) > maxEventBytes) {
            overflow();
            break;
        }
        if (end == size) {
            m_line.append(bytes.sliced(i));
            break;
        }
        if (m_line.isEmpty()) {
            count += processLine(bytes.sliced(i, end - i), true, sink);
        } else {
            m_line.append(bytes.sliced(i, end - i));
            count += processLine(m_line, false, sink);
            m_line.clear();
        }
        if (m_overflowed)
            break;
        if (bytes[end] == '\r') {
            if (end + 1 == size)
                m_skipLf = true;
            else if (bytes[end + 1] == '\n')
                ++end;
        }
        i = end + 1;
    }
    keepDataView();
    return count;
}

void SseParser::keepDataView()
{
    if (!m_dataInView)
        return;
    m_data.resize(0);
    m_data.append(m_dataView);
    m_data.append('\n');
    m_dataView = {};
    m_dataInView = false;
}

std::vector<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    std::vector<SseEvent> events;
    feed(bytes, events);
    return events;
}

qsizetype SseParser::finish(std::vector<SseEvent>& events)
{
    return finish([this, &events](QByteArrayView type, QByteArrayView data) {
        events.push_back(SseEvent { type.toByteArray(), data.toByteArray(), m_lastEventId });
    });
}

qsizetype SseParser::finish(const EventSink& sink)
{
    qsizetype count = 0;
    if (m_finished)
        return 0;
    if (m_overflowed) {
        m_finished = true;
        return 0;
    }
    if (!m_line.isEmpty()) {
        m_endedWithoutBlankLine = true;
        const QByteArray line = std::exchange(m_line, {});
        count += processLine(line, false, sink);
    }
    if (m_hasData) {
        m_endedWithoutBlankLine = true;
        count += dispatch(sink);
    }
    m_finished = true;
    return count;
}

std::vector<SseEvent> SseParser::finish()
{
    std::vector<SseEvent> events;
    finish(events);
    return events;
}

void SseParser::reset()
{
    *this = SseParser();
}

qsizetype SseParser::processLine(QByteArrayView line, bool inBytes, const EventSink& sink)
{
    if (m_firstLine) {
        m_firstLine = false;
        if (line.startsWith(QByteArrayView(utf8Bom, 3)))
            line = line.sliced(3);
    }
    if (m_kind == SseBodyKind::Unknown && !line.trimmed().isEmpty()) {
        m_kind = isSseFieldLine(line) ? SseBodyKind::EventStream : SseBodyKind::Other;
        if (m_kind == SseBodyKind::EventStream)
            m_body.clear();
    }

    if (line.isEmpty())
        return dispatch(sink);
    if (line.front() == ':')
        return 0; // comment, e.g. a keep-alive
    const qsizetype colon = line.indexOf(':');
    QByteArrayView field = line;
    QByteArrayView value;
    if (colon >= 0) {
        field = line.first(colon);
        value = line.sliced(colon + 1);
        if (value.startsWith(' '))
            value = value.sliced(1);
    }
    if (field == "data") {
        if (!m_hasData && inBytes) {
            m_dataView = value;
            m_dataInView = true;
            m_hasData = true;
            return 0;
        }
        keepDataView();
        if (m_data.size() + value.size() + 1 > maxEventBytes) {
            overflow();
            return 0;
        }
        m_data.append(value);
        m_data.append('\n');
        m_hasData = true;
    } else if (field == "event") {
        m_type = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastEventId = value.toByteArray();
    } else if (field == "retry") {
        bool digits = !value.isEmpty();
        for (char c : value)
            digits = digits && c >= '0' && c <= '9';
        if (digits) {
            bool ok = false;
            const qint64 ms = value.toLongLong(&ok);
            if (ok)
                m_retryMs = ms;
        }
    }
    // Any other field is ignored, as the specification asks.
    return 0;
}

void SseParser::overflow()
{
    if (m_kind == SseBodyKind::Unknown && m_sawSignificantByte) { // judge the body by its first line
        QByteArrayView first(m_head);
        if (first.startsWith(QByteArrayView(utf8Bom, 3)))
            first = first.sliced(3);
        const qsizetype end = std::min(first.indexOf('\n') < 0 ? first.size() : first.indexOf('\n'),
            first.indexOf('\r') < 0 ? first.size() : first.indexOf('\r'));
        m_kind = isSseFieldLine(first.first(end).trimmed()) ? SseBodyKind::EventStream : SseBodyKind::Other;
        if (m_kind == SseBodyKind::EventStream)
            m_body.clear();
    }
    m_overflowed = true;
    m_line = {};
    m_data = {};
    m_dataView = {};
    m_dataInView = false;
    m_hasData = false;
}

qsizetype SseParser::dispatch(const EventSink& sink)
{
    if (!m_hasData) {
        m_type.clear();
        return 0;
    }
    // Without the '\n' after the last data line.
    sink(m_type, m_dataInView ? m_dataView : QByteArrayView(m_data).chopped(1));
    m_type.clear();
    m_dataView = {};
    m_dataInView = false;
    m_hasData = false;
    // Freed, not kept for the next event: most events are handed out as views, and a held stream should
    // not keep a buffer it rarely needs.
    m_data = {};
    return 1;
}

namespace {

using Json = nlohmann::json;

QString toQString(const Json& value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

std::optional<qint64> toInteger(const Json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        return std::nullopt;
    return static_cast<qint64>(std::llround(it->get<double>()));
}

QString describeError(const Json& error, const Json& container)
{
    // {"error": "text"}, {"error": {"message", "type", "code"}} (OpenAI, vLLM mid-stream) or
    // {"object": "error", "message", "type", "code"} (vLLM's ErrorResponse).
    const Json& details = error.is_object() ? error : container;
    QString message;
    if (error.is_string())
        message = toQString(error);
    else if (const auto it = details.find("message"); it != details.end() && it->is_string())
        message = toQString(*it);
    else
        message = QString::fromStdString((error.is_null() ? container : error).dump());
    QStringList extras;
    if (const auto it = details.find("type"); it != details.end() && it->is_string())
        extras << toQString(*it);
    if (const auto it = details.find("code"); it != details.end() && !it->is_null())
        extras << QStringLiteral("code ") + (it->is_string() ? toQString(*it) : QString::fromStdString(it->dump()));
    if (!extras.isEmpty())
        message += QStringLiteral(" (") + extras.join(QStringLiteral(", ")) + QLatin1Char(')');
    // The server's words, shown in a terminal and the window: nothing in them may act there.
    return inertText(message);
}

QString excerpt(QByteArrayView data)
{
    return inertExcerpt(data, 120);
}

// The offset of the first byte that does not belong to well-formed UTF-8 (RFC 3629: no overlong forms,
// no surrogates, nothing past U+10FFFF), or -1.
qsizetype firstInvalidUtf8(QByteArrayView bytes)
{
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int length = 0;
        unsigned char low = 0x80, high = 0xBF; // the range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        for (int k = 1; k < length; ++k) {
            if (i + k >= n)
                return i;
            const unsigned char b = p[i + k];
            if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF))
                return i;
        }
        i += length;
    }
    return -1;
}

// nlohmann's message without its id and position ("syntax error while parsing value - invalid
// literal; last read: 'x'"); it may quote the input, so it is made inert.
QString parserWords(const char* what)
{
    QString words = QString::fromUtf8(what);
    const qsizetype column = words.indexOf(QLatin1String("column "));
    const qsizetype colon = column < 0 ? -1 : words.indexOf(QLatin1String(": "), column);
    if (colon >= 0)
        words = words.mid(colon + 2);
    else
        words = words.section(QLatin1String("] "), 1);
    if (words.size() > 160)
        words = words.left(160) + QStringLiteral("…");
    return inertText(words);
}

} // namespace

SseChunk SseChunk::classifyDom(QByteArrayView data)
{
    SseChunk chunk;
    const QByteArrayView trimmed = data.trimmed();
    if (trimmed.isEmpty()) {
        chunk.kind = Kind::Empty;
        return chunk;
    }
    if (trimmed == "[DONE]") {
        chunk.kind = Kind::Done;
        return chunk;
    }

    // Checked before the JSON parser, whose words for it ("ill-formed UTF-8 byte") hide where it is.
    if (const qsizetype bad = firstInvalidUtf8(trimmed); bad >= 0) {
        chunk.kind = Kind::Malformed;
        chunk.errorMessage = QStringLiteral("invalid UTF-8 at byte %1: %2").arg(bad + 1).arg(excerpt(trimmed));
        return chunk;
    }
    Json object;
    try {
        object = Json::parse(trimmed.begin(), trimmed.end());
    } catch (const Json::parse_error& error) {
        chunk.kind = Kind::Malformed;
        chunk.errorMessage = QStringLiteral("invalid JSON at byte %1 (%2): %3")
                                 .arg(error.byte)
                                 .arg(parserWords(error.what()), excerpt(trimmed));
        return chunk;
    } catch (const Json::exception& error) {
        // Well-formed JSON that cannot be held, e.g. a number beyond double's range (out_of_range.406).
        chunk.kind = Kind::Malformed;
        chunk.errorMessage
            = QStringLiteral("unreadable JSON (%1): %2")
                  .arg(QString::fromUtf8(error.what()).section(QLatin1String("] "), 1), excerpt(trimmed));
        return chunk;
    }
    if (!object.is_object()) {
        chunk.kind = Kind::Malformed;
        chunk.errorMessage = QStringLiteral("expected a JSON object, found %1: %2")
                                 .arg(QString::fromLatin1(object.type_name()), excerpt(trimmed));
        return chunk;
    }

    if (const auto it = object.find("error"); it != object.end() && !it->is_null()) {
        chunk.kind = Kind::Error;
        chunk.errorMessage = describeError(*it, object);
        return chunk;
    }
    if (const auto it = object.find("object"); it != object.end() && *it == "error") {
        chunk.kind = Kind::Error;
        chunk.errorMessage = describeError(Json(), object);
        return chunk;
    }

    if (const auto it = object.find("usage"); it != object.end() && it->is_object()) {
        chunk.completionTokens = toInteger(*it, "completion_tokens");
        chunk.promptTokens = toInteger(*it, "prompt_tokens");
        if (const auto details = it->find("prompt_tokens_details"); details != it->end() && details->is_object())
            chunk.cachedTokens = toInteger(*details, "cached_tokens");
        if (const auto details = it->find("completion_tokens_details"); details != it->end() && details->is_object())
            chunk.reasoningTokens = toInteger(*details, "reasoning_tokens");
    }

    const auto choices = object.find("choices");
    if (choices != object.end() && !choices->is_null()) {
        if (!choices->is_array()) {
            chunk.kind = Kind::Malformed;
            chunk.errorMessage = QStringLiteral("\"choices\" is not an array: %1").arg(excerpt(trimmed));
            return chunk;
        }
        if (!choices->empty()) {
            const Json& first = choices->front();
            if (!first.is_object()) {
                chunk.kind = Kind::Malformed;
                chunk.errorMessage = QStringLiteral("\"choices[0]\" is not an object: %1").arg(excerpt(trimmed));
                return chunk;
            }
            chunk.kind = Kind::Choices;
            if (const auto text = first.find("text"); text != first.end()) {
                chunk.text = toQString(*text);
            } else if (const auto delta = first.find("delta"); delta != first.end() && delta->is_object()) {
                chunk.text = toQString(delta->value("content", Json()));
                chunk.reasoning = toQString(delta->value("reasoning_content", Json()));
                if (chunk.reasoning.isEmpty())
                    chunk.reasoning = toQString(delta->value("reasoning", Json()));
            } else if (const auto message = first.find("message"); message != first.end() && message->is_object()) {
                chunk.text = toQString(message->value("content", Json()));
                chunk.reasoning = toQString(message->value("reasoning_content", Json()));
                if (chunk.reasoning.isEmpty())
                    chunk.reasoning = toQString(message->value("reasoning", Json()));
            }
            chunk.finishReason = toQString(first.value("finish_reason", Json()));
            return chunk;
        }
    }
    chunk.kind = chunk.hasUsage() ? Kind::Usage : Kind::Other;
    return chunk;
}

namespace {

// The fast path: simdjson's DOM (client/simdjsonfields.h), as strict as nlohmann's and several times
// faster. It decides only the events it can decide alone: a document it refuses, anything but an object,
// and every error object go to classifyDom(), whose words the messages keep.
// A choice's text or reasoning, in the form asked for.
void putText(std::string_view text, SseChunk::TextForm form, QString& decoded, QByteArray& utf8)
{
    if (text.empty())
        return;
    if (form == SseChunk::TextForm::Utf8)
        utf8 = QByteArray(text.data(), qsizetype(text.size()));
    else
        decoded = QString::fromUtf8(text.data(), qsizetype(text.size()));
}

bool classifyFast(QByteArrayView trimmed, SseChunk::TextForm form, SseChunk& chunk)
{
    const std::optional<sj::Object> parsed = sj::parseObject(trimmed);
    if (!parsed)
        return false;
    const sj::Object object = *parsed;
    constexpr std::array<std::string_view, 4> kTop { "error", "object", "usage", "choices" };
    const auto [error, type, usageField, choices] = sj::lastFields(object, kTop);
    if (error && !error->is_null())
        return false;
    if (type) {
        std::string_view name;
        if (type->get_string().get(name) == simdjson::SUCCESS && name == "error")
            return false;
    }

    if (const auto usage = sj::asObject(usageField)) {
        const sj::UsageCounts counts = sj::usageCounts(
            *usage, { "prompt_tokens", "completion_tokens", "prompt_tokens_details", "completion_tokens_details" });
        chunk.promptTokens = counts.prompt;
        chunk.completionTokens = counts.completion;
        chunk.cachedTokens = counts.cached;
        chunk.reasoningTokens = counts.reasoning;
    }

    if (choices && !choices->is_null()) {
        simdjson::dom::array list;
        if (choices->get_array().get(list) != simdjson::SUCCESS)
            return false; // Malformed: classifyDom's words
        if (list.size() > 0) {
            const sj::Element first = list.at(0).value_unsafe();
            if (first.type() != simdjson::dom::element_type::OBJECT)
                return false;
            const sj::Object choice = sj::Object(first);
            chunk.kind = SseChunk::Kind::Choices;
            constexpr std::array<std::string_view, 4> kChoice { "text", "delta", "message", "finish_reason" };
            const auto [t, deltaField, messageField, finish] = sj::lastFields(choice, kChoice);
            std::string_view text;
            std::string_view reasoning;
            const auto readMessage = [&text, &reasoning](sj::Object message) {
                constexpr std::array<std::string_view, 3> kMessage { "content", "reasoning_content", "reasoning" };
                const auto [content, reasoningContent, reasoningField] = sj::lastFields(message, kMessage);
                text = sj::text(content);
                reasoning = sj::text(reasoningContent);
                if (reasoning.empty())
                    reasoning = sj::text(reasoningField);
            };
            if (t) {
                text = sj::text(t);
            } else if (const auto delta = sj::asObject(deltaField)) {
                readMessage(*delta);
            } else if (const auto message = sj::asObject(messageField)) {
                readMessage(*message);
            }
            putText(text, form, chunk.text, chunk.textUtf8);
            putText(reasoning, form, chunk.reasoning, chunk.reasoningUtf8);
            chunk.finishReason = sj::string(finish);
            return true;
        }
    }
    chunk.kind = chunk.hasUsage() ? SseChunk::Kind::Usage : SseChunk::Kind::Other;
    return true;
}

} // namespace

SseChunk SseChunk::classify(QByteArrayView data, TextForm form)
{
    const QByteArrayView trimmed = data.trimmed();
    if (!trimmed.isEmpty() && trimmed != "[DONE]") {
        SseChunk chunk;
        if (classifyFast(trimmed, form, chunk))
            return chunk;
    }
    SseChunk chunk = classifyDom(data);
    if (form == TextForm::Utf8) {
        chunk.textUtf8 = std::exchange(chunk.text, {}).toUtf8();
        chunk.reasoningUtf8 = std::exchange(chunk.reasoning, {}).toUtf8();
    }
    return chunk;
}

} // namespace kp
