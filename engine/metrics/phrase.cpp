#include "metrics/phrase.h"

#include <QCoreApplication>

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

namespace {

QString filled(QString text, const QStringList& args)
{
    for (const QString& a : args)
        text = text.arg(a);
    return text;
}

} // namespace

QString Sentence::text() const
{
    return source ? filled(phrase(context, source), args) : QString();
}

QString Sentence::english() const
{
    return source ? filled(QString::fromUtf8(source), args) : QString();
}

Sentence Sentence::arg(const QString& value) const
{
    Sentence s = *this;
    s.args << value;
    return s;
}

Sentence sentence(const char* context, const char* source)
{
    return Sentence { context, source, {} };
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
