#include "core/cache/indexkeyset.h"

namespace Cachescope {

void IndexKeySet::insert(const QString &key)
{
    if (m_isLarge) {
        m_large.insert(key);
        return;
    }
    if (m_small.contains(key)) {
        return;
    }
    if (m_small.size() < SmallLimit) {
        m_small.append(key);
        return;
    }
    m_large = QSet<QString>(m_small.cbegin(), m_small.cend());
    m_large.insert(key);
    m_small = {};
    m_isLarge = true;
}

void IndexKeySet::remove(const QString &key)
{
    if (!m_isLarge) {
        const qsizetype at = m_small.indexOf(key);
        if (at >= 0) {
            // Order does not matter: move the last key into the hole.
            m_small.swapItemsAt(at, m_small.size() - 1);
            m_small.removeLast();
        }
        return;
    }
    m_large.remove(key);
    if (m_large.size() <= SmallLimit / 4) {
        m_small = QList<QString>(m_large.cbegin(), m_large.cend());
        m_large = {};
        m_isLarge = false;
    }
}

bool IndexKeySet::contains(const QString &key) const
{
    return m_isLarge ? m_large.contains(key) : m_small.contains(key);
}

QStringList IndexKeySet::keys() const
{
    return m_isLarge ? QStringList(m_large.cbegin(), m_large.cend()) : m_small;
}

} // namespace Cachescope
