#include "profile/sourcedocument_p.h"

#include "metrics/jsondepth.h"
#include "metrics/phrase.h"

#include <toml++/toml.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace kp::detail {

namespace {

// Byte offsets → line and column (in characters, so that UTF-8 text counts as an editor does).
class LineIndex
{
public:
    explicit LineIndex(std::string_view text)
        : m_text(text)
    {
        m_starts.push_back(0);
        for (size_t i = 0; i < text.size(); ++i) {
            if (text[i] == '\n')
                m_starts.push_back(i + 1);
        }
    }

    SourcePos pos(size_t offset) const
    {
        offset = std::min(offset, m_text.size());
        const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), offset) - 1;
        // The locator asks in increasing order: counting on from the previous answer on the same line
        // keeps a one-line file of a million values linear instead of quadratic.
        size_t from = *it;
        int column = 1;
        if (m_lastLineStart == *it && m_lastOffset >= *it && m_lastOffset <= offset) {
            from = m_lastOffset;
            column = m_lastColumn;
        }
        for (size_t i = from; i < offset; ++i) {
            if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80)
                ++column;
        }
        m_lastLineStart = *it;
        m_lastOffset = offset;
        m_lastColumn = column;
        return { int(it - m_starts.begin()) + 1, column };
    }

private:
    std::string_view m_text;
    std::vector<size_t> m_starts;
    mutable size_t m_lastLineStart = std::string_view::npos;
    mutable size_t m_lastOffset = 0;
    mutable int m_lastColumn = 1;
};

bool isJsonScalar(std::string_view t)
{
    if (t == "true" || t == "false" || t == "null")
        return true;
    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    size_t i = 0;
    const auto digits = [&] {
        const size_t start = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < t.size() && t[i] == '-')
        ++i;
    if (i < t.size() && t[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < t.size() && t[i] == '.' && (++i, !digits()))
        return false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == t.size();
}

// Walks JSON text (with comments) recording where each value and key starts. Run on text that
// nlohmann accepted, it sees the same structure; run with a stop offset on text nlohmann rejected,
// it reports the innermost path open at the error.
class JsonLocator
{
public:
    JsonLocator(std::string_view text, const LineIndex& lines, SourceDocument* doc, size_t stopAt)
        : m_s(text)
        , m_lines(lines)
        , m_doc(doc)
        , m_stop(std::min(stopAt, text.size()))
    { }

    // Stop at the first number a double cannot hold (1e400), which nlohmann refuses without saying where.
    void stopAtOverflow() { m_stopAtOverflow = true; }
    const std::string& overflowNumber() const { return m_overflow; }

    void run() { value(QString(), QString()); }
    const QString& stopPath() const { return m_stopPath; }
    // Where the text stopped making sense to this walker, if it noticed before the stop offset:
    // the start of the unexpected token, where nlohmann points at its end.
    size_t mismatchOffset() const { return m_mismatch; }
    const std::vector<std::pair<QString, SourcePos>>& duplicates() const { return m_duplicates; }

private:
    bool mismatch(const QString& path)
    {
        m_stopPath = path;
        m_mismatch = m_i;
        return false;
    }

    bool stopped(const QString& path)
    {
        if (m_i < m_stop)
            return false;
        m_stopPath = path;
        return true;
    }

    bool skipSpace(const QString& path)
    {
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                ++m_i;
            } else if (c == '/' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '/') {
                while (m_i < m_s.size() && m_s[m_i] != '\n')
                    ++m_i;
            } else if (c == '/' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '*') {
                const size_t end = m_s.find("*/", m_i + 2);
                m_i = end == std::string_view::npos ? m_s.size() : end + 2;
            } else {
                break;
            }
        }
        return !stopped(path);
    }

    // Returns the decoded string; the cursor ends after the closing quote.
    std::optional<std::string> string(const QString& path)
    {
        const size_t begin = m_i++;
        while (m_i < m_s.size() && m_s[m_i] != '"') {
            if (stopped(path))
                return std::nullopt;
            m_i += m_s[m_i] == '\\' ? 2 : 1;
        }
        if (stopped(path))
            return std::nullopt;
        ++m_i;
        const std::string literal(m_s.substr(begin, m_i - begin));
        try {
            return Json::parse(literal).get<std::string>();
        } catch (const Json::exception&) {
            return literal.substr(1, literal.size() - 2);
        }
    }

    void record(const QString& path, bool isKey)
    {
        if (!m_doc)
            return;
        const SourcePos p = m_lines.pos(m_i);
        if (isKey) {
            if (m_doc->keys.contains(path))
                m_duplicates.emplace_back(path, p);
            m_doc->keys.insert(path, p);
        } else {
            m_doc->values.insert(path, p);
        }
    }

    // context: the path to blame when no value starts here (an array element that is missing).
    bool value(const QString& path, const QString& context)
    {
        if (!skipSpace(context))
            return false;
        record(path, false);
        const char c = m_s[m_i];
        if (c == '{')
            return object(path);
        if (c == '[')
            return array(path);
        if (c == '"')
            return string(path).has_value();
        const size_t begin = m_i;
        while (m_i < m_s.size() && std::string_view(" \t\r\n,]}/").find(m_s[m_i]) == std::string_view::npos)
            ++m_i;
        if (m_i == begin)
            return mismatch(context);
        const std::string_view token = m_s.substr(begin, m_i - begin);
        if (!isJsonScalar(token)) {
            m_i = begin;
            return mismatch(path);
        }
        if (m_stopAtOverflow && (token.size() > 15 || token.find_first_of("eE") != std::string_view::npos)) {
            try {
                [[maybe_unused]] const Json number = Json::parse(token);
            } catch (const Json::out_of_range&) {
                m_overflow = std::string(token);
                m_i = begin;
                return mismatch(path);
            }
        }
        if (m_stop < m_i) {
            m_stopPath = path;
            return false;
        }
        return true;
    }

    // Reads an object's or an array's members, the cursor on the opening bracket; member(index) reads one.
    template <typename Member> bool members(const QString& path, char close, Member member)
    {
        ++m_i;
        if (!skipSpace(path))
            return false;
        if (m_s[m_i] == close) {
            ++m_i;
            return true;
        }
        for (qsizetype index = 0;; ++index) {
            if (!member(index))
                return false;
            if (!skipSpace(path))
                return false;
            if (m_s[m_i] == ',') {
                ++m_i;
                continue;
            }
            if (m_s[m_i] == close) {
                ++m_i;
                return true;
            }
            return mismatch(path);
        }
    }

    bool object(const QString& path)
    {
        return members(path, '}', [&](qsizetype) {
            if (!skipSpace(path))
                return false;
            if (m_s[m_i] != '"')
                return mismatch(path);
            const size_t keyStart = m_i;
            const std::optional<std::string> key = string(path);
            if (!key)
                return false;
            const QString child = childPath(path, QString::fromStdString(*key));
            const size_t keyEnd = m_i;
            m_i = keyStart;
            record(child, true);
            m_i = keyEnd;
            if (!skipSpace(child))
                return false;
            if (m_s[m_i] != ':')
                return mismatch(child);
            ++m_i;
            return value(child, child);
        });
    }

    bool array(const QString& path)
    {
        return members(path, ']', [&](qsizetype index) { return value(indexPath(path, index), path); });
    }

    std::string_view m_s;
    const LineIndex& m_lines;
    SourceDocument* m_doc;
    size_t m_stop;
    size_t m_i = 0;
    QString m_stopPath;
    size_t m_mismatch = std::string_view::npos;
    std::vector<std::pair<QString, SourcePos>> m_duplicates;
    bool m_stopAtOverflow = false;
    std::string m_overflow;
};

// Python's json.dump writes float('inf') as a bare Infinity, which is not JSON. Rewrite it, outside
// strings and comments, as a string of the same length so that every offset stays where it was.
void quoteBareInfinity(std::string& text)
{
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            i = text.find('\n', i);
            if (i == std::string::npos)
                return;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
            i = text.find("*/", i + 2);
            if (i == std::string::npos)
                return;
            ++i;
        } else if (text.compare(i, 9, "-Infinity") == 0) {
            text.replace(i, 9, "\"-inf\"   ");
            i += 8;
        } else if (text.compare(i, 8, "Infinity") == 0) {
            text.replace(i, 8, "\"inf\"   ");
            i += 7;
        }
    }
}

// nlohmann's message is "[json.exception.parse_error.101] parse error at line 3, column 5: <what>".
QString parseErrorText(const char* what)
{
    const std::string_view w(what);
    const size_t at = w.find("parse error");
    const size_t colon = at == std::string_view::npos ? std::string_view::npos : w.find(": ", at);
    if (colon == std::string_view::npos)
        return QString::fromUtf8(what);
    return QString::fromUtf8(w.substr(colon + 2).data(), qsizetype(w.size() - colon - 2));
}

void tomlToJson(const toml::node& node, const QString& path, Json& out, SourceDocument& doc);

SourcePos tomlPos(const toml::source_region& region)
{
    return { int(region.begin.line), int(region.begin.column) };
}

void tomlTableToJson(const toml::table& table, const QString& path, Json& out, SourceDocument& doc)
{
    out = Json::object();
    std::vector<std::pair<const toml::key*, const toml::node*>> entries;
    for (auto&& [key, node] : table)
        entries.emplace_back(&key, &node);
    // toml++ keeps keys sorted; the file's order makes warnings read top to bottom.
    std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        const auto& pa = a.first->source().begin;
        const auto& pb = b.first->source().begin;
        return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
    });
    for (const auto& [key, node] : entries) {
        const std::string name(key->str());
        const QString child = childPath(path, QString::fromStdString(name));
        doc.keys.insert(child, tomlPos(key->source()));
        tomlToJson(*node, child, out[name], doc);
    }
}

void tomlToJson(const toml::node& node, const QString& path, Json& out, SourceDocument& doc)
{
    doc.values.insert(path, tomlPos(node.source()));
    switch (node.type()) {
    case toml::node_type::table:
        tomlTableToJson(*node.as_table(), path, out, doc);
        return;
    case toml::node_type::array: {
        out = Json::array();
        const toml::array& array = *node.as_array();
        for (size_t i = 0; i < array.size(); ++i) {
            Json element;
            tomlToJson(array[i], indexPath(path, qsizetype(i)), element, doc);
            out.push_back(std::move(element));
        }
        return;
    }
    case toml::node_type::string:
        out = node.as_string()->get();
        return;
    case toml::node_type::integer:
        out = node.as_integer()->get();
        return;
    case toml::node_type::floating_point:
        out = node.as_floating_point()->get();
        return;
    case toml::node_type::boolean:
        out = node.as_boolean()->get();
        return;
    case toml::node_type::date:
    case toml::node_type::time:
    case toml::node_type::date_time: {
        std::ostringstream s;
        if (const auto* d = node.as_date())
            s << d->get();
        else if (const auto* t = node.as_time())
            s << t->get();
        else if (const auto* dt = node.as_date_time())
            s << dt->get();
        out = s.str();
        return;
    }
    case toml::node_type::none:
        out = nullptr;
        return;
    }
}

} // namespace

QString formatLocation(const QString& fileName, SourcePos pos)
{
    if (!pos.isValid())
        return fileName;
    return u"%1:%2:%3"_s.arg(fileName).arg(pos.line).arg(pos.column);
}

SourceDocument parseJsonSource(const QByteArray& data, const QString& fileName)
{
    SourceDocument doc;
    std::string text = data.toStdString();
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
        text.replace(0, 3, "   ");
    quoteBareInfinity(text);
    const LineIndex lines(text);
    if (const auto deep = jsonTooDeepAt(text)) {
        doc.errors.append(formatLocation(fileName, lines.pos(*deep))
            + phrase("SourceDocument", ": arrays and objects nest deeper than %1 levels").arg(kMaxJsonDepth));
        return doc;
    }
    try {
        doc.root = Json::parse(text, nullptr, true, true);
    } catch (const Json::parse_error& e) {
        // e.byte is the 1-based index of the last character read, the one that did not fit.
        const size_t errorByte = e.byte > 0 ? e.byte - 1 : 0;
        JsonLocator locator(text, lines, nullptr, errorByte);
        locator.run();
        const size_t offset = std::min(errorByte, locator.mismatchOffset());
        const QString where = formatLocation(fileName, lines.pos(offset));
        const QString path = locator.stopPath();
        doc.errors.append(where + u": "_s + (path.isEmpty() ? QString() : path + u": "_s) + parseErrorText(e.what()));
        return doc;
    } catch (const Json::out_of_range& e) {
        JsonLocator locator(text, lines, nullptr, text.size() + 1);
        locator.stopAtOverflow();
        locator.run();
        if (locator.overflowNumber().empty()) {
            doc.errors.append(fileName + u": "_s + QString::fromUtf8(e.what()));
            return doc;
        }
        const QString path = locator.stopPath();
        doc.errors.append(formatLocation(fileName, lines.pos(locator.mismatchOffset())) + u": "_s
            + (path.isEmpty() ? QString() : path + u": "_s)
            + phrase("SourceDocument", "number %1 is out of range (the largest is about 1.8e308)")
                  .arg(QString::fromStdString(locator.overflowNumber())));
        return doc;
    } catch (const Json::exception& e) {
        doc.errors.append(fileName + u": "_s + QString::fromUtf8(e.what()));
        return doc;
    }
    JsonLocator locator(text, lines, &doc, text.size() + 1);
    locator.run();
    for (const auto& [path, pos] : locator.duplicates())
        doc.warnings.append(formatLocation(fileName, pos) + u": "_s + path
            + phrase("SourceDocument", ": duplicate key; the last one is used"));
    return doc;
}

SourceDocument parseTomlSource(const QByteArray& data, const QString& fileName)
{
    SourceDocument doc;
    const std::string text = data.toStdString();
    try {
        const toml::table table = toml::parse(text, fileName.toStdString());
        doc.values.insert(QString(), SourcePos { 1, 1 });
        tomlTableToJson(table, QString(), doc.root, doc);
    } catch (const toml::parse_error& e) {
        const SourcePos pos = tomlPos(e.source());
        doc.errors.append(formatLocation(fileName, pos) + u": "_s + QString::fromUtf8(e.description()));
    }
    return doc;
}

} // namespace kp::detail
