#include "core/sim/jsontemplate.h"

#include "core/sim/jsonwriter.h"

#include <cstring>
#include <utility>

namespace Cachescope::Sim {

namespace {
// JsonWriter escapes U+0001 as \u0001; no text the simulator writes contains it.
constexpr QByteArrayView EscapedMarker = "\\u0001";
} // namespace

QString JsonTemplate::slot(int index)
{
    Q_ASSERT(index >= 0 && index < 100);
    return QChar(u'\x01') + QString::number(index) + QChar(u'\x01');
}

JsonTemplate::JsonTemplate(const QJsonObject &withSlots)
{
    const QByteArray json = JsonWriter::compact(withSlots);
    qsizetype at = 0;
    QByteArray constant;
    for (;;) {
        const qsizetype open = json.indexOf(EscapedMarker, at);
        if (open < 0)
            break;
        const qsizetype digits = open + EscapedMarker.size();
        const qsizetype close = json.indexOf(EscapedMarker, digits);
        Q_ASSERT(close > digits);
        const int index = json.mid(digits, close - digits).toInt();
        qsizetype end = close + EscapedMarker.size();
        qsizetype begin = open;
        // A marker that is the whole string is a value slot: the quotes go with it.
        if (begin > 0 && json.at(begin - 1) == '"' && end < json.size() && json.at(end) == '"') {
            --begin;
            ++end;
        }
        constant += json.mid(at, begin - at);
        m_parts.append({std::exchange(constant, {}), index});
        m_slotCount = qMax(m_slotCount, index + 1);
        at = end;
    }
    constant += json.mid(at);
    m_parts.append({constant, -1});
}

QByteArray JsonTemplate::fill(const QList<QByteArray> &fragments) const
{
    Q_ASSERT(fragments.size() >= m_slotCount);
    qsizetype size = 0;
    for (const Part &part : m_parts)
        size += part.constant.size() + (part.slot >= 0 ? fragments.at(part.slot).size() : 0);
    // Copied straight into the bytes of the exact size: QByteArray::append() checks and moves
    // for every one of the ~50 pieces of a pod, which was most of fill()'s time.
    QByteArray result(size, Qt::Uninitialized);
    char *out = result.data();
    const auto put = [&out](const QByteArray &bytes) {
        std::memcpy(out, bytes.constData(), size_t(bytes.size()));
        out += bytes.size();
    };
    for (const Part &part : m_parts) {
        put(part.constant);
        if (part.slot >= 0)
            put(fragments.at(part.slot));
    }
    return result;
}

} // namespace Cachescope::Sim
