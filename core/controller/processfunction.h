#pragma once

#include "core/cache/kubeobject.h"
#include "core/controller/processcontext.h"
#include "core/controller/processresult.h"

namespace Cachescope {

// ProcessFunction is the processItem of the seed's controller picture: what a Controller's
// workers do with one key. `object` is what the informer's indexer holds for the key when the
// worker took it, or an invalid KubeObject when the object is gone (deleted): a function must
// accept both.
// Threads: process() is called by several worker threads at once, for different keys (the
// workqueue never hands one key to two workers at once), so implementations are thread-safe.
// It runs on a worker thread, never the GUI thread: it may block for as long as its work takes,
// but it delays the controller's stop() (which drains) by as much.
// The built-in functions are read-only: they look, they never write to the cluster.
class ProcessFunction
{
public:
    ProcessFunction() = default;
    virtual ~ProcessFunction();
    Q_DISABLE_COPY_MOVE(ProcessFunction)

    // name() is the registry name ("pod-health").
    [[nodiscard]] virtual QString name() const = 0;
    [[nodiscard]] virtual ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) = 0;
};

} // namespace Cachescope
