// cachescope-cli: Cachescope's informers, headless.
#include "core/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"Cachescope"_s);
    QCoreApplication::setApplicationName(u"cachescope-cli"_s);
    QCoreApplication::setApplicationVersion(Cachescope::version());

    QCommandLineParser parser;
    parser.setApplicationDescription(u"Cachescope's informers, headless: list and watch a Kubernetes cluster through its informer cache."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(u"command"_s, u"The command to run."_s, u"<command> [options]"_s);
    parser.process(app);

    if (parser.positionalArguments().isEmpty()) {
        std::fputs(qPrintable(parser.helpText()), stderr);
        return 1;
    }
    std::fprintf(stderr, "cachescope-cli: unknown command \"%s\"\n", qPrintable(parser.positionalArguments().constFirst()));
    return 1;
}
