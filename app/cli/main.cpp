#include "cli.h"

#include "sim/filelimit.h"

#include <QCoreApplication>

#include <csignal>
#include <memory>

#ifdef KNEEPOINT_CLI_EXPORT
#include "kit/runtimedir.h"

#include <QApplication>

namespace kp::cli {
bool verbNeedsGui(const QStringList& arguments); // cmd_export.cpp
}
#endif

int main(int argc, char** argv)
{
#ifdef SIGXFSZ
    // A write past the file-size limit (ulimit -f) would end the process with SIGXFSZ, mid-export and
    // without a word; ignored, the write fails with EFBIG and the writer says which file and why.
    std::signal(SIGXFSZ, SIG_IGN);
#endif
    std::unique_ptr<QCoreApplication> app;
#ifdef KNEEPOINT_CLI_EXPORT
    // Charts and reports are drawn with Qt Widgets: those commands get a QApplication, on the offscreen
    // platform unless QT_QPA_PLATFORM names another, so that they need no display. Every other command
    // stays a QCoreApplication and loads no GUI platform.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (kp::cli::verbNeedsGui(arguments)) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        kp::ui::ensureRuntimeDirectory();
        app = std::make_unique<QApplication>(argc, argv);
    }
#endif
    if (!app)
        app = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("kneepoint-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KNEEPOINT_VERSION));
    kp::sim::raiseFileLimit(); // thousands of streams need thousands of sockets
    return kp::cli::run(QCoreApplication::arguments());
}
