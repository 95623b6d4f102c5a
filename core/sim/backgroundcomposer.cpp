#include "core/sim/backgroundcomposer.h"

#include "core/util/backgroundpool.h"

#include <QThreadPool>

#include <algorithm>
#include <utility>

namespace Cachescope::Sim {

BackgroundComposer::~BackgroundComposer()
{
    finish();
}

void BackgroundComposer::add(std::shared_ptr<StoredObject> object, Composer compose)
{
    m_batch.push_back({std::move(object), std::move(compose)});
    if (m_batch.size() >= BatchSize)
        submit();
}

void BackgroundComposer::finish()
{
    submit();
    m_done.acquire(m_running);
    m_running = 0;
    releaseWritten();
}

void BackgroundComposer::submit()
{
    releaseWritten();
    if (m_batch.empty())
        return;
    if (m_running >= 2 * std::max(1, backgroundPool()->maxThreadCount())) {
        m_done.acquire();
        --m_running;
    }
    ++m_running;
    backgroundPool()->start([this, batch = std::exchange(m_batch, {})]() mutable {
        for (Item &item : batch)
            item.object->json = item.compose(item.object->uid, item.object->resourceVersion);
        // The composers and what they captured were allocated on the writer's thread, and go
        // back to it to be freed: freed here, each took the lock of that thread's malloc arena
        // while it allocated the next objects (the two threads then waited on each other).
        {
            const std::lock_guard lock(m_writtenMutex);
            m_written.push_back(std::move(batch));
        }
        m_done.release();
    });
}

void BackgroundComposer::releaseWritten()
{
    std::vector<std::vector<Item>> written;
    {
        const std::lock_guard lock(m_writtenMutex);
        written.swap(m_written);
    }
}

} // namespace Cachescope::Sim
