#include "core/sim/resourceselector.h"

#include "core/sim/httprequest.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/storedobject.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

// The fields a field selector may name, per kind, as the apiserver registers them.
QStringList supportedFields(const ResourceType &type)
{
    QStringList fields{u"metadata.name"_s, u"metadata.namespace"_s};
    if (type.kind == u"Pod")
        fields << u"spec.nodeName"_s << u"status.phase"_s;
    if (type.kind == u"Event") {
        fields << u"involvedObject.kind"_s << u"involvedObject.namespace"_s << u"involvedObject.name"_s << u"involvedObject.uid"_s
               << u"involvedObject.apiVersion"_s << u"involvedObject.resourceVersion"_s << u"involvedObject.fieldPath"_s << u"reason"_s
               << u"reportingComponent"_s << u"source"_s << u"type"_s;
    }
    return fields;
}

} // namespace

bool ResourceSelector::matches(const StoredObject &object) const
{
    return labels.matches(object.labels) && fields.matches([&object](const QString &field) { return object.fieldValue(field); });
}

std::variant<ResourceSelector, ApiError> ResourceSelector::parse(const HttpRequest &request, const ResourceType &type)
{
    auto parsedLabels = LabelSelector::parse(request.queryValue(u"labelSelector"_s));
    if (const auto *error = std::get_if<SelectorError>(&parsedLabels))
        return ApiError::badRequest(error->message);
    auto parsedFields = FieldSelector::parse(request.queryValue(u"fieldSelector"_s), supportedFields(type));
    if (const auto *error = std::get_if<SelectorError>(&parsedFields))
        return ApiError::badRequest(error->message);
    return ResourceSelector{std::get<LabelSelector>(std::move(parsedLabels)), std::get<FieldSelector>(std::move(parsedFields))};
}

} // namespace Cachescope::Sim
