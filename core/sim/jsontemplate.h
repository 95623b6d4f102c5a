#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Cachescope::Sim {

// JsonTemplate is an object's compact JSON with holes: built once from a QJsonObject in which
// the values that vary are slot markers (slot(i)), it then writes one object per fill() by
// copying the constant bytes between the holes. The result is byte for byte what
// JsonWriter::compact() writes for the object with the values in place, because the template is
// JsonWriter's own output and a QJsonObject orders its keys whatever their values are. It is
// how WorkloadGenerator writes its pods: building each one as a QJsonObject tree and
// serializing it was most of populating a cluster of a million.
//
// A marker that is a whole string value is a value slot: its fragment is any JSON value
// (JsonWriter::appendValue(), appendString()), so a slot may hold a bool, a number or an object
// too. A marker inside a longer string (a key such as `k:{"ip":"<slot>"}`) is a text slot: its
// fragment is the escaped text without quotes. One slot may appear several times. A marker in a
// key must not change the key's order among its siblings.
//
// Thread: immutable after construction, any thread. Cost: fill() is one allocation, of the
// exact size.
class JsonTemplate
{
public:
    JsonTemplate() = default;
    explicit JsonTemplate(const QJsonObject &withSlots);

    // The marker of slot `index` (0 to 99), to put where a value varies.
    [[nodiscard]] static QString slot(int index);
    [[nodiscard]] bool isValid() const { return !m_parts.isEmpty(); }
    // The number of distinct slots, one more than the highest index used.
    [[nodiscard]] int slotCount() const { return m_slotCount; }
    // The object with fragments.at(i) in every place of slot i.
    [[nodiscard]] QByteArray fill(const QList<QByteArray> &fragments) const;

private:
    struct Part
    {
        QByteArray constant; // written before the slot
        int slot = -1; // -1: the end
    };
    QList<Part> m_parts;
    int m_slotCount = 0;
};

} // namespace Cachescope::Sim
