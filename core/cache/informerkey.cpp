#include "core/cache/informerkey.h"

#include "core/kube/fieldselector.h"
#include "core/kube/labelselector.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString InformerKey::name() const
{
    const GroupVersionResource &gvr = resource.gvr;
    QString name = gvr.group().isEmpty() ? gvr.resource() : gvr.resource() + u'.' + gvr.group();
    if (!namespaceName.isEmpty()) {
        name += u" -n "_s + namespaceName;
    }
    if (!labelSelector.isEmpty()) {
        name += u" -l "_s + labelSelector;
    }
    if (!fieldSelector.isEmpty()) {
        name += u" --field-selector "_s + fieldSelector;
    }
    if (metadataOnly) {
        name += u" (metadata)"_s;
    }
    return name;
}

InformerKey InformerKey::canonical() const
{
    InformerKey key = *this;
    if (const auto labels = LabelSelector::parse(labelSelector); std::holds_alternative<LabelSelector>(labels)) {
        key.labelSelector = std::get<LabelSelector>(labels).toString();
    }
    if (const auto fields = FieldSelector::parse(fieldSelector); std::holds_alternative<FieldSelector>(fields)) {
        key.fieldSelector = std::get<FieldSelector>(fields).toString();
    }
    return key;
}

size_t qHash(const InformerKey &key, size_t seed) noexcept
{
    return qHashMulti(seed, key.resource.gvr.toString(), key.namespaceName, key.labelSelector, key.fieldSelector, key.metadataOnly);
}

} // namespace Cachescope
