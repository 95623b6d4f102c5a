// cachescope-sim: the simulated Kubernetes API server, standalone.
#include "core/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"cachescope-sim"_s);
    QCoreApplication::setApplicationVersion(Cachescope::version());
    QCommandLineParser parser;
    parser.setApplicationDescription(u"A simulated Kubernetes API server on loopback."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.process(app);
    std::fputs("cachescope-sim: the simulated cluster is not built yet\n", stderr);
    return 1;
}
