#pragma once

#include "core/sim/apierror.h"
#include "core/sim/backgroundcomposer.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/storedobject.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QRandomGenerator>
#include <QUuid>

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <optional>

namespace Cachescope::Sim {

// ObjectStore is the simulator's etcd and watch cache in one: every object of every resource,
// one global resourceVersion that every write increments, and a bounded history of events from
// which watches resume. Like the apiserver's watch cache, the history keeps every event younger
// than historyWindow() (75 s by default in SimOptions) and at least the last historyLimit()
// events, up to MaxHistoryEvents in all: a client whose list took less than the window resumes
// without 410 however fast the cluster churns (a history sized by count alone made clients at
// scale relist forever). A window of 0 keeps exactly the last historyLimit() events. A resume
// from a version older than the history is refused (eventsAfter() returns nothing), which the
// API turns into 410 Expired.
//
// Writes fill in what the apiserver owns: kind/apiVersion, uid, creationTimestamp,
// resourceVersion and generation (bumped when `spec` changes); a write carrying a stale
// metadata.resourceVersion fails with 409 Conflict. Objects are serialized once per write.
//
// Thread: used from the server thread only, except truth() and resourceVersion(), which any
// thread may call (a mutex guards the maps; writers hold it for a few map operations only).
// Listeners run synchronously inside the write, on the server thread.
class ObjectStore
{
    Q_DISABLE_COPY_MOVE(ObjectStore)
public:
    struct WriteResult
    {
        ObjectPtr object;
        std::optional<ApiError> error;
        [[nodiscard]] bool ok() const { return !error.has_value(); }
    };
    struct CreateOptions
    {
        // The workload generator backdates objects so ages look lived-in; API clients cannot.
        bool keepCreationTimestamp = false;
        // The cluster's initial state (WorkloadGenerator::populate()): listeners see the write,
        // the watch history does not, and its floor moves past it. No client can watch from
        // before the cluster existed, and a million initial events would only cost memory.
        bool initialState = false;
        // With initialState, createComposed()'s compose() may run later on a backgroundPool()
        // thread, while the next objects are created (it must own what it uses): populating a
        // million objects writes their JSON on every core. The store finishes it before any
        // read of its own (get(), list(), eventsAfter()) and in finishComposing(); listeners of
        // the initial state see the object before its JSON is written and must not read it.
        bool composeInBackground = false;
    };
    // Writes the compact JSON of an object created through createComposed() once the store
    // has given it a uid and a resourceVersion.
    using Composer = BackgroundComposer::Composer;

    explicit ObjectStore(qsizetype historyLimit = 10000);
    ~ObjectStore();

    [[nodiscard]] WriteResult create(const ResourceType &type, QJsonObject object, const CreateOptions &options);
    [[nodiscard]] WriteResult create(const ResourceType &type, QJsonObject object) { return create(type, std::move(object), CreateOptions()); }
    // createComposed() creates an object whose JSON its maker writes itself (WorkloadGenerator's
    // pods, through a JsonTemplate), which is several times cheaper than a QJsonObject tree at a
    // million pods. The store assigns uid and resourceVersion and hands them to compose(), which
    // must return what create() would have stored: the compact JSON with kind, apiVersion,
    // metadata.uid, metadata.resourceVersion and metadata.generation 1, keys in JsonWriter's
    // order. `fields` are its extracted fields (name, namespace, labels, nodeName, phase), which
    // the maker vouches for; their uid and resourceVersion are the store's.
    [[nodiscard]] WriteResult createComposed(const ResourceType &type, StoredObject fields, Composer compose, const CreateOptions &options);
    // Waits until every object created with composeInBackground has its JSON.
    void finishComposing() const;
    // Replaces an existing object. A non-empty metadata.resourceVersion must match (else 409).
    [[nodiscard]] WriteResult update(const ResourceType &type, QJsonObject object);
    // Deletes an object; the DELETED event carries its last state at the deletion's version.
    [[nodiscard]] WriteResult remove(const ResourceType &type, const QString &namespaceName, const QString &name, const QString &preconditionRv = {});

    // restore() writes an object as a recording holds it (RecordingFeed): uid, creationTimestamp
    // and metadata.resourceVersion are kept, not assigned, and the store's version moves up to
    // it. A write older than the stored object (the same event seen by two recorded informers)
    // is skipped and returns false; so is the deletion of an object the store does not hold.
    // With recordEvent false nothing reaches the history or the listeners (the initial state).
    bool restore(const ResourceType &type, StoreEventType eventType, const QJsonObject &object, bool recordEvent = true);
    // Sets the store's version to a recorded list's and forgets the history: what a replay
    // serves its first lists and watches from.
    void resetResourceVersion(quint64 rv);

    [[nodiscard]] ObjectPtr get(const ResourceType &type, const QString &namespaceName, const QString &name) const;
    // The objects of one resource in key order, optionally of one namespace; a cheap snapshot.
    [[nodiscard]] QList<ObjectPtr> list(const ResourceType &type, const QString &namespaceName = {}) const;
    [[nodiscard]] qsizetype count(const ResourceType &type) const;

    [[nodiscard]] quint64 resourceVersion() const;

    // The history after `rv` (exclusive), or nothing when events after rv were already evicted.
    [[nodiscard]] std::optional<QList<StoreEventPtr>> eventsAfter(quint64 rv) const;
    // The oldest version a watch may still resume from.
    [[nodiscard]] quint64 oldestResumableVersion() const { return m_historyFloor; }
    void setHistoryLimit(qsizetype limit);
    [[nodiscard]] qsizetype historyLimit() const { return m_historyLimit; }
    void setHistoryWindow(std::chrono::milliseconds window);
    [[nodiscard]] std::chrono::milliseconds historyWindow() const { return m_historyWindow; }
    // The most events the history holds, whatever the window: each keeps an object version alive.
    static constexpr qsizetype MaxHistoryEvents = 500000;
    // Forgets the whole history, as a restarted apiserver's empty watch cache does.
    void compactHistory();

    // key -> resourceVersion of every object of a resource ("pods", "deployments.apps"). Any thread.
    [[nodiscard]] QHash<QString, quint64> truth(const QString &resourceId) const;

    using Listener = std::function<void(const StoreEventPtr &)>;
    void addListener(Listener listener) { m_listeners.push_back(std::move(listener)); }

private:
    ObjectPtr makeObject(const QJsonObject &object, quint64 rv) const;
    // Writes only (the server thread): m_uidRandom is not thread-safe.
    [[nodiscard]] QUuid newUid();
    void record(StoreEventType type, const ResourceType &resourceType, ObjectPtr object, ObjectPtr previous, bool initialState = false);
    void evictHistory();

    using ObjectMap = std::map<QString, ObjectPtr>;
    mutable QMutex m_mutex;
    QHash<QString, ObjectMap> m_objects;
    quint64 m_resourceVersion;
    std::deque<StoreEventPtr> m_history;
    qsizetype m_historyLimit;
    std::chrono::milliseconds m_historyWindow{0};
    QElapsedTimer m_clock; // when each history event was recorded
    quint64 m_historyFloor = 0;
    std::vector<Listener> m_listeners;
    // Writes the JSON of initial objects created with composeInBackground; finished by any read
    // (server thread only, as the writes that fill it).
    mutable BackgroundComposer m_composer;
    QRandomGenerator64 m_uidRandom; // seeded from the system's generator with 256 bits
};

} // namespace Cachescope::Sim
