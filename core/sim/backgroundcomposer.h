#pragma once

#include "core/sim/storedobject.h"

#include <QByteArray>
#include <QSemaphore>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace Cachescope::Sim {

// BackgroundComposer writes stored objects' JSON on backgroundPool() threads while the store's
// thread goes on creating the next objects: populating a cluster of a million spent a third of
// its time writing pods' JSON from their template on one core of two. Objects are handed to the
// pool in batches; at most two batches per pool thread are waiting or being written, beyond
// which add() waits for one to finish (memory stays bounded by what the pool has not written).
//
// Ownership: owned by the ObjectStore; its batches own their objects and composers until written.
// Thread: add() and finish() on one thread (the store's writer); composers run on pool threads and
// must own what they use. An object's json is written once its batch has run: finish() returns
// when every object added so far has its JSON, and only then may anyone read it.
class BackgroundComposer
{
    Q_DISABLE_COPY_MOVE(BackgroundComposer)
public:
    using Composer = std::function<QByteArray(const QString &uid, quint64 resourceVersion)>;
    static constexpr std::size_t BatchSize = 512;

    BackgroundComposer() = default;
    ~BackgroundComposer();

    void add(std::shared_ptr<StoredObject> object, Composer compose);
    void finish();

private:
    struct Item
    {
        std::shared_ptr<StoredObject> object;
        Composer compose;
    };
    void submit();
    // Frees, on the writer's thread, the batches the pool has written.
    void releaseWritten();

    std::vector<Item> m_batch;
    int m_running = 0; // batches handed to the pool and not yet acquired back from m_done
    QSemaphore m_done; // released once per batch written
    std::mutex m_writtenMutex;
    std::vector<std::vector<Item>> m_written; // written batches, to be freed (under m_writtenMutex)
};

} // namespace Cachescope::Sim
