#pragma once

#include "core/sim/storedobject.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace Cachescope::Sim {

class LogSession;
class ObjectStore;
struct ApiCall;

// LogHandler serves GET /api/v1/namespaces/NS/pods/NAME/log as the kubelet behind the
// apiserver does: text/plain lines of one container (`container`, required when the pod has
// several), of its current instance or, with `previous`, of the one before the last restart;
// `timestamps` prefixes each line with its RFC 3339 time, `sinceSeconds` / `sinceTime` start at
// a time, `tailLines` keeps the last lines, `limitBytes` cuts the stream. Errors are the
// apiserver's: 404 for a missing pod, 400 with kubectl's words for a missing or unknown
// container, for a previous instance that never was, and for parameters that do not parse.
//
// The lines come from a ContainerLogGenerator seeded by the simulator's seed and the names, timed
// from the container's start (status.containerStatuses; a pod without a status, from its
// creation), so nothing is stored. Without `follow` the body is pulled as the client reads it;
// with it, a LogSession keeps the stream open and writes lines as they are made, until the pod
// is deleted or its container restarts (deliver()).
//
// Thread: the server thread; a child of ApiServer. The follow sessions are its children. Not
// owning: the store outlives it.
class LogHandler final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogHandler)
public:
    // `linePeriodMs`: the milliseconds between a container's steady lines; 0: its image's pace.
    LogHandler(const ObjectStore *store, quint64 seed, qint64 linePeriodMs = 0, QObject *parent = nullptr);
    ~LogHandler() override;

    void serve(const ApiCall &call);
    // Ends the follows of a pod that was deleted or whose followed container restarted.
    void deliver(const StoreEventPtr &event);

    [[nodiscard]] int followCount() const;

private:
    struct Follow
    {
        LogSession *session = nullptr; // a child
        QString container;
        int restartCount = 0; // of the instance it follows
    };

    const ObjectStore *m_store; // not owned
    quint64 m_seed;
    qint64 m_linePeriodMs;
    QHash<QString, QList<Follow>> m_follows; // by pod key
};

} // namespace Cachescope::Sim
