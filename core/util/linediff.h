#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace Cachescope {

// LineDiff computes the difference between two texts as lists of lines: a shortest edit script
// (Myers' O((N+M)·D) algorithm, D the number of inserted plus deleted lines) and the unified
// diff hunks that `diff -u` would print for it. Lines compare as exact strings.
//
// Contract: pure functions, no state, callable from any thread. The edit script is minimal
// (N+M-2·LCS lines changed) as long as D stays within maxEditDistance; beyond that the
// remaining middle is reported as wholly replaced, still a correct diff, so that two large and
// unrelated texts cannot make the GUI thread spend seconds. Common leading and trailing lines
// are matched before the search, so the usual object update (a few changed lines) costs O(N+M).
// Memory: O(D²) for the search's trace (4 MB at the default cap of 1000), on top of the inputs.
class LineDiff
{
public:
    // Edit is one step of the script: a line kept (Equal, present in both texts), removed from
    // the old text (Delete) or added from the new one (Insert). oldLine/newLine are 0-based line
    // indexes into the respective text, -1 where the line does not exist on that side.
    struct Edit
    {
        enum class Kind { Equal, Delete, Insert };
        Kind kind = Kind::Equal;
        int oldLine = -1;
        int newLine = -1;

        friend bool operator==(const Edit &, const Edit &) = default;
    };

    // Hunk is a run of changes with up to `context` unchanged lines around it, as in `diff -u`.
    // oldStart/newStart are 1-based like the `@@ -a,b +c,d @@` header (0 when the count is 0).
    struct Hunk
    {
        int oldStart = 0;
        int oldCount = 0;
        int newStart = 0;
        int newCount = 0;
        QList<Edit> edits;

        // header() is the `@@ -oldStart,oldCount +newStart,newCount @@` line.
        [[nodiscard]] QString header() const;
    };

    static constexpr int DefaultContext = 3;
    static constexpr int DefaultMaxEditDistance = 1000;

    [[nodiscard]] static QList<Edit> edits(const QStringList &oldLines, const QStringList &newLines, int maxEditDistance = DefaultMaxEditDistance);

    // hunks() groups an edit script into hunks; changes separated by at most 2·context equal lines
    // share a hunk. Identical texts yield no hunk.
    [[nodiscard]] static QList<Hunk> hunks(const QList<Edit> &edits, int context = DefaultContext);

    // unified() renders hunks as the body of a unified diff (header lines, then lines prefixed
    // by ' ', '-' or '+'), without the ---/+++ file lines. Each line ends with '\n'.
    [[nodiscard]] static QString unified(const QList<Hunk> &hunks, const QStringList &oldLines, const QStringList &newLines);
};

} // namespace Cachescope
