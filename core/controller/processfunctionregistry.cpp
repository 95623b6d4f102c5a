#include "core/controller/processfunctionregistry.h"

#include "core/controller/labelpolicycheck.h"
#include "core/controller/ownerreferencecheck.h"
#include "core/controller/podhealthcheck.h"
#include "core/controller/simulatedwork.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
struct Entry
{
    ControllerInfo (*info)();
    std::unique_ptr<ProcessFunction> (*create)(const ProcessFunctionParameters &, QString *);
};

const QList<Entry> &entries()
{
    static const QList<Entry> all{
        {&PodHealthCheck::info, &PodHealthCheck::create},
        {&OwnerReferenceCheck::info, &OwnerReferenceCheck::create},
        {&LabelPolicyCheck::info, &LabelPolicyCheck::create},
        {&SimulatedWork::info, &SimulatedWork::create},
    };
    return all;
}
} // namespace

QStringList controllerNames()
{
    QStringList names;
    for (const Entry &entry : entries()) {
        names.append(entry.info().name);
    }
    return names;
}

std::optional<ControllerInfo> controllerInfo(const QString &name)
{
    for (const Entry &entry : entries()) {
        if (ControllerInfo info = entry.info(); info.name == name) {
            return info;
        }
    }
    return std::nullopt;
}

std::unique_ptr<ProcessFunction> makeProcessFunction(const QString &name, const ProcessFunctionParameters &parameters, QString *error)
{
    for (const Entry &entry : entries()) {
        const ControllerInfo info = entry.info();
        if (info.name != name) {
            continue;
        }
        for (auto it = parameters.values.cbegin(); it != parameters.values.cend(); ++it) {
            const bool known = std::any_of(
                info.parameters.cbegin(), info.parameters.cend(), [&it](const ControllerInfo::Parameter &parameter) { return parameter.name == it.key(); });
            if (!known) {
                if (error) {
                    QStringList names;
                    for (const ControllerInfo::Parameter &parameter : info.parameters) {
                        names.append(parameter.name);
                    }
                    *error = names.isEmpty() ? u"%1 takes no parameter \"%2\""_s.arg(name, it.key())
                                             : u"%1 takes no parameter \"%2\" (it takes %3)"_s.arg(name, it.key(), names.join(u", "_s));
                }
                return nullptr;
            }
        }
        return entry.create(parameters, error);
    }
    if (error) {
        *error = u"unknown controller \"%1\" (known: %2)"_s.arg(name, controllerNames().join(u", "_s));
    }
    return nullptr;
}

} // namespace Cachescope
