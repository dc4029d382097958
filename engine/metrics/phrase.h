#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <type_traits>

// Sentences the engine writes for people (the analysis, capacity plans, failure hints) are assembled
// from phrases with %1 placeholders, never from concatenated English. phrase() returns a phrase in
// English, the language of the CLI and of every file, unless translation has been switched on for the
// process (the desktop application does so at start) and no EnglishPhrases scope is open in the
// calling thread; then it goes through QCoreApplication::translate, whose catalogues the application
// installs. lupdate collects the phrases as calls of `translate` (its option
// -tr-function-alias translate+=phrase), so context and source must be string literals.
namespace kp {

QString phrase(const char* context, const char* source, const char* disambiguation = nullptr, int n = -1);

// A sentence kept as its phrases and values rather than as text, so that one result can be worded in
// any language when it is shown: text() answers like phrase(), in the window's language when
// translation is on; english() always in English (for files). Made with sentence(), which lupdate
// collects like phrase() (-tr-function-alias translate+=sentence); arg() fills %1, %2, ... by number,
// like QString's multi-argument arg(); an argument that is itself a Sentence is worded in the same
// language as the whole:
//     sentence("SweepPlanner", "errors passed the limit at %1").arg(load)
// Sentences join with + (and join()), and capitalized() raises the first letter of the worded text.
class Sentence
{
public:
    Sentence() = default;
    // Text that is not translated: numbers with units, names, keys.
    static Sentence plain(const QString& text);
    static Sentence join(const QList<Sentence>& parts, const Sentence& separator);

    Sentence arg(const Sentence& value) const;
    Sentence arg(const QString& value) const;
    Sentence arg(const char* value) const = delete; // a literal is either plain() or a phrase
    template <typename Integer>
    requires std::is_integral_v<Integer> Sentence arg(Integer value)
    const { return arg(QString::number(value)); }

    // Several arguments at once: arg(a, b, c) is arg(a).arg(b).arg(c).
    template <typename First, typename Second, typename... Rest>
    Sentence arg(const First& first, const Second& second, const Rest&... rest) const
    {
        return arg(first).arg(second, rest...);
    }

    Sentence capitalized() const;
    Sentence operator+(const Sentence& other) const;
    Sentence& operator+=(const Sentence& other);

    QString text() const;
    QString english() const;
    bool isEmpty() const;

    bool operator==(const Sentence& other) const;

private:
    struct Node;
    friend Sentence sentence(const char*, const char*, const char*, int);
    explicit Sentence(std::shared_ptr<const Node> node);
    QString render(bool english) const;

    std::shared_ptr<const Node> m_node;
};

Sentence sentence(const char* context, const char* source, const char* disambiguation = nullptr, int n = -1);

// Switches translation of phrases on or off for the whole process (off unless switched on).
void setPhraseTranslation(bool on);
bool phraseTranslation();

// While one lives, phrase() in this thread answers in English: text bound for files (analysis.json)
// stays the same under any language.
class EnglishPhrases
{
public:
    EnglishPhrases();
    ~EnglishPhrases();
    EnglishPhrases(const EnglishPhrases&) = delete;
    EnglishPhrases& operator=(const EnglishPhrases&) = delete;

private:
    bool m_previous;
};

} // namespace kp
