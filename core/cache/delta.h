#pragma once

#include "core/cache/deletedfinalstateunknown.h"
#include "core/cache/kubeobject.h"

#include <QList>
#include <QString>

#include <memory>
#include <variant>

namespace Cachescope {

// DeltaType is what happened to an object, as a DeltaFifo or RealFifo reports it.
// Replaced marks an object that came from a relist (client-go's emitDeltaTypeReplaced); Sync
// marks a periodic resync of an object the store already has. ReplacedAll and SyncAll are a
// RealFifo's atomic events (client-go 1.36's AtomicFIFO): one delta for a whole relist, which
// carries the list, or for a whole resync of the store.
enum class DeltaType {
    Added,
    Updated,
    Deleted,
    Replaced,
    Sync,
    ReplacedAll,
    SyncAll,
};

// deltaTypeName() is client-go's spelling of the type ("Added", "Sync"…), for logs and the UI.
QString deltaTypeName(DeltaType type);

// DeltaObject is what a delta carries: an object, or for a Deleted delta possibly a tombstone.
using DeltaObject = std::variant<KubeObject, DeletedFinalStateUnknown>;

// Delta is one change queued for one object. A plain value, cheap to copy.
struct Delta
{
    DeltaType type = DeltaType::Added;
    DeltaObject object; // invalid for ReplacedAll and SyncAll
    // ReplacedAll only: the complete list and its resourceVersion. Shared, so copies stay cheap.
    std::shared_ptr<const QList<KubeObject>> list{};
    QString resourceVersion{};

    bool isAtomic() const { return type == DeltaType::ReplacedAll || type == DeltaType::SyncAll; }

    bool isTombstone() const { return std::holds_alternative<DeletedFinalStateUnknown>(object); }
    // kubeObject() is the object, or for a tombstone its last known state (possibly invalid).
    KubeObject kubeObject() const
    {
        if (const auto *tombstone = std::get_if<DeletedFinalStateUnknown>(&object)) {
            return tombstone->object;
        }
        return std::get<KubeObject>(object);
    }

    friend bool operator==(const Delta &, const Delta &) = default;
};

// Deltas is every change queued for one key, oldest first (for a RealFifo, always one delta).
using Deltas = QList<Delta>;

} // namespace Cachescope
