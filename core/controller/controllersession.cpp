#include "core/controller/controllersession.h"

#include "core/cache/cluster.h"
#include "core/controller/controller.h"
#include "core/controller/ownerinformers.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionregistry.h"

#include <algorithm>

namespace Cachescope {

ControllerSession::ControllerSession(QObject *parent)
    : QObject(parent)
{
}

ControllerSession::~ControllerSession()
{
    // The workers read the informers' caches: they end before the clusters do.
    m_controller.reset();
    m_owners.reset();
    m_retiring.clear();
}

std::unique_ptr<Controller> ControllerSession::makeController(SharedIndexInformer *informer,
                                                              const QString &name,
                                                              const QStringList &parameterAssignments,
                                                              const OwnerLookup &ownerLookup,
                                                              const ControllerSettings &settings,
                                                              QString *error)
{
    std::optional<ProcessFunctionParameters> parameters = ProcessFunctionParameters::fromAssignments(parameterAssignments, error);
    if (!parameters) {
        return nullptr;
    }
    parameters->ownerLookup = ownerLookup;
    std::unique_ptr<ProcessFunction> function = makeProcessFunction(name, *parameters, error);
    if (!function) {
        return nullptr;
    }
    return std::make_unique<Controller>(informer, std::shared_ptr<ProcessFunction>(std::move(function)), settings);
}

bool ControllerSession::run(Cluster *cluster,
                            SharedIndexInformer *informer,
                            const QString &namespaceName,
                            const QString &name,
                            const QStringList &parameterAssignments,
                            const ControllerSettings &settings,
                            QString *error)
{
    std::unique_ptr<OwnerInformers> owners;
    if (const auto info = controllerInfo(name); info && info->needsOwnerLookup) {
        owners = std::make_unique<OwnerInformers>(cluster, namespaceName);
    }
    std::unique_ptr<Controller> controller = makeController(informer, name, parameterAssignments, owners ? owners->lookup() : OwnerLookup(), settings, error);
    if (!controller) {
        return false;
    }
    retire();
    m_controller = std::move(controller);
    m_cluster = cluster;
    m_owners = std::move(owners);
    Q_EMIT controllerChanged(m_controller.get());
    if (m_owners && !m_owners->hasSynced()) {
        Q_EMIT waitingForOwnersChanged(m_owners->pendingKinds());
        connect(m_owners.get(), &OwnerInformers::synced, this, [this, current = m_controller.get()] {
            if (m_controller.get() == current && current->state() == Controller::State::Idle) {
                Q_EMIT waitingForOwnersChanged({});
                current->start();
            }
        });
    } else {
        m_controller->start();
    }
    return true;
}

QStringList ControllerSession::waitingForOwners() const
{
    if (!m_controller || !m_owners || m_controller->state() != Controller::State::Idle) {
        return {};
    }
    return m_owners->pendingKinds();
}

void ControllerSession::pause()
{
    if (m_controller) {
        m_controller->pause();
    }
}

void ControllerSession::resume()
{
    if (m_controller) {
        m_controller->resume();
    }
}

void ControllerSession::stop()
{
    if (m_controller) {
        m_controller->stopAsync();
    }
}

std::unique_ptr<Controller> ControllerSession::detach()
{
    std::unique_ptr<Controller> controller = std::move(m_controller);
    m_owners.reset();
    Q_EMIT controllerChanged(nullptr);
    return controller;
}

void ControllerSession::retire()
{
    if (!m_controller) {
        return;
    }
    std::unique_ptr<Controller> controller = detach();
    if (controller->state() == Controller::State::Stopped) {
        return;
    }
    controller->stopAsync();
    Controller *draining = controller.get();
    // Erased from a queued call: a controller must not be deleted inside its own signal.
    connect(draining, &Controller::stateChanged, this, [this, draining](Controller::State state) {
        if (state == Controller::State::Stopped) {
            QMetaObject::invokeMethod(
                this,
                [this, draining] { std::erase_if(m_retiring, [draining](const auto &entry) { return entry.second.get() == draining; }); },
                Qt::QueuedConnection);
        }
    });
    m_retiring.emplace_back(m_cluster, std::move(controller));
}

void ControllerSession::stopControllersOf(Cluster *cluster)
{
    if (m_controller && m_cluster == cluster) {
        detach().reset(); // stops: waits for the keys in flight
    }
    std::erase_if(m_retiring, [cluster](const auto &entry) { return entry.first == cluster; });
}

} // namespace Cachescope
