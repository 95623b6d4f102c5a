#pragma once

#include "core/kube/fieldselector.h"
#include "core/kube/labelselector.h"
#include "core/sim/apierror.h"

#include <variant>

namespace Cachescope::Sim {

struct HttpRequest;
struct ResourceType;
struct StoredObject;

// ResourceSelector is the labelSelector and fieldSelector of a list or watch, read once from
// the query: a selector that does not parse, or a field selector on a field the apiserver does
// not register for the kind (every kind: metadata.name, metadata.namespace; pods also
// spec.nodeName, status.phase; events involvedObject.*, reason, reportingComponent, source and
// type), is a 400 with apimachinery's words. A value type.
struct ResourceSelector
{
    LabelSelector labels;
    FieldSelector fields;

    [[nodiscard]] bool isEmpty() const { return labels.isEmpty() && fields.isEmpty(); }
    [[nodiscard]] bool matches(const StoredObject &object) const;

    [[nodiscard]] static std::variant<ResourceSelector, ApiError> parse(const HttpRequest &request, const ResourceType &type);
};

} // namespace Cachescope::Sim
