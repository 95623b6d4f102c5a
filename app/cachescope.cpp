// cachescope: the desktop explorer.
#include "core/sim/recordingplayback.h"
#include "core/sim/simcluster.h"
#include "core/version.h"
#include "ui/localization.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/recordingbar.h"
#include "ui/workspace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <utility>

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
        Cachescope::Sim::SimOptions options;
        options.pods = parser.value(demoPods).toInt();
        options.churn = parser.value(demoChurn).toDouble();
        options.namespaces = 6;
        options.nodes = std::max(3, options.pods / 100);
        sim = std::make_unique<Cachescope::Sim::SimCluster>(options);
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

    // A recording: served in-process as a cluster from the instant the time bar chooses
    // (RecordingPlayback); the bar asks, the playback answers, the bar shows the answer.
    std::unique_ptr<Cachescope::Sim::RecordingPlayback> playback;
    Cachescope::RecordingBar *bar = nullptr;
    QTimer barTick;
    barTick.setInterval(250);
    const auto openRecording = [&](const QString &path) {
        auto next = std::make_unique<Cachescope::Sim::RecordingPlayback>();
        QString error;
        if (!next->open(path, &error)) {
            window.statusBar()->showMessage(QCoreApplication::translate("main", "Cannot open the recording %1: %2").arg(path, error));
            return;
        }
        playback = std::move(next);
        if (!bar) {
            bar = new Cachescope::RecordingBar(&window);
            window.addToolBar(Qt::BottomToolBarArea, bar);
            QObject::connect(&barTick, &QTimer::timeout, bar, [&] { bar->setPosition(playback->positionMs()); });
        }
        bar->disconnect(&app); // the previous recording's requests
        QObject::connect(bar, &Cachescope::RecordingBar::seekRequested, &app, [&](qint64 offsetMs) { playback->seek(offsetMs); });
        QObject::connect(bar, &Cachescope::RecordingBar::playingRequested, &app, [&](bool playing) { playback->setPlaying(playing); });
        QObject::connect(bar, &Cachescope::RecordingBar::speedRequested, &app, [&](double speed) { playback->setSpeed(speed); });
        bar->setRecording(QFileInfo(path).fileName(), playback->startedAt(), playback->durationMs());
        bar->show();
        Cachescope::Sim::RecordingPlayback *served = playback.get();
        QObject::connect(served, &Cachescope::Sim::RecordingPlayback::stateChanged, bar, [&, served] {
            bar->setPlaying(served->isPlaying());
            bar->setSpeed(served->speed());
            bar->setPosition(served->positionMs());
        });
        bool first = true;
        QObject::connect(served, &Cachescope::Sim::RecordingPlayback::served, &explorer, [&, served, first, path](bool ok, const QString &why) mutable {
            if (!ok) {
                window.statusBar()->showMessage(QCoreApplication::translate("main", "Cannot serve the recording %1: %2").arg(path, why));
                return;
            }
            if (std::exchange(first, false)) {
                explorer.openKubeconfig(served->kubeconfigPath());
            }
        });
        barTick.start();
    };
    QObject::connect(&window, &Cachescope::MainWindow::recordingRequested, &explorer, openRecording);

    if (parser.isSet(recording)) {
        openRecording(parser.value(recording));
    } else if (parser.isSet(demo)) {
        startDemo();
    } else {
        explorer.openKubeconfig(parser.value(kubeconfig));
    }
    return QApplication::exec();
}
