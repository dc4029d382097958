#pragma once

#include <QString>
#include <QStringList>

// Sentences the engine writes for people (the analysis, capacity plans, failure hints) are assembled
// from phrases with %1 placeholders, never from concatenated English. phrase() returns a phrase in
// English, the language of the CLI and of every file, unless translation has been switched on for the
// process (the desktop application does so at start) and no EnglishPhrases scope is open in the
// calling thread; then it goes through QCoreApplication::translate, whose catalogues the application
// installs. lupdate collects the phrases as calls of `translate` (its option
// -tr-function-alias translate+=phrase), so context and source must be string literals.
namespace kp {

QString phrase(const char* context, const char* source, const char* disambiguation = nullptr, int n = -1);

// A sentence kept as its phrase and arguments, for text that is both shown and written to a file
// (why a sweep stopped early): text() answers like phrase(), in the window's language when
// translation is on; english() always in English. Made with sentence(), which lupdate collects like
// phrase() (-tr-function-alias translate+=sentence); arg() fills %1, %2, ... in order, like QString's:
//     sentence("SweepPlanner", "errors passed the limit at %1").arg(load)
struct Sentence
{
    const char* context = nullptr;
    const char* source = nullptr;
    QStringList args;

    Sentence arg(const QString& value) const;
    QString text() const;
    QString english() const;
    bool isEmpty() const { return source == nullptr; }
};

Sentence sentence(const char* context, const char* source);

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
