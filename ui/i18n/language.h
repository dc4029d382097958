#pragma once

#include <QList>
#include <QLocale>
#include <QString>

QT_BEGIN_NAMESPACE
class QCoreApplication;
QT_END_NAMESPACE

namespace kp::ui {

// The languages the window speaks. The window follows the system's locale unless the user picked a
// language (View ▸ Language, kept in QSettings under "ui/language"); a choice applies at the next
// start. install() loads the embedded catalogue (:/i18n/kneepoint_<code>.qm) and Qt's own one for
// its standard dialogs when the system has it (qt6-translations-l10n), makes the language's locale
// the default for numbers and dates on screen, and switches the engine's phrases to it. Files for
// machines are written with the C locale or fixed formats and never change with it.
class Language
{
public:
    struct Entry
    {
        QString code; // "en", "zh_CN"
        QString nativeName; // the language's name in itself: "English", "简体中文"
    };
    static QList<Entry> available();

    static QString settingKey(); // "ui/language"
    static QString chosen(); // the setting: "" = the system's language
    static void setChosen(const QString& code);

    // The locale the window uses for a setting: the system's for "", else the code's. A system
    // language without a catalogue falls back to English text, its locale still formats numbers.
    static QLocale localeFor(const QString& code);
    // The catalogue's code for a locale: "zh_CN" for any Chinese in simplified script, "en" otherwise.
    static QString codeFor(const QLocale& locale);

    // Installs the translators for the locale on the application; returns the catalogue's code.
    static QString install(QCoreApplication* app, const QLocale& locale);
    // The language in effect since install(): "en" before.
    static QString current();
};

} // namespace kp::ui
