// cachescope-sim: the simulated Kubernetes API server, standalone.
#include "core/sim/simcluster.h"
#include "core/sim/simoptions.h"
#include "core/version.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;

namespace {
// The write end of the self-pipe: a signal handler may only write(2), so SIGINT and SIGTERM
// become a byte that the event loop reads through a QSocketNotifier.
int signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[1], &byte, 1);
}
} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"cachescope-sim"_s);
    QCoreApplication::setApplicationVersion(Cachescope::version());
    QCommandLineParser parser;
    parser.setApplicationDescription(u"A simulated Kubernetes API server on loopback."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    Cachescope::Sim::SimOptions::addOptions(parser);
    parser.process(app);

    QString error;
    const std::optional<Cachescope::Sim::SimOptions> options = Cachescope::Sim::SimOptions::fromParser(parser, &error);
    if (!options) {
        std::fprintf(stderr, "cachescope-sim: %s\n", qPrintable(error));
        return 2;
    }

    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalPipe) != 0) {
        std::perror("cachescope-sim: socketpair");
        return 1;
    }
    QSocketNotifier notifier(signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &app, [&notifier] {
        notifier.setEnabled(false);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);

    Cachescope::Sim::SimCluster cluster(*options);
    if (!cluster.start(&error)) {
        std::fprintf(stderr, "cachescope-sim: %s\n", qPrintable(error));
        return 1;
    }
    // The contract with scripts and tests: exactly these three lines, flushed, then serving.
    std::printf("url: %s\nkubeconfig: %s\nready\n", qPrintable(cluster.url().toString()), qPrintable(cluster.kubeconfigPath()));
    std::fflush(stdout);

    const int status = app.exec();
    cluster.stop();
    return status;
}
