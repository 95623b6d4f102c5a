#pragma once

#include "core/controller/controllerinfo.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionparameters.h"
#include "core/util/clock.h"

#include <memory>

namespace Cachescope {

// SimulatedWork is the `simulated-work` process function: each attempt sleeps for duration,
// then fails with probability failureRate, so that backoff, retries and give-ups show on the
// timeline on purpose. Whether an attempt fails is drawn from a generator seeded with
// (seed, key, attempt): the same settings fail the same attempts of the same keys, whichever
// worker runs them and in whatever order. Deleted objects are worked on like present ones.
// Thread-safe (no shared mutable state). It blocks its worker thread for duration.
class SimulatedWork final : public ProcessFunction
{
public:
    struct Settings
    {
        Duration duration = std::chrono::milliseconds(50);
        double failureRate = 0.3;
        quint64 seed = 1;
        bool retryable = true;
    };

    explicit SimulatedWork(const Settings &settings);

    [[nodiscard]] QString name() const override;
    [[nodiscard]] ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) override;

    // fails() is the draw process() makes, without the sleep: tests predict outcomes with it.
    [[nodiscard]] bool fails(const QString &key, int attempt) const;

    [[nodiscard]] static ControllerInfo info();
    [[nodiscard]] static std::unique_ptr<ProcessFunction> create(const ProcessFunctionParameters &parameters, QString *error);

private:
    const Settings m_settings;
};

} // namespace Cachescope
