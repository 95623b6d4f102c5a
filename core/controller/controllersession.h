#pragma once

#include "core/controller/controllersettings.h"
#include "core/controller/processfunctionparameters.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

namespace Cachescope {

class Cluster;
class Controller;
class OwnerInformers;
class SharedIndexInformer;

// ControllerSession is the lifecycle of the controller a user runs on an informer of a cluster,
// without any widget: at most one current controller. run() builds a built-in controller from
// its name and `name=value` parameters (makeController(), which the CLI uses too) and starts
// it; owner-references first gets the owners' informers (OwnerInformers, in the given
// namespace) and starts once they have synced — until then the controller is Idle and
// waitingForOwners() names the kinds it waits for. A controller that is replaced (another run,
// retire()) is stopped without blocking its caller (Controller::stopAsync) and kept, draining,
// until it is Stopped, then deleted; a stop() leaves it current, drained, with its findings and
// logs readable. Only stopControllersOf() (a cluster about to go) and the session's end wait
// for a drain, since the workers read that cluster's caches.
// Thread: the clusters' thread (the GUI thread in the app). Ownership: the controllers and the
// owners' informers handle; the clusters and informers are not owned, and a cluster must call
// stopControllersOf() before it shuts its informers down.
class ControllerSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ControllerSession)

public:
    explicit ControllerSession(QObject *parent = nullptr);
    ~ControllerSession() override;

    // makeController() builds the built-in controller `name` on informer; nothing, and *error,
    // for an unknown name or a parameter it does not take. Not started.
    [[nodiscard]] static std::unique_ptr<Controller> makeController(SharedIndexInformer *informer,
                                                                    const QString &name,
                                                                    const QStringList &parameterAssignments,
                                                                    const OwnerLookup &ownerLookup,
                                                                    const ControllerSettings &settings,
                                                                    QString *error = nullptr);

    // run() makes `name` the current controller on informer (of cluster; owners are looked up in
    // namespaceName, empty for all) and starts it, or has it wait for the owners' caches. On
    // an error (*error says which) the current controller is left as it was.
    bool run(Cluster *cluster,
             SharedIndexInformer *informer,
             const QString &namespaceName,
             const QString &name,
             const QStringList &parameterAssignments,
             const ControllerSettings &settings,
             QString *error = nullptr);
    void pause();
    void resume();
    // stop() drains the current controller off this thread; it stays current.
    void stop();
    // retire() lets the current controller go: it drains off this thread, then is deleted.
    void retire();
    // stopControllersOf() stops, blocking, every controller that reads cluster's caches.
    void stopControllersOf(Cluster *cluster);

    [[nodiscard]] Controller *controller() const { return m_controller.get(); }
    // waitingForOwners() are the owner kinds whose caches the current controller waits for.
    [[nodiscard]] QStringList waitingForOwners() const;
    // retiringCount() is how many replaced controllers are still draining.
    [[nodiscard]] int retiringCount() const { return int(m_retiring.size()); }

Q_SIGNALS:
    // controllerChanged() comes when the current controller is another one or none.
    void controllerChanged(Cachescope::Controller *controller);
    // waitingForOwnersChanged() comes when the current controller starts waiting for the owners'
    // caches (their kinds) and when it stops waiting (empty).
    void waitingForOwnersChanged(const QStringList &kinds);

private:
    // detach() takes the current controller away from the session, telling the views.
    std::unique_ptr<Controller> detach();

    std::unique_ptr<Controller> m_controller;
    QPointer<Cluster> m_cluster; // whose caches m_controller reads
    // For owner-references: the owners' informers m_controller looks up in.
    std::unique_ptr<OwnerInformers> m_owners;
    // Replaced controllers still draining, with their clusters; each is erased once Stopped.
    std::vector<std::pair<QPointer<Cluster>, std::unique_ptr<Controller>>> m_retiring;
};

} // namespace Cachescope
