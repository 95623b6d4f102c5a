#pragma once

#include "core/controller/controllerinfo.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionparameters.h"

#include <QStringList>

#include <memory>
#include <optional>

namespace Cachescope {

// The registry of built-in process functions ("controllers" to the user), by name: pod-health,
// owner-references, label-policy, simulated-work. All are read-only.

// controllerNames() lists the built-ins in a stable order (the order of `control --help`).
[[nodiscard]] QStringList controllerNames();

// controllerInfo() describes one; std::nullopt for an unknown name.
[[nodiscard]] std::optional<ControllerInfo> controllerInfo(const QString &name);

// makeProcessFunction() builds the built-in `name` with parameters. It returns null and says why
// in *error for an unknown name, a parameter the function does not take (a typo must not pass
// silently), a value that does not parse, or a missing OwnerLookup.
[[nodiscard]] std::unique_ptr<ProcessFunction> makeProcessFunction(const QString &name, const ProcessFunctionParameters &parameters, QString *error = nullptr);

} // namespace Cachescope
