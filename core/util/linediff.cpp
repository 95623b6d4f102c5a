#include "core/util/linediff.h"

#include <QHash>

#include <algorithm>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

using Kind = LineDiff::Edit::Kind;

// Myers' greedy forward search over the middle part a[0..n) / b[0..m) (lines already mapped to
// integers, so each comparison is one int compare). Appends the edits with indexes shifted by
// `offset`. Returns false when the edit distance exceeds maxD, appending nothing.
bool myers(const std::vector<int> &a, const std::vector<int> &b, int offset, int maxD, QList<LineDiff::Edit> &out)
{
    const int n = static_cast<int>(a.size());
    const int m = static_cast<int>(b.size());
    // trace[d][k + d] is the furthest x reached on diagonal k after d edits; only diagonals
    // -d..d can be reached, so step d needs 2d+1 entries and the whole trace O(D²).
    std::vector<std::vector<int>> trace;
    int finalD = -1;
    for (int d = 0; d <= n + m; ++d) {
        if (d > maxD) {
            return false;
        }
        std::vector<int> v(static_cast<size_t>(2 * d + 1));
        for (int k = -d; k <= d; k += 2) {
            int x = 0;
            if (d > 0) {
                const std::vector<int> &prev = trace.back();
                const auto at = [&prev, d](int diagonal) {
                    return prev[static_cast<size_t>(diagonal + d - 1)];
                };
                x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
            }
            int y = x - k;
            while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) {
                ++x;
                ++y;
            }
            v[static_cast<size_t>(k + d)] = x;
            if (x >= n && y >= m) {
                finalD = d;
                break;
            }
        }
        trace.push_back(std::move(v));
        if (finalD >= 0) {
            break;
        }
    }

    // Walk back from (n, m) through the trace, collecting edits in reverse.
    QList<LineDiff::Edit> reversed;
    int x = n;
    int y = m;
    for (int d = finalD; d > 0; --d) {
        const std::vector<int> &prev = trace[static_cast<size_t>(d - 1)];
        const auto at = [&prev, d](int diagonal) {
            return prev[static_cast<size_t>(diagonal + d - 1)];
        };
        const int k = x - y;
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int prevK = down ? k + 1 : k - 1;
        const int prevX = at(prevK);
        const int prevY = prevX - prevK;
        const int startX = down ? prevX : prevX + 1;
        while (x > startX) {
            --x;
            --y;
            reversed.append({Kind::Equal, x + offset, y + offset});
        }
        if (down) {
            reversed.append({Kind::Insert, -1, prevY + offset});
        } else {
            reversed.append({Kind::Delete, prevX + offset, -1});
        }
        x = prevX;
        y = prevY;
    }
    while (x > 0) {
        --x;
        --y;
        reversed.append({Kind::Equal, x + offset, y + offset});
    }
    out.reserve(out.size() + reversed.size());
    std::copy(reversed.crbegin(), reversed.crend(), std::back_inserter(out));
    return true;
}

} // namespace

QList<LineDiff::Edit> LineDiff::edits(const QStringList &oldLines, const QStringList &newLines, int maxEditDistance)
{
    const int n = static_cast<int>(oldLines.size());
    const int m = static_cast<int>(newLines.size());
    QList<Edit> result;
    result.reserve(std::max(n, m));

    int prefix = 0;
    while (prefix < n && prefix < m && oldLines[prefix] == newLines[prefix]) {
        result.append({Kind::Equal, prefix, prefix});
        ++prefix;
    }
    int suffix = 0;
    while (suffix < n - prefix && suffix < m - prefix && oldLines[n - 1 - suffix] == newLines[m - 1 - suffix]) {
        ++suffix;
    }

    QHash<QString, int> ids;
    const auto idOf = [&ids](const QString &line) {
        // Not emplace(): QHash's replaces the value of an existing key.
        auto it = ids.constFind(line);
        if (it == ids.constEnd()) {
            it = ids.insert(line, static_cast<int>(ids.size()));
        }
        return *it;
    };
    std::vector<int> a;
    std::vector<int> b;
    a.reserve(static_cast<size_t>(n - prefix - suffix));
    b.reserve(static_cast<size_t>(m - prefix - suffix));
    for (int i = prefix; i < n - suffix; ++i) {
        a.push_back(idOf(oldLines[i]));
    }
    for (int i = prefix; i < m - suffix; ++i) {
        b.push_back(idOf(newLines[i]));
    }

    // The common prefix is equally long on both sides, so one offset maps the middle's
    // indexes back into either text.
    if (!myers(a, b, prefix, maxEditDistance, result)) {
        for (int i = prefix; i < n - suffix; ++i) {
            result.append({Kind::Delete, i, -1});
        }
        for (int i = prefix; i < m - suffix; ++i) {
            result.append({Kind::Insert, -1, i});
        }
    }

    // Within a run of changes, list the removed lines before the added ones, as diff -u does:
    // a changed line then reads as "-old" directly above "+new". Reordering inside a run keeps
    // the script valid, since deletes and inserts consume different texts.
    for (auto run = result.begin(); run != result.end();) {
        if (run->kind == Kind::Equal) {
            ++run;
            continue;
        }
        const auto end = std::find_if(run, result.end(), [](const Edit &edit) { return edit.kind == Kind::Equal; });
        std::stable_partition(run, end, [](const Edit &edit) { return edit.kind == Kind::Delete; });
        run = end;
    }

    for (int i = 0; i < suffix; ++i) {
        result.append({Kind::Equal, n - suffix + i, m - suffix + i});
    }
    return result;
}

QList<LineDiff::Hunk> LineDiff::hunks(const QList<Edit> &edits, int context)
{
    context = std::max(context, 0);
    QList<Hunk> result;
    const auto count = static_cast<int>(edits.size());
    int oldPos = 0; // old lines consumed before edits[i]
    int newPos = 0;
    int i = 0;
    const auto advance = [&](int to) {
        for (; i < to; ++i) {
            if (edits[i].kind != Kind::Insert) {
                ++oldPos;
            }
            if (edits[i].kind != Kind::Delete) {
                ++newPos;
            }
        }
    };
    while (i < count) {
        int firstChange = i;
        while (firstChange < count && edits[firstChange].kind == Kind::Equal) {
            ++firstChange;
        }
        if (firstChange == count) {
            break;
        }
        advance(std::max(i, firstChange - context));

        // Extend over later changes while the unchanged run between them is at most 2·context
        // lines, which is where diff -u's hunks would touch or overlap.
        int lastChange = firstChange;
        for (int j = firstChange + 1; j < count; ++j) {
            if (edits[j].kind != Kind::Equal) {
                lastChange = j;
            } else if (j - lastChange > 2 * context) {
                break;
            }
        }
        const int end = std::min(count, lastChange + 1 + context);

        Hunk hunk;
        const int oldAtStart = oldPos;
        const int newAtStart = newPos;
        hunk.edits = edits.mid(i, end - i);
        advance(end);
        hunk.oldCount = oldPos - oldAtStart;
        hunk.newCount = newPos - newAtStart;
        // As in diff -u, an empty range names the line before it.
        hunk.oldStart = hunk.oldCount > 0 ? oldAtStart + 1 : oldAtStart;
        hunk.newStart = hunk.newCount > 0 ? newAtStart + 1 : newAtStart;
        result.append(std::move(hunk));
    }
    return result;
}

QString LineDiff::Hunk::header() const
{
    const auto range = [](int start, int count) {
        return count == 1 ? QString::number(start) : QString::number(start) + u',' + QString::number(count);
    };
    return u"@@ -"_s + range(oldStart, oldCount) + u" +"_s + range(newStart, newCount) + u" @@"_s;
}

QString LineDiff::unified(const QList<Hunk> &hunks, const QStringList &oldLines, const QStringList &newLines)
{
    QString out;
    for (const Hunk &hunk : hunks) {
        out += hunk.header() + u'\n';
        for (const Edit &edit : hunk.edits) {
            switch (edit.kind) {
            case Kind::Equal:
                out += u' ' + oldLines.at(edit.oldLine) + u'\n';
                break;
            case Kind::Delete:
                out += u'-' + oldLines.at(edit.oldLine) + u'\n';
                break;
            case Kind::Insert:
                out += u'+' + newLines.at(edit.newLine) + u'\n';
                break;
            }
        }
    }
    return out;
}

} // namespace Cachescope
