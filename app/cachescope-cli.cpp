// cachescope-cli: Cachescope's informers, headless.
#include "core/cli/apiresourcescommand.h"
#include "core/cli/contextscommand.h"
#include "core/cli/controlcommand.h"
#include "core/cli/eventscommand.h"
#include "core/cli/getcommand.h"
#include "core/cli/logscommand.h"
#include "core/cli/recordcommand.h"
#include "core/cli/recordinginfocommand.h"
#include "core/cli/replaycommand.h"
#include "core/cli/terminationsignals.h"
#include "core/cli/treecommand.h"
#include "core/cli/watchcommand.h"
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
                                     "  api-resources  list the resource types the cluster offers\n"
                                     "  get RESOURCE   sync an informer and print from its cache (-n/-A, -l, --field-selector, --index, -o)\n"
                                     "  watch RESOURCE print one JSON line per informer notification (--for, --dump; SIGINT ends it)\n"
                                     "  control RESOURCE run a built-in controller on an informer, then print its findings and workqueue\n"
                                     "                 metrics (--controller, --param, --workers, --max-retries, --for)\n"
                                     "  logs POD       print a container's log as kubectl logs does (-c, -f, --previous, --timestamps,\n"
                                     "                 --tail, --since, --since-time, --limit-bytes)\n"
                                     "  record RESOURCE -o FILE  record what the informers get into a SQLite file (--for,\n"
                                     "                 --include-secret-values; SIGINT ends it)\n"
                                     "  replay FILE get|watch RESOURCE  an informer fed by a recording (--at TIME|+OFFSET, --speed N)\n"
                                     "  recording info FILE  what a recording holds\n"
                                     "  tree KIND/NAME the object's owners, dependents and implicit relations, drawn as kubectl-tree (-n)\n"
                                     "  events KIND/NAME the object's Kubernetes Events, as kubectl events --for prints them (-n)\n\n"_s +
                                     Cachescope::ControlCommand::controllersHelp());
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption kubeconfigOption(u"kubeconfig"_s, u"The kubeconfig file to use (default: $KUBECONFIG, else ~/.kube/config)."_s, u"file"_s);
    const QCommandLineOption contextOption(u"context"_s, u"The kubeconfig context to use (default: current-context)."_s, u"name"_s);
    parser.addOption(kubeconfigOption);
    parser.addOption(contextOption);
    // The options of every command are known to one parser (their names do not clash); each
    // command reads the ones it takes.
    Cachescope::GetCommand::addOptions(parser);
    Cachescope::ControlCommand::addOptions(parser);
    Cachescope::LogsCommand::addOptions(parser);
    Cachescope::RecordCommand::addOptions(parser);
    Cachescope::ReplayCommand::addOptions(parser);
    for (const QCommandLineOption &option : {QCommandLineOption(u"for"_s, u"watch, control, record: stop after this long (e.g. 30s, 5m)."_s, u"duration"_s),
                                             QCommandLineOption(u"dump"_s, u"watch: when stopping, write the cache to this file as a v1 List."_s, u"file"_s)}) {
        parser.addOption(option);
    }
    parser.addPositionalArgument(u"command"_s, u"The command to run."_s, u"<command> [resource] [options]"_s);
    parser.process(app);

    QTextStream out(stdout);
    QTextStream err(stderr);
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err << parser.helpText();
        return 1;
    }
    const QString command = positional.constFirst();
    const bool takesObject = command == u"tree"_s || command == u"events"_s;
    const bool takesResource =
        takesObject || command == u"get"_s || command == u"watch"_s || command == u"control"_s || command == u"logs"_s || command == u"record"_s;
    // replay FILE get|watch RESOURCE; recording info FILE
    const qsizetype maxArguments = command == u"replay"_s ? 4 : command == u"recording"_s ? 3 : takesResource ? 2 : 1;
    if (positional.size() > maxArguments) {
        err << "error: unexpected arguments after \"" << command << "\": " << positional.mid(1).join(u' ') << '\n';
        return 1;
    }
    if (command == u"recording"_s) {
        if (positional.value(1) != u"info"_s) {
            err << "error: recording takes one subcommand: recording info FILE\n";
            return 1;
        }
        return Cachescope::RecordingInfoCommand::run(positional.value(2), out, err);
    }
    if (command == u"replay"_s) {
        QString error;
        const auto options = Cachescope::ReplayCommand::fromParser(parser, positional.value(1), positional.value(2), positional.value(3), &error);
        if (!options) {
            err << "error: " << error << '\n';
            return 1;
        }
        Cachescope::ReplayCommand run(*options, out, err);
        Cachescope::TerminationSignals signals;
        QObject::connect(&signals, &Cachescope::TerminationSignals::terminationRequested, &run, &Cachescope::ReplayCommand::stop);
        QObject::connect(&run, &Cachescope::ReplayCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
        run.start();
        return app.exec();
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
    if (takesResource) {
        const QString resource = positional.value(1);
        QString error;
        if (takesObject) {
            const auto target = Cachescope::ObjectLookup::fromParser(parser, resource, &error);
            if (!target) {
                err << "error: " << error << '\n';
                return 1;
            }
            if (command == u"tree"_s) {
                Cachescope::TreeCommand run(config, parser.value(contextOption), *target, out, err);
                QObject::connect(&run, &Cachescope::TreeCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
                run.start();
                return app.exec();
            }
            Cachescope::EventsCommand run(config, parser.value(contextOption), *target, out, err);
            QObject::connect(&run, &Cachescope::EventsCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
            run.start();
            return app.exec();
        }
        if (command == u"get"_s) {
            const auto options = Cachescope::GetCommand::fromParser(parser, resource, &error);
            if (!options) {
                err << "error: " << error << '\n';
                return 1;
            }
            Cachescope::GetCommand run(config, parser.value(contextOption), *options, out, err);
            QObject::connect(&run, &Cachescope::GetCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
            run.start();
            return app.exec();
        }
        if (command == u"logs"_s) {
            const auto options = Cachescope::LogsCommand::fromParser(parser, resource, &error);
            if (!options) {
                err << "error: " << error << '\n';
                return 1;
            }
            Cachescope::LogsCommand run(config, parser.value(contextOption), *options, out, err);
            Cachescope::TerminationSignals signals;
            QObject::connect(&signals, &Cachescope::TerminationSignals::terminationRequested, &run, &Cachescope::LogsCommand::stop);
            QObject::connect(&run, &Cachescope::LogsCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
            run.start();
            return app.exec();
        }
        if (command == u"record"_s) {
            const auto options = Cachescope::RecordCommand::fromParser(parser, resource, &error);
            if (!options) {
                err << "error: " << error << '\n';
                return 1;
            }
            Cachescope::RecordCommand run(config, parser.value(contextOption), *options, out, err);
            Cachescope::TerminationSignals signals;
            QObject::connect(&signals, &Cachescope::TerminationSignals::terminationRequested, &run, &Cachescope::RecordCommand::stop);
            QObject::connect(&run, &Cachescope::RecordCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
            run.start();
            return app.exec();
        }
        if (command == u"control"_s) {
            const auto options = Cachescope::ControlCommand::fromParser(parser, resource, &error);
            if (!options) {
                err << "error: " << error << '\n';
                return 1;
            }
            Cachescope::ControlCommand run(config, parser.value(contextOption), *options, out, err);
            QObject::connect(&run, &Cachescope::ControlCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
            run.start();
            return app.exec();
        }
        const auto options = Cachescope::WatchCommand::fromParser(parser, resource, &error);
        if (!options) {
            err << "error: " << error << '\n';
            return 1;
        }
        Cachescope::WatchCommand run(config, parser.value(contextOption), *options, out, err);
        Cachescope::TerminationSignals signals;
        QObject::connect(&signals, &Cachescope::TerminationSignals::terminationRequested, &run, &Cachescope::WatchCommand::stop);
        QObject::connect(&run, &Cachescope::WatchCommand::finished, &app, &QCoreApplication::exit, Qt::QueuedConnection);
        run.start();
        return app.exec();
    }
    err << "error: unknown command \"" << command << "\"; see --help\n";
    return 1;
}
