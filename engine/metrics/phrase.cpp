#include "metrics/phrase.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>

namespace kp {

namespace {

std::atomic<bool> g_translate { false };
thread_local bool t_english = false;

} // namespace

QString phrase(const char* context, const char* source, const char* disambiguation, int n)
{
    if (g_translate.load(std::memory_order_relaxed) && !t_english)
        return QCoreApplication::translate(context, source, disambiguation, n);
    QString text = QString::fromUtf8(source);
    if (n >= 0)
        text.replace(QLatin1String("%n"), QString::number(n));
    return text;
}

struct Sentence::Node
{
    enum class Kind { Phrase, Plain, Concat, Capitalized };
    Kind kind = Kind::Plain;
    const char* context = nullptr;
    const char* source = nullptr;
    const char* disambiguation = nullptr;
    int n = -1;
    QString plain;
    QList<Sentence> parts; // a phrase's arguments, a concatenation's pieces, the capitalized sentence
};

namespace {

// %1..%99 replaced by number in one pass, as QString's multi-argument arg() does: an argument's own
// text is never searched for placeholders, and a translation may reorder them.
QString filled(const QString& pattern, const QStringList& args)
{
    QString out;
    out.reserve(pattern.size());
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern[i];
        if (c == u'%' && i + 1 < pattern.size() && pattern[i + 1].isDigit()) {
            qsizetype j = i + 1;
            int number = pattern[j].digitValue();
            if (j + 1 < pattern.size() && pattern[j + 1].isDigit()
                && number * 10 + pattern[j + 1].digitValue() <= args.size()) {
                number = number * 10 + pattern[j + 1].digitValue();
                ++j;
            }
            if (number >= 1 && number <= args.size()) {
                out += args[number - 1];
                i = j;
                continue;
            }
        }
        out += c;
    }
    return out;
}

bool sameText(const char* a, const char* b)
{
    return a == b || (a && b && qstrcmp(a, b) == 0);
}

} // namespace

Sentence::Sentence(std::shared_ptr<const Node> node)
    : m_node(std::move(node))
{ }

Sentence Sentence::plain(const QString& text)
{
    auto node = std::make_shared<Node>();
    node->plain = text;
    return Sentence(std::move(node));
}

Sentence Sentence::join(const QList<Sentence>& parts, const Sentence& separator)
{
    Sentence out;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (i > 0)
            out += separator;
        out += parts[i];
    }
    return out;
}

Sentence Sentence::arg(const Sentence& value) const
{
    if (!m_node || m_node->kind != Node::Kind::Phrase)
        return *this;
    auto node = std::make_shared<Node>(*m_node);
    node->parts << value;
    return Sentence(std::move(node));
}

Sentence Sentence::arg(const QString& value) const
{
    return arg(plain(value));
}

Sentence Sentence::capitalized() const
{
    if (isEmpty())
        return *this;
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::Capitalized;
    node->parts << *this;
    return Sentence(std::move(node));
}

Sentence Sentence::operator+(const Sentence& other) const
{
    if (other.isEmpty())
        return *this;
    if (isEmpty())
        return other;
    auto node = std::make_shared<Node>();
    node->kind = Node::Kind::Concat;
    if (m_node->kind == Node::Kind::Concat)
        node->parts = m_node->parts;
    else
        node->parts << *this;
    node->parts << other;
    return Sentence(std::move(node));
}

Sentence& Sentence::operator+=(const Sentence& other)
{
    *this = *this + other;
    return *this;
}

QString Sentence::render(bool english) const
{
    if (!m_node)
        return {};
    const Node& node = *m_node;
    switch (node.kind) {
    case Node::Kind::Plain:
        return node.plain;
    case Node::Kind::Phrase: {
        QString pattern;
        if (english) {
            pattern = QString::fromUtf8(node.source);
            if (node.n >= 0)
                pattern.replace(QLatin1String("%n"), QString::number(node.n));
        } else {
            pattern = phrase(node.context, node.source, node.disambiguation, node.n);
        }
        if (node.parts.isEmpty())
            return pattern;
        QStringList args;
        args.reserve(node.parts.size());
        for (const Sentence& part : node.parts)
            args << part.render(english);
        return filled(pattern, args);
    }
    case Node::Kind::Concat: {
        QString out;
        for (const Sentence& part : node.parts)
            out += part.render(english);
        return out;
    }
    case Node::Kind::Capitalized: {
        QString out = node.parts.front().render(english);
        if (!out.isEmpty())
            out[0] = out[0].toUpper();
        return out;
    }
    }
    return {};
}

QString Sentence::text() const
{
    return render(false);
}

QString Sentence::english() const
{
    return render(true);
}

bool Sentence::isEmpty() const
{
    if (!m_node)
        return true;
    switch (m_node->kind) {
    case Node::Kind::Plain:
        return m_node->plain.isEmpty();
    case Node::Kind::Phrase:
        return false;
    case Node::Kind::Concat:
    case Node::Kind::Capitalized:
        return std::all_of(
            m_node->parts.begin(), m_node->parts.end(), [](const Sentence& part) { return part.isEmpty(); });
    }
    return true;
}

bool Sentence::operator==(const Sentence& other) const
{
    if (m_node == other.m_node)
        return true;
    if (isEmpty() || other.isEmpty())
        return isEmpty() && other.isEmpty();
    const Node& a = *m_node;
    const Node& b = *other.m_node;
    return a.kind == b.kind && sameText(a.context, b.context) && sameText(a.source, b.source)
        && sameText(a.disambiguation, b.disambiguation) && a.n == b.n && a.plain == b.plain && a.parts == b.parts;
}

Sentence sentence(const char* context, const char* source, const char* disambiguation, int n)
{
    auto node = std::make_shared<Sentence::Node>();
    node->kind = Sentence::Node::Kind::Phrase;
    node->context = context;
    node->source = source;
    node->disambiguation = disambiguation;
    node->n = n;
    return Sentence(std::move(node));
}

void setPhraseTranslation(bool on)
{
    g_translate.store(on, std::memory_order_relaxed);
}

bool phraseTranslation()
{
    return g_translate.load(std::memory_order_relaxed);
}

EnglishPhrases::EnglishPhrases()
    : m_previous(t_english)
{
    t_english = true;
}

EnglishPhrases::~EnglishPhrases()
{
    t_english = m_previous;
}

} // namespace kp
