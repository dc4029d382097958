#include "cli.h"

#include "sim/filelimit.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("kneepoint-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KNEEPOINT_VERSION));
    kp::sim::raiseFileLimit(); // thousands of streams need thousands of sockets
    return kp::cli::run(QCoreApplication::arguments());
}
