#pragma once

#include "ui/models/cachestatistics.h"
#include <QPointer>
#include <QStatusBar>

class QLabel;

namespace Cachescope {

// ClusterStatusBar is the main window's status bar: the cluster (context) and its connection
// state on the left, then objects cached, memory used by the caches (an estimate) and events
// per second, read from a CacheStatistics each time it samples. Temporary messages
// (showMessage()) still work and cover the left part while shown.
// Thread: GUI thread. Ownership: the statistics are not owned.
class ClusterStatusBar final : public QStatusBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterStatusBar)

public:
    enum class ConnectionState { Disconnected, Connecting, Syncing, Synced, Retrying, Failed };
    Q_ENUM(ConnectionState)

    explicit ClusterStatusBar(QWidget *parent = nullptr);
    ~ClusterStatusBar() override;

    void setClusterName(const QString &name);
    QString clusterName() const { return m_clusterName; }
    // setConnectionState() shows the state; detail (e.g. the error while retrying) goes into
    // the tooltip.
    void setConnectionState(ConnectionState state, const QString &detail = {});
    ConnectionState connectionState() const { return m_state; }

    void setStatistics(CacheStatistics *statistics);
    CacheStatistics *statistics() const { return m_statistics.data(); }

    // The texts shown, for tests.
    QString clusterText() const;
    QString objectsText() const;
    QString memoryText() const;
    QString eventsText() const;

    static QString stateName(ConnectionState state);

private:
    void updateCluster();
    void updateStatistics();

    QPointer<CacheStatistics> m_statistics; // not owned
    QString m_clusterName;
    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_detail;
    QLabel *m_cluster; // owned (child)
    QLabel *m_objects; // owned (child)
    QLabel *m_memory; // owned (child)
    QLabel *m_events; // owned (child)
};

} // namespace Cachescope
