// cachescope: the desktop explorer.
#include "core/sim/simcluster.h"
#include "core/version.h"
#include "ui/localization.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/recordingcontroller.h"
#include "ui/widgets/sessionrecorder.h"
#include "ui/workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QStatusBar>

#include <cstdio>
#include <memory>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"Cachescope"_s);
    QApplication::setApplicationName(u"cachescope"_s);
    QApplication::setApplicationDisplayName(u"Cachescope"_s);
    QApplication::setApplicationVersion(Cachescope::version());
    QApplication::setDesktopFileName(u"io.github.cachescope.Cachescope"_s);

    QCommandLineParser parser;
    parser.setApplicationDescription(u"Explore a Kubernetes cluster through its informer cache."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(u"demo"_s, u"Explore a simulated cluster started in-process (with churn)."_s);
    const QCommandLineOption demoPods(u"demo-pods"_s, u"Pods in the --demo cluster (default 3000)."_s, u"N"_s, u"3000"_s);
    const QCommandLineOption demoChurn(u"demo-churn"_s, u"Changes per second in the --demo cluster (default 20)."_s, u"N"_s, u"20"_s);
    const QCommandLineOption lang(u"lang"_s, u"Language of the interface, e.g. zh_CN (default: the system's)."_s, u"LANG"_s);
    const QCommandLineOption kubeconfig(u"kubeconfig"_s, u"Kubeconfig file to open."_s, u"FILE"_s);
    const QCommandLineOption recording(u"recording"_s, u"Open a recording (cachescope-cli record) with its time bar."_s, u"FILE"_s);
    parser.addOptions({demo, demoPods, demoChurn, lang, kubeconfig, recording});
    parser.process(app);

    const QLocale locale = parser.isSet(lang) ? QLocale(parser.value(lang)) : QLocale::system();
    if (!Cachescope::installTranslations(app, locale) && parser.isSet(lang)) {
        std::fprintf(stderr, "cachescope: no translation for %s, using English\n", qPrintable(parser.value(lang)));
    }

    Cachescope::MainWindow window;
    Cachescope::Workspace workspace;
    Cachescope::Explorer explorer(&window, &workspace);
    window.restoreWindowState();
    window.show();

    // The demo: a simulated cluster on its own thread; populating it does not hold the window up.
    // Asked for with --demo, or from the welcome page when no kubeconfig was found.
    std::unique_ptr<Cachescope::Sim::SimCluster> sim;
    const auto startDemo = [&] {
        if (sim) {
            return;
        }
        sim = std::make_unique<Cachescope::Sim::SimCluster>(
            Cachescope::Sim::SimOptions::forDemo(parser.value(demoPods).toInt(), parser.value(demoChurn).toDouble()));
        QObject::connect(sim.get(), &Cachescope::Sim::SimCluster::started, &explorer, [&](bool ok, const QString &error) {
            if (!ok) {
                std::fprintf(stderr, "cachescope: the demo cluster did not start: %s\n", qPrintable(error));
                return;
            }
            explorer.openKubeconfig(sim->kubeconfigPath());
        });
        window.statusBar()->showMessage(QCoreApplication::translate("main", "Starting the demo cluster…"));
        sim->startAsync();
    };
    QObject::connect(&explorer, &Cachescope::Explorer::demoRequested, &explorer, startDemo);

    // A recording, served in-process as a cluster with its time bar; and the current cluster's
    // session recorded (File menu).
    Cachescope::RecordingController recordings(&window, &workspace, &explorer);
    Cachescope::SessionRecorder recorder(&window, &workspace, &explorer);

    if (parser.isSet(recording)) {
        (void)recordings.open(parser.value(recording));
    } else if (parser.isSet(demo)) {
        startDemo();
    } else {
        explorer.openKubeconfig(parser.value(kubeconfig));
    }
    return QApplication::exec();
}
