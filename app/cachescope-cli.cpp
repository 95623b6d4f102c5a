// cachescope-cli: Cachescope's informers, headless.
#include "core/cli/apiresourcescommand.h"
#include "core/cli/contextscommand.h"
#include "core/kube/kubeconfig.h"
#include "core/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(u"Cachescope"_s);
    QCoreApplication::setApplicationName(u"cachescope-cli"_s);
    QCoreApplication::setApplicationVersion(Cachescope::version());

    QCommandLineParser parser;
    parser.setApplicationDescription(u"Cachescope's informers, headless: list and watch a Kubernetes cluster through its informer cache.\n\n"
                                     "Commands:\n"
                                     "  contexts       list the contexts of the kubeconfig files, with the file of each\n"
                                     "  api-resources  list the resource types the cluster offers"_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption kubeconfigOption(u"kubeconfig"_s, u"The kubeconfig file to use (default: $KUBECONFIG, else ~/.kube/config)."_s, u"file"_s);
    const QCommandLineOption contextOption(u"context"_s, u"The kubeconfig context to use (default: current-context)."_s, u"name"_s);
    parser.addOption(kubeconfigOption);
    parser.addOption(contextOption);
    parser.addPositionalArgument(u"command"_s, u"The command to run."_s, u"<command> [options]"_s);
    parser.process(app);

    QTextStream out(stdout);
    QTextStream err(stderr);
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err << parser.helpText();
        return 1;
    }
    const QString command = positional.constFirst();
    if (positional.size() > 1) {
        err << "error: unexpected arguments after \"" << command << "\": " << positional.mid(1).join(u' ') << '\n';
        return 1;
    }
    const Cachescope::Kubeconfig config = Cachescope::Kubeconfig::load(parser.value(kubeconfigOption));
    if (command == u"contexts"_s) {
        return Cachescope::ContextsCommand::run(config, out, err);
    }
    if (command == u"api-resources"_s) {
        Cachescope::ApiResourcesCommand run(config, parser.value(contextOption), out, err);
        QObject::connect(&run, &Cachescope::ApiResourcesCommand::finished, &app, &QCoreApplication::exit);
        run.start();
        return app.exec();
    }
    err << "error: unknown command \"" << command << "\"; see --help\n";
    return 1;
}
