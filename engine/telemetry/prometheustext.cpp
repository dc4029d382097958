#include "telemetry/prometheustext.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace kp {

namespace {

constexpr int kMaxProblems = 5;

bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

bool isNameChar(char c)
{
    return isNameStart(c) || (c >= '0' && c <= '9');
}

bool isLabelStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isLabelChar(char c)
{
    return isLabelStart(c) || (c >= '0' && c <= '9');
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

class Cursor
{
public:
    explicit Cursor(QByteArrayView line)
        : m_line(line)
    { }
    bool atEnd() const { return m_pos >= m_line.size(); }
    char peek() const { return atEnd() ? '\0' : m_line[m_pos]; }
    void skipBlanks()
    {
        while (!atEnd() && isBlank(m_line[m_pos]))
            ++m_pos;
    }
    bool eat(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    QByteArray name(bool (*start)(char), bool (*more)(char))
    {
        if (atEnd() || !start(m_line[m_pos]))
            return {};
        const qsizetype from = m_pos++;
        while (!atEnd() && more(m_line[m_pos]))
            ++m_pos;
        return m_line.sliced(from, m_pos - from).toByteArray();
    }
    QByteArrayView token()
    {
        const qsizetype from = m_pos;
        while (!atEnd() && !isBlank(m_line[m_pos]))
            ++m_pos;
        return m_line.sliced(from, m_pos - from);
    }
    // A quoted label value, escapes \\ \" \n resolved. False on a missing quote or a bad escape.
    bool quoted(QByteArray* out)
    {
        if (!eat('"'))
            return false;
        while (!atEnd()) {
            const char c = m_line[m_pos++];
            if (c == '"')
                return true;
            if (c != '\\') {
                *out += c;
                continue;
            }
            if (atEnd())
                return false;
            const char e = m_line[m_pos++];
            if (e == '\\')
                *out += '\\';
            else if (e == '"')
                *out += '"';
            else if (e == 'n')
                *out += '\n';
            else
                return false;
        }
        return false;
    }
    QByteArrayView rest() const { return m_line.sliced(std::min(m_pos, m_line.size())); }

private:
    QByteArrayView m_line;
    qsizetype m_pos = 0;
};

std::optional<double> parseValue(QByteArrayView token)
{
    if (token.isEmpty())
        return std::nullopt;
    const QByteArray lower = token.toByteArray().toLower();
    if (lower == "+inf" || lower == "inf")
        return std::numeric_limits<double>::infinity();
    if (lower == "-inf")
        return -std::numeric_limits<double>::infinity();
    if (lower == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    const double v = lower.toDouble(&ok);
    if (!ok)
        return std::nullopt;
    return v;
}

QByteArray unescapeHelp(QByteArrayView text)
{
    QByteArray out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) {
            const char e = text[i + 1];
            if (e == '\\' || e == 'n') {
                out += e == 'n' ? '\n' : '\\';
                ++i;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

PromType typeFromWord(QByteArrayView word, bool* ok)
{
    *ok = true;
    if (word == "counter")
        return PromType::Counter;
    if (word == "gauge")
        return PromType::Gauge;
    if (word == "histogram")
        return PromType::Histogram;
    if (word == "summary")
        return PromType::Summary;
    if (word != "untyped" && word != "unknown")
        *ok = false;
    return PromType::Untyped;
}

} // namespace

QByteArray PromSample::label(QByteArrayView labelName) const
{
    for (const auto& [key, text] : labels) {
        if (key == labelName)
            return text.isNull() ? QByteArray("") : text;
    }
    return {};
}

PromText PromText::parse(QByteArrayView text)
{
    PromText out;
    int lineNo = 0;
    auto skip = [&](const QString& why) {
        ++out.skippedLines;
        if (out.problems.size() < kMaxProblems)
            out.problems << QStringLiteral("line %1: %2").arg(lineNo).arg(why);
    };
    qsizetype from = 0;
    while (from <= text.size()) {
        qsizetype to = text.indexOf('\n', from);
        if (to < 0)
            to = text.size();
        QByteArrayView line = text.sliced(from, to - from);
        from = to + 1;
        ++lineNo;
        if (line.endsWith('\r'))
            line.chop(1);
        line = line.trimmed();
        if (line.isEmpty()) {
            if (to == text.size())
                break;
            continue;
        }
        if (line.startsWith('#')) {
            Cursor c(line.sliced(1));
            c.skipBlanks();
            const QByteArrayView keyword = c.token();
            if (keyword != "HELP" && keyword != "TYPE")
                continue; // a plain comment
            c.skipBlanks();
            const QByteArray family = c.name(isNameStart, isNameChar);
            if (family.isEmpty()) {
                skip(QStringLiteral("# %1 without a metric name").arg(QString::fromLatin1(keyword)));
                continue;
            }
            if (!c.atEnd() && !isBlank(c.peek())) {
                skip(QStringLiteral("# %1: bad metric name").arg(QString::fromLatin1(keyword)));
                continue;
            }
            c.skipBlanks();
            if (keyword == "HELP") {
                out.help[family] = unescapeHelp(c.rest());
            } else {
                bool ok = false;
                const QByteArrayView word = c.token();
                const PromType type = typeFromWord(word, &ok);
                if (!ok) {
                    skip(QStringLiteral("# TYPE %1: unknown type \"%2\"")
                             .arg(QString::fromUtf8(family), QString::fromUtf8(word.toByteArray())));
                    continue;
                }
                out.types[family] = type;
            }
            continue;
        }
        Cursor c(line);
        PromSample sample;
        sample.name = c.name(isNameStart, isNameChar);
        if (sample.name.isEmpty()) {
            skip(QStringLiteral("not a metric name at the start"));
            continue;
        }
        bool bad = false;
        if (c.eat('{')) {
            for (;;) {
                c.skipBlanks();
                if (c.eat('}'))
                    break;
                const QByteArray labelName = c.name(isLabelStart, isLabelChar);
                c.skipBlanks();
                QByteArray value("");
                if (labelName.isEmpty() || !c.eat('=')) {
                    bad = true;
                    break;
                }
                c.skipBlanks();
                if (!c.quoted(&value)) {
                    bad = true;
                    break;
                }
                sample.labels.emplace_back(labelName, value);
                c.skipBlanks();
                if (c.eat(','))
                    continue;
                if (c.eat('}'))
                    break;
                bad = true;
                break;
            }
            if (bad) {
                skip(QStringLiteral("%1: malformed labels").arg(QString::fromUtf8(sample.name)));
                continue;
            }
        }
        if (c.atEnd() || !isBlank(c.peek())) {
            skip(QStringLiteral("%1: no value").arg(QString::fromUtf8(sample.name)));
            continue;
        }
        c.skipBlanks();
        const std::optional<double> value = parseValue(c.token());
        if (!value) {
            skip(QStringLiteral("%1: no number where the value should be").arg(QString::fromUtf8(sample.name)));
            continue;
        }
        sample.value = *value;
        c.skipBlanks();
        if (!c.atEnd()) {
            bool ok = false;
            const qint64 ts = c.token().toByteArray().toLongLong(&ok);
            c.skipBlanks();
            if (!ok || !c.atEnd()) {
                skip(QStringLiteral("%1: unexpected text after the value").arg(QString::fromUtf8(sample.name)));
                continue;
            }
            sample.timestampMs = ts;
        }
        out.samples.push_back(std::move(sample));
    }
    return out;
}

namespace {

// The metric family a sample belongs to: its name without a histogram's or summary's suffix.
QByteArrayView familyOf(QByteArrayView name)
{
    for (const char* suffix : { "_bucket", "_sum", "_count", "_created" }) {
        if (name.endsWith(suffix))
            return name.chopped(qsizetype(std::strlen(suffix)));
    }
    return name;
}

} // namespace

PromText PromText::parseCut(QByteArrayView text)
{
    const qsizetype lastBreak = text.lastIndexOf('\n');
    PromText out = parse(lastBreak < 0 ? QByteArrayView() : text.first(lastBreak + 1));
    out.cut = true;
    if (!out.samples.empty()) {
        const QByteArray last = familyOf(out.samples.back().name).toByteArray();
        while (!out.samples.empty() && familyOf(out.samples.back().name) == last)
            out.samples.pop_back();
    }
    return out;
}

bool PromText::has(QByteArrayView name) const
{
    return std::any_of(samples.begin(), samples.end(), [&](const PromSample& s) { return s.name == name; });
}

// NaN is no value and is skipped; an infinite value, or a total that overflows, makes the figure unknown:
// a server that reports +Inf for a gauge has told nothing the output could print.
std::optional<double> PromText::sum(QByteArrayView name) const
{
    std::optional<double> total;
    for (const PromSample& s : samples) {
        if (s.name != name || std::isnan(s.value))
            continue;
        if (std::isinf(s.value))
            return std::nullopt;
        total = total.value_or(0.0) + s.value;
    }
    if (total && !std::isfinite(*total))
        return std::nullopt;
    return total;
}

std::optional<double> PromText::max(QByteArrayView name) const
{
    std::optional<double> best;
    for (const PromSample& s : samples) {
        if (s.name != name || std::isnan(s.value))
            continue;
        if (std::isinf(s.value))
            return std::nullopt;
        if (!best || s.value > *best)
            best = s.value;
    }
    return best;
}

std::optional<double> PromText::mean(QByteArrayView name) const
{
    double total = 0.0;
    int n = 0;
    for (const PromSample& s : samples) {
        if (s.name != name || std::isnan(s.value))
            continue;
        if (std::isinf(s.value))
            return std::nullopt;
        total += s.value;
        ++n;
    }
    if (n == 0 || !std::isfinite(total))
        return std::nullopt;
    return total / n;
}

PromHistogram PromText::histogram(QByteArrayView name) const
{
    const QByteArray base = name.toByteArray();
    const QByteArray bucketName = base + "_bucket";
    const QByteArray sumName = base + "_sum";
    const QByteArray countName = base + "_count";
    std::map<double, double> buckets;
    PromHistogram h;
    for (const PromSample& s : samples) {
        // Counts are finite and not negative; a histogram with one that is not tells nothing.
        if (s.name == bucketName) {
            const std::optional<double> le = parseValue(s.label("le"));
            if (!le || std::isnan(*le))
                continue;
            if (!std::isfinite(s.value) || s.value < 0)
                return {};
            buckets[*le] += s.value;
        } else if (s.name == sumName) {
            if (!std::isfinite(s.value))
                return {};
            h.sum += s.value;
        } else if (s.name == countName) {
            if (!std::isfinite(s.value) || s.value < 0)
                return {};
            h.count += s.value;
        }
    }
    if (buckets.empty() || !std::isfinite(h.sum) || !std::isfinite(h.count))
        return {};
    h.buckets.assign(buckets.begin(), buckets.end());
    if (!std::isinf(h.buckets.back().first)) // a histogram without +Inf: its count is the last bucket
        h.buckets.emplace_back(std::numeric_limits<double>::infinity(), std::max(h.count, h.buckets.back().second));
    return h;
}

QByteArray PromText::labelOf(QByteArrayView name, QByteArrayView labelName) const
{
    for (const PromSample& s : samples) {
        if (s.name == name) {
            QByteArray v = s.label(labelName);
            if (!v.isNull())
                return v;
        }
    }
    return {};
}

PromType PromText::typeOf(QByteArrayView family) const
{
    const auto it = types.find(family.toByteArray());
    return it == types.end() ? PromType::Untyped : it->second;
}

PromHistogram PromHistogram::minus(const PromHistogram& earlier) const
{
    if (earlier.isEmpty() || count < earlier.count || sum < earlier.sum) // a reset
        return *this;
    PromHistogram d;
    d.count = count - earlier.count;
    d.sum = sum - earlier.sum;
    d.buckets.reserve(buckets.size());
    for (const auto& [le, n] : buckets) {
        double before = 0.0;
        for (const auto& [ele, en] : earlier.buckets) {
            if (ele == le) {
                before = en;
                break;
            }
        }
        d.buckets.emplace_back(le, std::max(0.0, n - before));
    }
    return d;
}

std::optional<double> PromHistogram::quantile(double q) const
{
    if (buckets.empty())
        return std::nullopt;
    const double total = buckets.back().second;
    if (!(total > 0))
        return std::nullopt;
    const double rank = std::clamp(q, 0.0, 1.0) * total;
    double lowerBound = 0.0;
    double lowerCount = 0.0;
    for (std::size_t i = 0; i < buckets.size(); ++i) {
        const auto [le, n] = buckets[i];
        if (n >= rank && n > lowerCount) {
            if (std::isinf(le))
                return i > 0 ? buckets[i - 1].first : 0.0;
            if (i == 0 && le <= 0)
                return le;
            return lowerBound + (le - lowerBound) * (rank - lowerCount) / (n - lowerCount);
        }
        lowerBound = le;
        lowerCount = n;
    }
    return buckets.size() > 1 ? buckets[buckets.size() - 2].first : 0.0;
}

} // namespace kp
