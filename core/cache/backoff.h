#pragma once

#include "core/util/clock.h"

#include <QRandomGenerator>

#include <chrono>
#include <memory>
#include <optional>

namespace Cachescope {

// Backoff is client-go's exponential backoff manager as the Reflector uses it (wait.Backoff
// stepped with a reset interval): each next() returns the current delay plus up to `jitter` times
// that delay at random, then multiplies the delay by `factor` up to `cap`. The delay starts over
// at `initial` on the first next() after more than `resetAfter` has passed since the last time it
// started over (the first next() counts as one), whether or not next() was called meanwhile: a
// reflector that keeps failing still returns to short delays every 2 minutes, as client-go's does.
// resetAfter 0 means every next() returns the initial delay. Defaults are the reflector's: 800 ms,
// ×2, jitter 1.0, cap 30 s, reset every 2 min. Time is read from a Clock (client-go's backoff
// manager takes a k8s.io/utils clock too). Not thread-safe; cheap.
class Backoff
{
public:
    struct Parameters
    {
        std::chrono::milliseconds initial{800};
        std::chrono::milliseconds cap{30000};
        std::chrono::milliseconds resetAfter{120000};
        double factor = 2.0;
        double jitter = 1.0;
    };

    // clock defaults to RealClock::instance(); tests pass a FakeClock. seed 0 = random.
    Backoff();
    explicit Backoff(const Parameters &parameters, std::shared_ptr<Clock> clock = {}, quint32 seed = 0);

    [[nodiscard]] std::chrono::milliseconds next();
    // reset() starts over at the initial delay.
    void reset();

    const Parameters &parameters() const { return m_parameters; }

private:
    Parameters m_parameters;
    std::shared_ptr<Clock> m_clock;
    QRandomGenerator m_random;
    std::chrono::milliseconds m_current;
    std::optional<TimePoint> m_lastReset; // empty until the first next()
};

} // namespace Cachescope
