#pragma once

#include "core/util/clock.h"

#include <memory>

namespace Cachescope {

// RealClock reads std::chrono::steady_clock and waits with timed condition waits. It has no
// state: instance() returns one shared instance that every queue and limiter may use.
class RealClock final : public Clock
{
public:
    RealClock() = default;

    [[nodiscard]] static std::shared_ptr<Clock> instance();

    [[nodiscard]] TimePoint now() const override;

protected:
    void waitUntil(std::condition_variable &cond, std::unique_lock<std::mutex> &lock, TimePoint deadline) override;
};

} // namespace Cachescope
