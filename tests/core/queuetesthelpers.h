#pragma once

// Helpers shared by the DelayingQueue and RateLimitingQueue tests (FakeClock based).

#include "core/util/fakeclock.h"
#include "core/workqueue/delayingqueue.h"

#include <QStringList>
#include <QTest>

namespace CachescopeTest {

// takeAll() gets and finishes every key queued now, in order.
inline QStringList takeAll(Cachescope::Queue &q)
{
    QStringList keys;
    while (q.len() > 0) {
        const std::optional<QString> key = q.get();
        if (!key) {
            break;
        }
        keys.append(*key);
        q.done(*key);
    }
    return keys;
}

// settle() proves that the waiting loop has caught up with the clock: it adds a sentinel due in
// 1 ns, steps the clock by 1 ns and waits until the sentinel reaches the queue. The loop adds
// every key that is due in the same pass, so afterwards the queue holds exactly the keys due at
// the clock's time. Returns the queued keys without the sentinel.
inline QStringList settle(Cachescope::DelayingQueue &q, Cachescope::FakeClock &clock)
{
    using namespace std::chrono_literals;
    const QString sentinel = QStringLiteral("~sentinel");
    q.addAfter(sentinel, 1ns);
    clock.step(1ns);
    QStringList keys;
    const bool seen = QTest::qWaitFor([&] {
        keys += takeAll(q);
        return keys.contains(sentinel);
    });
    if (!seen) {
        return {QStringLiteral("~sentinel never arrived")};
    }
    keys.removeAll(sentinel);
    return keys;
}

} // namespace CachescopeTest
