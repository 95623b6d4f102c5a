#include "core/sim/contentnegotiation.h"

#include "core/sim/httprequest.h"

#include <QHash>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

ContentNegotiation ContentNegotiation::of(const HttpRequest &request, bool discovery)
{
    const QList<QByteArray> ranges = request.header("accept").split(',');
    for (const QByteArray &range : ranges) {
        const QList<QByteArray> parts = range.split(';');
        const QByteArray mediaType = parts.value(0).trimmed().toLower();
        QHash<QByteArray, QByteArray> params;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QList<QByteArray> pair = parts.at(i).trimmed().split('=');
            if (pair.size() == 2)
                params.insert(pair.at(0).trimmed(), pair.at(1).trimmed());
        }
        if (mediaType != "application/json" && mediaType != "*/*" && mediaType != "application/*")
            continue; // protobuf, yaml: not spoken here, so the next choice is taken
        const QByteArray as = params.value("as");
        if (as.isEmpty())
            return {};
        const QByteArray group = params.value("g");
        const QByteArray version = params.value("v");
        if (discovery && as == "APIGroupDiscoveryList" && group == "apidiscovery.k8s.io" && (version == "v2" || version == "v2beta1"))
            return {Representation::Aggregated, QString::fromLatin1(version)};
        if (!discovery && group == "meta.k8s.io" && (version == "v1" || version == "v1beta1")) {
            if (as == "Table")
                return {Representation::Table, {}};
            if (as == "PartialObjectMetadata" || as == "PartialObjectMetadataList")
                return {Representation::Metadata, {}};
        }
    }
    return {};
}

TableConverter::IncludeObject ContentNegotiation::includeObject(const HttpRequest &request)
{
    const QString include = request.queryValue(u"includeObject"_s);
    if (include == u"None")
        return TableConverter::IncludeObject::None;
    if (include == u"Object")
        return TableConverter::IncludeObject::Object;
    return TableConverter::IncludeObject::Metadata;
}

} // namespace Cachescope::Sim
