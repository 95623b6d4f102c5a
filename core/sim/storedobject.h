#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

#include <memory>

namespace Cachescope::Sim {

// StoredObject is one object as the simulator keeps it: its JSON, serialized once at write time
// (so lists and watch events copy bytes instead of re-encoding), and the few fields selectors,
// keys and truth() need, extracted at the same time. Immutable once stored and shared by
// pointer (ObjectPtr) between the store, list snapshots and watch history.
struct StoredObject
{
    QByteArray json;
    QString namespaceName;
    QString name;
    QString uid;
    QMap<QString, QString> labels;
    QString nodeName; // pods: spec.nodeName
    QString phase; // pods: status.phase
    // The further fields a field selector may name for the kind (events: involvedObject.name,
    // reason, type, source ...), field path -> value; empty for most kinds.
    QMap<QString, QString> selectableFields;
    quint64 resourceVersion = 0;

    // The cache key client-go uses: "namespace/name", or "name" when cluster-scoped.
    [[nodiscard]] QString key() const { return namespaceName.isEmpty() ? name : namespaceName + u'/' + name; }
    // The value of a field that FieldSelector supports.
    [[nodiscard]] QString fieldValue(const QString &field) const;
};

using ObjectPtr = std::shared_ptr<const StoredObject>;

enum class StoreEventType { Added, Modified, Deleted };

// StoreEvent is one change in the store's history, what a watch sends. `previous` is the state
// before a modification (selectors turn a MODIFIED that leaves or enters a selector into a
// DELETED or ADDED for that watcher, as the apiserver's watch cache does).
struct StoreEvent
{
    StoreEventType type = StoreEventType::Added;
    QString resource; // ResourceType::id()
    ObjectPtr object;
    ObjectPtr previous;
    quint64 resourceVersion = 0;
    qint64 recordedMs = 0; // on the store's monotonic clock, for the history window

    // The newline-terminated JSON watch event, built on first use and then shared by every
    // watcher that sends the object unchanged. Single-threaded use only (the server thread).
    [[nodiscard]] const QByteArray &frame() const;
    static QByteArray typeName(StoreEventType eventType);

private:
    mutable QByteArray m_frame;
};

using StoreEventPtr = std::shared_ptr<const StoreEvent>;

} // namespace Cachescope::Sim
