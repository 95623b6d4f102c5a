#pragma once

#include "core/cache/kubeobject.h"

namespace Cachescope {

// redactedSecret() is how a recording keeps a core/v1 Secret: every value of `data` and
// `stringData` replaced with the string "<redacted>", the keys kept (so a recording still shows
// which keys a Secret had and when they changed hands, not what they hold). Any other object,
// and a Secret without values (metadata only), comes back unchanged. Thread-safe; parses the
// object only when it is a Secret.
[[nodiscard]] KubeObject redactedSecret(const KubeObject &object);

} // namespace Cachescope
