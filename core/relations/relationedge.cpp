#include "core/relations/relationedge.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString RelationEdge::sourceName(Source source)
{
    switch (source) {
    case Source::OwnerReference:
        return u"ownerReference"_s;
    case Source::Selector:
        return u"selector"_s;
    case Source::Volume:
        return u"volume"_s;
    case Source::EnvFrom:
        return u"envFrom"_s;
    case Source::Env:
        return u"env"_s;
    case Source::ServiceAccount:
        return u"serviceAccount"_s;
    case Source::ImagePullSecret:
        return u"imagePullSecret"_s;
    case Source::NodeName:
        return u"nodeName"_s;
    case Source::ScaleTarget:
        return u"scaleTarget"_s;
    case Source::IngressBackend:
        return u"ingressBackend"_s;
    }
    return {};
}

} // namespace Cachescope
