#pragma once

#include "core/cache/kubeobject.h"

#include <QSharedData>

#include <limits>

namespace Cachescope {

// KubeObjectData is what a KubeObject shares between its copies: the stored bytes and the
// extracted fields. KubeObjectDecoder fills it once; after that it is never written, which is what
// makes sharing it across threads safe.
class KubeObjectData : public QSharedData
{
public:
    // The value of creationMs/deletionMs when the timestamp is absent or malformed.
    static constexpr qint64 NoTime = std::numeric_limits<qint64>::min();

    QByteArray json;
    QString apiVersion;
    QString kind;
    QString namespaceName;
    QString name;
    QString uid;
    QString resourceVersion;
    QString nodeName;
    QString phase;
    qint64 generation = 0;
    // Milliseconds since the epoch rather than QDateTime: the same 8 bytes, no time zone
    // bookkeeping, and a cheap "absent" value.
    qint64 creationMs = NoTime;
    qint64 deletionMs = NoTime;
    QList<KubeObject::Label> labels;
    QList<KubeObject::OwnerReference> ownerReferences;
};

} // namespace Cachescope
