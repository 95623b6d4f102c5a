#pragma once

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace Cachescope {

// IndexKeySet is the set of store keys that one index value holds (the pods of one node, of one
// owner): a set in meaning, stored the way its size makes cheap. Most values hold a handful of
// keys (an owner index has one value per ReplicaSet), and Qt 6.4's QSet gives even a one-key set
// a 128-bucket span and a 48-entry block: ~1.3 KB, measured with heaptrack as 77 MB of 100k
// pods' 480 MB cache. Up to SmallLimit keys are kept in a plain list (searched linearly: a few
// dozen string compares, most ended by the length); beyond it a QSet. A set that shrinks to
// SmallLimit / 4 keys goes back to a list, so a value that hovers at the limit does not switch at
// every change.
//
// Contract: a value type with set semantics: inserting a key it holds, or removing one it does
// not, changes nothing. Order of forEach()/keys() is unspecified (as QSet's). Not thread-safe on its
// own; ThreadSafeStore's lock guards it. Cost: insert/remove/contains O(SmallLimit) while small,
// O(1) once large.
class IndexKeySet final
{
public:
    static constexpr qsizetype SmallLimit = 32;

    void insert(const QString &key);
    void remove(const QString &key);
    [[nodiscard]] bool contains(const QString &key) const;
    qsizetype size() const { return m_isLarge ? m_large.size() : m_small.size(); }
    bool isEmpty() const { return size() == 0; }
    // isLarge() says which form holds the keys (for tests and the cost comments above).
    bool isLarge() const { return m_isLarge; }

    QStringList keys() const;
    template<typename Function>
    void forEach(Function &&function) const
    {
        if (m_isLarge) {
            for (const QString &key : m_large) {
                function(key);
            }
        } else {
            for (const QString &key : m_small) {
                function(key);
            }
        }
    }

private:
    QList<QString> m_small;
    QSet<QString> m_large;
    bool m_isLarge = false;
};

} // namespace Cachescope
