#pragma once

#include <QList>
#include <QStringList>

namespace Cachescope {

// RowEdit is one step of the edit script that brings a model's rows, known by their keys, to a
// new list of keys with the exact operations a view follows (beginRemoveRows, beginMoveRows,
// beginInsertRows, dataChanged), never a reset: a selection and the expanded branches of a tree
// stay with their rows. between() writes the script; the steps apply in order to the current
// rows:
// - Remove: `count` rows from `row` are removed (a run of old rows absent from the new list);
// - Move: the row at `from` (below `row`) moves up to `row`; a Keep for it follows;
// - Insert: the new list's row `fresh` is inserted at `row`;
// - Keep: the row at `row` is the new list's row `fresh` (the model updates its data).
// The same key twice in a list is told apart by its occurrence. Pure function; cost
// O(n·m) in the worst case (rows out of order), O(n) for lists that only gain and lose rows.
struct RowEdit
{
    enum class Kind { Remove, Move, Insert, Keep };

    Kind kind = Kind::Keep;
    int row = 0;
    int from = 0; // Move
    int count = 1; // Remove
    int fresh = 0; // Insert, Keep

    [[nodiscard]] static QList<RowEdit> between(const QStringList &before, const QStringList &after);
};

} // namespace Cachescope
