#pragma once

#include "core/cli/objectlookup.h"
#include "core/relations/eventrecord.h"

#include <QDateTime>
#include <QList>
#include <QObject>

#include <memory>

class QTextStream;

namespace Cachescope {

class ObjectEvents;

// EventsCommand is `cachescope-cli events KIND/NAME [-n NS]`: the Kubernetes Events of one
// object (ObjectEvents, from an events informer of the object's namespace), printed as
// `kubectl events --for KIND/NAME` prints them: LAST SEEN TYPE REASON OBJECT MESSAGE, oldest
// first, LAST SEEN as `5m (x3 over 10m)` for an event seen several times, OBJECT as
// `kind/name` in lower case. No events: kubectl's "No events found in NS namespace." on err,
// exit code 0. Asynchronous: start(), then finished(exitCode).
class EventsCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventsCommand)

public:
    EventsCommand(
        const Kubeconfig &config, const QString &context, const ObjectLookup::Target &target, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~EventsCommand() override;

    void start();

    // printEvents() writes events (newest first, as ObjectEvents gives them) as the command does.
    static void printEvents(const QList<EventRecord> &events, const QDateTime &now, QTextStream &out);

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onFound(const ObjectRef &object);
    void print();

    ObjectLookup::Target m_target;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<ObjectLookup> m_lookup;
    std::unique_ptr<ObjectEvents> m_events;
    ObjectRef m_object;
    bool m_done = false;
};

} // namespace Cachescope
