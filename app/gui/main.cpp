#include "i18n/language.h"
#include "kit/runtimedir.h"
#include "shell/mainwindow.h"
#include "sim/filelimit.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <cstring>

namespace {

const char* const kUsage = "Usage: kneepoint [options] [profile]\n"
                           "Interactive load testing of LLM inference servers.\n\n"
                           "  profile         a profile file (JSON or TOML) to open\n"
                           "  -h, --help      show this help and exit\n"
                           "  -v, --version   show the version and exit\n"
                           "Qt's options (-platform, -style, ...) are accepted too.\n";

} // namespace

int main(int argc, char* argv[])
{
    // Answered before QApplication, which needs a display.
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0) {
            std::fputs("kneepoint " KNEEPOINT_VERSION "\n", stdout);
            return 0;
        }
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(kUsage, stdout);
            return 0;
        }
    }

    kp::ui::ensureRuntimeDirectory();
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Kneepoint"));
    QApplication::setApplicationDisplayName(QStringLiteral("Kneepoint"));
    QApplication::setApplicationVersion(QStringLiteral(KNEEPOINT_VERSION));
    QApplication::setOrganizationName(QStringLiteral("Kneepoint"));
    QApplication::setOrganizationDomain(QStringLiteral("kneepoint.invalid"));
    QApplication::setDesktopFileName(QStringLiteral("kneepoint"));
    // The window's language: the system's, or the one chosen in View ▸ Language at the last start.
    kp::ui::Language::install(&app, kp::ui::Language::localeFor(kp::ui::Language::chosen()));
    kp::sim::raiseFileLimit(); // a sweep may hold thousands of sockets, the built-in simulator as many again

    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("profile"), QStringLiteral("A profile file to open."));
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "kneepoint: %s\n%s", qUtf8Printable(parser.errorText()), kUsage);
        return 2;
    }

    kp::ui::MainWindow window;
    if (const QStringList files = parser.positionalArguments(); !files.isEmpty())
        window.openProfile(files.constFirst());
    window.show();
    return app.exec();
}
