#include "core/controller/ownerinformers.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/cache/sharedindexinformer.h"
#include "core/controller/ownerreferencecheck.h"

#include <QHash>
#include <QMetaObject>

#include <algorithm>
#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
// The kinds that own objects in a cluster, with the resource name discovery resolves them by.
const QList<std::pair<QString, QString>> ownerResources{
    {u"ReplicaSet"_s, u"replicasets.apps"_s},
    {u"Deployment"_s, u"deployments.apps"_s},
    {u"StatefulSet"_s, u"statefulsets.apps"_s},
    {u"DaemonSet"_s, u"daemonsets.apps"_s},
    {u"Job"_s, u"jobs.batch"_s},
    {u"CronJob"_s, u"cronjobs.batch"_s},
    {u"ReplicationController"_s, u"replicationcontrollers"_s},
    {u"Node"_s, u"nodes"_s},
};
} // namespace

OwnerInformers::OwnerInformers(Cluster *cluster, const QString &namespaceName, QObject *parent)
    : QObject(parent)
{
    QHash<QString, const Indexer *> indexers;
    for (const auto &[kind, resource] : ownerResources) {
        SharedIndexInformer *informer = cluster->informerOf(resource, namespaceName);
        if (informer == nullptr) {
            continue;
        }
        indexers.insert(kind, &informer->indexer());
        m_informers.append(informer);
        m_kinds.append(kind);
        connect(informer, &SharedIndexInformer::synced, this, &OwnerInformers::checkSynced);
    }
    m_lookup = OwnerReferenceCheck::lookupIn(indexers);
    cluster->informers()->start();
    // Queued, so that a caller connects to synced() before it is emitted for informers that
    // had synced already.
    QMetaObject::invokeMethod(this, &OwnerInformers::checkSynced, Qt::QueuedConnection);
}

OwnerInformers::~OwnerInformers() = default;

QStringList OwnerInformers::kinds()
{
    QStringList kinds;
    for (const auto &entry : ownerResources) {
        kinds.append(entry.first);
    }
    return kinds;
}

bool OwnerInformers::hasSynced() const
{
    return std::all_of(
        m_informers.cbegin(), m_informers.cend(), [](const QPointer<SharedIndexInformer> &informer) { return informer && informer->hasSynced(); });
}

QStringList OwnerInformers::pendingKinds() const
{
    QStringList pending;
    for (qsizetype i = 0; i < m_informers.size(); ++i) {
        if (!m_informers.at(i) || !m_informers.at(i)->hasSynced()) {
            pending.append(m_kinds.at(i));
        }
    }
    return pending;
}

void OwnerInformers::checkSynced()
{
    if (!m_announced && hasSynced()) {
        m_announced = true;
        Q_EMIT synced();
    }
}

} // namespace Cachescope
