#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QStringView>

namespace Cachescope::Sim {

// JsonWriter serializes a QJsonObject to compact JSON, byte for byte what
// QJsonDocument(object).toJson(QJsonDocument::Compact) writes (keys in the object's sorted
// order, the same string escapes, integers as integers and doubles in their shortest form), but
// into one growing buffer: Qt's writer allocates a QByteArray for every string it escapes and
// reserves the output a few bytes at a time, which made serializing the workload's pods the
// larger part of populating the simulator.
//
// Thread: stateless, any thread. Cost: one pass over the object; one allocation for the result
// (the scratch buffer is per thread and reused).
class JsonWriter
{
public:
    [[nodiscard]] static QByteArray compact(const QJsonObject &object);
    // Append one value or one quoted, escaped string to `out`, as compact() writes them inside
    // an object (JsonTemplate fills its slots with them).
    static void appendValue(QByteArray &out, const QJsonValue &value);
    static void appendString(QByteArray &out, QStringView text);
};

} // namespace Cachescope::Sim
