#pragma once

#include "core/cache/kubeobject.h"
#include "core/cache/storedjson_p.h"

#include <QSharedData>

#include <limits>

namespace Cachescope {

// KubeObjectData is what a KubeObject shares between its copies: the stored bytes and the
// extracted fields. KubeObjectDecoder fills it once; after that it is never written, which is what
// makes sharing it across threads safe.
//
// Memory (bench_cache prints the split per object): the stored JSON is most of it, so the fields
// beside it are kept lean. Low-cardinality strings are interned (StringInterner), and so are the
// labels and owner-reference lists (ValueInterner: the pods of one owner share both). The uid and
// the resourceVersion are not copied into UTF-16 strings of their own (a 36-character uid would
// cost a 104-byte heap block): they are TextRefs to their bytes inside the stored JSON, made into
// a QString when asked for, which is once per event on the reflector's and the informer's paths.
// The name stays a QString: table sorting and filtering read it for every row.
// The JSON is kept with its member names numbered (StoredJson): keys are half of a pod's bytes, and
// json() expands them again in ~4 us. qCompress() would halve a pod too (bench_cache, 100k pods:
// 1045 of 2 KB at level 1) but costs ~29 us per object to compress, several times the whole
// decode, and ~7 us on every json(), which printers, the detail view and value() call.
class KubeObjectData : public QSharedData
{
public:
    // The value of creationMs/deletionMs when the timestamp is absent or malformed.
    static constexpr qint64 NoTime = std::numeric_limits<qint64>::min();

    // TextRef is a string field as a range of UTF-8 bytes: in stored when the decoded text occurs
    // there verbatim (any occurrence will do, equal bytes are equal text), otherwise in spill,
    // which only a field written with JSON escapes needs.
    struct TextRef
    {
        quint32 offset = 0;
        quint32 size : 31 = 0;
        quint32 spilled : 1 = 0;
    };

    QString text(TextRef field) const
    {
        const QByteArray &bytes = field.spilled ? spill : stored;
        return field.size == 0 ? QString() : QString::fromUtf8(bytes.constData() + field.offset, qsizetype(field.size));
    }

    // json() is the object's JSON, expanded from stored.
    QByteArray json() const { return keysNumbered ? StoredJson::expand(stored, jsonSize) : stored; }

    // stored is the JSON in StoredJson's form when keysNumbered, else as it is.
    QByteArray stored;
    quint32 jsonSize : 31 = 0;
    quint32 keysNumbered : 1 = 0;
    // spill holds the TextRefs' bytes that stored does not contain verbatim; usually empty.
    QByteArray spill;
    QString apiVersion;
    QString kind;
    QString namespaceName;
    QString name;
    QString nodeName;
    QString phase;
    TextRef uid;
    TextRef resourceVersion;
    qint64 generation = 0;
    // Milliseconds since the epoch rather than QDateTime: the same 8 bytes, no time zone
    // bookkeeping, and a cheap "absent" value.
    qint64 creationMs = NoTime;
    qint64 deletionMs = NoTime;
    QList<KubeObject::Label> labels;
    QList<KubeObject::OwnerReference> ownerReferences;
};

} // namespace Cachescope
