#pragma once

#include "core/sim/storedobject.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace Cachescope::Sim {

class ObjectStore;
class PendingFault;
class WatchSession;
struct ApiCall;
struct ResourceSelector;

// WatchHandler serves WATCH and keeps the watches it started: each request becomes a
// WatchSession that starts from the current state (resourceVersion unset or "0", or a streaming
// list with sendInitialEvents and its closing bookmark) or replays the store's history after a
// version (a version older than the history: a 410 ERROR event in a 200 stream, as the watch
// cache sends it); deliver() hands each store event to the sessions of its resource. A 410, a
// truncated frame or a stall drawn for a watch is applied to its session.
//
// Thread: the server thread; a child of ApiServer. The sessions are its children. Not owning:
// the store outlives it.
class WatchHandler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchHandler)
public:
    struct Settings
    {
        int bookmarkIntervalMs = 5000;
        qint64 bufferLimit = 64 * 1024 * 1024; // a session whose reader falls further behind ends
        int tooLargeRetryAfterSeconds = 1; // ApiServer::Settings'
    };

    WatchHandler(ObjectStore *store, const Settings &settings, QObject *parent = nullptr);
    ~WatchHandler() override;

    void serve(const ApiCall &call, const ResourceSelector &selector, PendingFault &fault);
    void deliver(const StoreEventPtr &event);
    // A restart: every watch is cut.
    void abortAll();

    [[nodiscard]] int watchCount() const;
    [[nodiscard]] int slowWatchersDropped() const { return m_slowWatchersDropped; }

private:
    ObjectStore *m_store; // not owned
    Settings m_settings;
    QHash<QString, QList<WatchSession *>> m_watches; // by resource id; sessions are children
    int m_slowWatchersDropped = 0;
};

} // namespace Cachescope::Sim
