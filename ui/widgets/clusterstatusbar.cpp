#include "ui/widgets/clusterstatusbar.h"

#include "ui/models/cachestatistics.h"

#include <QLabel>
#include <QLocale>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ClusterStatusBar::ClusterStatusBar(QWidget *parent)
    : QStatusBar(parent)
    , m_cluster(new QLabel(this))
    , m_objects(new QLabel(this))
    , m_memory(new QLabel(this))
    , m_events(new QLabel(this))
{
    m_cluster->setObjectName(u"cluster"_s);
    m_objects->setObjectName(u"objects"_s);
    m_memory->setObjectName(u"memory"_s);
    m_events->setObjectName(u"events"_s);
    m_objects->setToolTip(tr("Objects held by the informer caches of this window"));
    m_memory->setToolTip(tr("Estimated memory used by the caches: the objects' JSON plus bookkeeping"));
    m_events->setToolTip(tr("Changes applied to the caches per second"));
    addWidget(m_cluster, 1);
    addPermanentWidget(m_objects);
    addPermanentWidget(m_memory);
    addPermanentWidget(m_events);
    updateCluster();
    updateStatistics();
}

ClusterStatusBar::~ClusterStatusBar() = default;

void ClusterStatusBar::setClusterName(const QString &name)
{
    m_clusterName = name;
    updateCluster();
}

void ClusterStatusBar::setConnectionState(ConnectionState state, const QString &detail)
{
    m_state = state;
    m_detail = detail;
    updateCluster();
}

void ClusterStatusBar::setStatistics(CacheStatistics *statistics)
{
    if (m_statistics) {
        disconnect(m_statistics, nullptr, this, nullptr);
    }
    m_statistics = statistics;
    if (statistics) {
        connect(statistics, &CacheStatistics::changed, this, &ClusterStatusBar::updateStatistics);
    }
    updateStatistics();
}

QString ClusterStatusBar::clusterText() const
{
    return m_cluster->text();
}

QString ClusterStatusBar::objectsText() const
{
    return m_objects->text();
}

QString ClusterStatusBar::memoryText() const
{
    return m_memory->text();
}

QString ClusterStatusBar::eventsText() const
{
    return m_events->text();
}

QString ClusterStatusBar::stateName(ConnectionState state)
{
    switch (state) {
    case ConnectionState::Disconnected:
        return tr("disconnected");
    case ConnectionState::Connecting:
        return tr("connecting");
    case ConnectionState::Syncing:
        return tr("syncing");
    case ConnectionState::Synced:
        return tr("synced");
    case ConnectionState::Retrying:
        return tr("retrying");
    case ConnectionState::Failed:
        return tr("failed");
    }
    return {};
}

void ClusterStatusBar::updateCluster()
{
    if (m_clusterName.isEmpty()) {
        m_cluster->setText(tr("No cluster"));
    } else {
        m_cluster->setText(tr("%1 · %2").arg(m_clusterName, stateName(m_state)));
    }
    m_cluster->setToolTip(m_detail);
}

void ClusterStatusBar::updateStatistics()
{
    const QLocale locale;
    const CacheStatistics *statistics = m_statistics.data();
    const qint64 objects = statistics ? statistics->objects() : 0;
    const qint64 memory = statistics ? statistics->memoryBytes() : 0;
    const double events = statistics ? statistics->eventsPerSecond() : 0.0;
    m_objects->setText(tr("%1 objects cached").arg(locale.toString(objects)));
    m_memory->setText(tr("%1 in caches").arg(locale.formattedDataSize(memory, 1)));
    m_events->setText(tr("%1 events/s").arg(locale.toString(events, 'f', events < 10 ? 1 : 0)));
}

} // namespace Cachescope
