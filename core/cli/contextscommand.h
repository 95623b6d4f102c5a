#pragma once

#include "core/kube/kubeconfig.h"

class QTextStream;

namespace Cachescope {

// ContextsCommand is `cachescope-cli contexts`: kubectl's `config get-contexts` table
// (CURRENT, NAME, CLUSTER, AUTHINFO, NAMESPACE) plus the FILE each context comes from, with
// contexts that kubectl would hide (same name in a later file) listed and marked "(shadowed)".
// Kubeconfig errors go to err, and make the exit code 1. Synchronous; any thread.
class ContextsCommand
{
public:
    [[nodiscard]] static int run(const Kubeconfig &config, QTextStream &out, QTextStream &err);
};

} // namespace Cachescope
