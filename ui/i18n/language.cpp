#include "i18n/language.h"

#include "metrics/phrase.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

namespace kp::ui {

namespace {

QString g_current = QStringLiteral("en");

} // namespace

QList<Language::Entry> Language::available()
{
    // Each language names itself, so that a user can find theirs whatever the window speaks now.
    return {
        { QStringLiteral("en"), QStringLiteral("English") },
        { QStringLiteral("zh_CN"), QStringLiteral("简体中文") },
    };
}

QString Language::settingKey()
{
    return QStringLiteral("ui/language");
}

QString Language::chosen()
{
    const QString code = QSettings().value(settingKey()).toString();
    for (const Entry& e : available()) {
        if (e.code == code)
            return code;
    }
    return {};
}

void Language::setChosen(const QString& code)
{
    QSettings settings;
    if (code.isEmpty())
        settings.remove(settingKey());
    else
        settings.setValue(settingKey(), code);
}

QLocale Language::localeFor(const QString& code)
{
    return code.isEmpty() ? QLocale::system() : QLocale(code);
}

QString Language::codeFor(const QLocale& locale)
{
    if (locale.language() == QLocale::Chinese && locale.script() != QLocale::TraditionalChineseScript)
        return QStringLiteral("zh_CN");
    return QStringLiteral("en");
}

QString Language::install(QCoreApplication* app, const QLocale& locale)
{
    const QString code = codeFor(locale);
    QLocale::setDefault(locale);

    // The English catalogue holds only the plural forms ("1 step", "2 steps").
    auto* own = new QTranslator(app);
    if (own->load(QStringLiteral(":/i18n/kneepoint_%1.qm").arg(code)))
        QCoreApplication::installTranslator(own);
    else
        delete own;
    if (code != QLatin1String("en")) {
        auto* qt = new QTranslator(app);
        if (qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
        else
            delete qt;
    }
    // Han characters in the Simplified Chinese forms: without a hint, fontconfig may pick the Japanese
    // face of a CJK collection for them.
    if (code == QLatin1String("zh_CN") && qobject_cast<QGuiApplication*>(app)) {
        const QStringList installed = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
        for (const QString& family : { QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Source Han Sans SC"),
                 QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("WenQuanYi Zen Hei") }) {
            if (installed.contains(family)) {
                QFont font = QGuiApplication::font();
                font.setFamilies({ font.family(), family });
                QGuiApplication::setFont(font);
                break;
            }
        }
    }
    setPhraseTranslation(true);
    g_current = code;
    return code;
}

QString Language::current()
{
    return g_current;
}

} // namespace kp::ui
