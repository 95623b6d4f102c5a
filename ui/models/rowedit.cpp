#include "ui/models/rowedit.h"

#include <QHash>
#include <QSet>

namespace Cachescope {

namespace {

// unique() appends each key's occurrence, so that a key listed twice (one Secret mounted and
// referenced in env under the same detail) is two rows.
QStringList unique(const QStringList &keys)
{
    QStringList result;
    result.reserve(keys.size());
    QHash<QString, int> seen;
    for (const QString &key : keys) {
        const int occurrence = seen[key]++;
        result.append(occurrence == 0 ? key : key + u'\x1f' + QString::number(occurrence));
    }
    return result;
}

} // namespace

QList<RowEdit> RowEdit::between(const QStringList &before, const QStringList &after)
{
    QList<RowEdit> edits;
    QStringList current = unique(before);
    const QStringList target = unique(after);
    const QSet<QString> wanted(target.cbegin(), target.cend());

    // Removals from the bottom up, a run of adjacent rows at a time, so rows above keep their numbers.
    for (int row = int(current.size()) - 1; row >= 0;) {
        if (wanted.contains(current.at(row))) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && !wanted.contains(current.at(first - 1))) {
            --first;
        }
        RowEdit edit;
        edit.kind = Kind::Remove;
        edit.row = first;
        edit.count = row - first + 1;
        edits.append(edit);
        current.remove(first, row - first + 1);
        row = first - 1;
    }

    // Every row left is wanted: walk the new list, moving rows up or inserting where they differ.
    for (int row = 0; row < int(target.size()); ++row) {
        const QString &key = target.at(row);
        if (row < current.size() && current.at(row) == key) {
            edits.append({Kind::Keep, row, 0, 1, row});
            continue;
        }
        const qsizetype from = current.indexOf(key, row);
        if (from >= 0) {
            edits.append({Kind::Move, row, int(from), 1, row});
            current.move(from, row);
            edits.append({Kind::Keep, row, 0, 1, row});
        } else {
            edits.append({Kind::Insert, row, 0, 1, row});
            current.insert(row, key);
        }
    }
    return edits;
}

} // namespace Cachescope
