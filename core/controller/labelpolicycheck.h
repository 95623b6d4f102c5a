#pragma once

#include "core/controller/controllerinfo.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionparameters.h"

#include <QStringList>

#include <memory>

namespace Cachescope {

// LabelPolicyCheck is the `label-policy` process function: it reports MissingLabel (warning)
// for each required label key an object lacks (a label with an empty value is present). Works
// on any resource. Read-only; thread-safe (no mutable state); reads only extracted fields.
class LabelPolicyCheck final : public ProcessFunction
{
public:
    explicit LabelPolicyCheck(const QStringList &requiredKeys);

    [[nodiscard]] QString name() const override;
    [[nodiscard]] ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) override;
    [[nodiscard]] QStringList requiredKeys() const { return m_required; }

    [[nodiscard]] static ControllerInfo info();
    [[nodiscard]] static std::unique_ptr<ProcessFunction> create(const ProcessFunctionParameters &parameters, QString *error);

private:
    const QStringList m_required;
};

} // namespace Cachescope
