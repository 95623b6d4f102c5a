#include "core/kube/logoptions.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QUrlQuery LogOptions::toQuery() const
{
    QUrlQuery query;
    if (!container.isEmpty())
        query.addQueryItem(u"container"_s, container);
    if (follow)
        query.addQueryItem(u"follow"_s, u"true"_s);
    if (previous)
        query.addQueryItem(u"previous"_s, u"true"_s);
    if (timestamps)
        query.addQueryItem(u"timestamps"_s, u"true"_s);
    if (sinceSeconds)
        query.addQueryItem(u"sinceSeconds"_s, QString::number(*sinceSeconds));
    if (sinceTime.isValid())
        query.addQueryItem(u"sinceTime"_s, sinceTime.toUTC().toString(Qt::ISODate));
    if (tailLines)
        query.addQueryItem(u"tailLines"_s, QString::number(*tailLines));
    if (limitBytes)
        query.addQueryItem(u"limitBytes"_s, QString::number(*limitBytes));
    return query;
}

} // namespace Cachescope
