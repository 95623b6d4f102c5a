#pragma once

#include "core/controller/controllerinfo.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionparameters.h"

#include <QDateTime>

#include <chrono>
#include <functional>
#include <memory>

namespace Cachescope {

// PodHealthCheck is the `pod-health` process function: it reports, per pod,
//  - NotReady (warning): the pod is Running but its Ready condition is not True, naming the
//    containers that are not ready;
//  - Restarting (warning): a container restarted restartThreshold times or more (with the
//    reason it is waiting, e.g. CrashLoopBackOff);
//  - PendingTooLong (warning): the pod is Pending and was created more than pendingTimeout ago;
//  - Failed (error): the pod's phase is Failed.
// A healthy pod, or one that is gone, gives no findings (which clears earlier ones). An object
// that is not a Pod is a non-retryable error: the controller is attached to the wrong resource.
// Read-only; thread-safe (no mutable state); parses the pod's JSON once per call.
class PodHealthCheck final : public ProcessFunction
{
public:
    struct Settings
    {
        int restartThreshold = 3;
        std::chrono::seconds pendingTimeout{300};
    };
    using Now = std::function<QDateTime()>;

    // now defaults to the current UTC time; tests pass a fixed one.
    explicit PodHealthCheck(const Settings &settings, Now now = {});

    [[nodiscard]] QString name() const override;
    [[nodiscard]] ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) override;

    [[nodiscard]] static ControllerInfo info();
    [[nodiscard]] static std::unique_ptr<ProcessFunction> create(const ProcessFunctionParameters &parameters, QString *error);

private:
    const Settings m_settings;
    const Now m_now;
};

} // namespace Cachescope
