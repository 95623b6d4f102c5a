#pragma once

// What the window's tests share: the explorer in a main window, on an in-process simulated
// cluster.

#include "core/cache/sharedindexinformer.h"
#include "core/sim/simcluster.h"
#include "ui/widgets/explorer.h"
#include "ui/widgets/mainwindow.h"
#include "ui/workspace.h"

#include <QString>
#include <QTest>

namespace CachescopeTest {

// ExplorerOnSim is the window as app/cachescope.cpp assembles it, less what a test adds beside
// (a SessionRecorder, a RecordingController), and the simulator it opens.
struct ExplorerOnSim
{
    explicit ExplorerOnSim(const Cachescope::Sim::SimOptions &options)
        : sim(options)
    {
    }
    // open() starts the simulator, shows the window and opens the kubeconfig: pods are shown first.
    [[nodiscard]] bool open(QString *error)
    {
        if (!sim.start(error)) {
            return false;
        }
        window.show();
        explorer.openKubeconfig(sim.kubeconfigPath());
        return QTest::qWaitForWindowExposed(&window);
    }
    [[nodiscard]] bool showsSyncedInformer() const { return explorer.currentInformer() != nullptr && explorer.currentInformer()->hasSynced(); }

    Cachescope::Sim::SimCluster sim;
    Cachescope::MainWindow window;
    Cachescope::Workspace workspace;
    Cachescope::Explorer explorer{&window, &workspace};
};

} // namespace CachescopeTest
