#pragma once

#include "core/sim/apierror.h"
#include "core/sim/storedobject.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <variant>

namespace Cachescope::Sim {

// ListPaginator is the limit/continue half of a LIST: it cuts a list into pages and keeps, for
// each list still being paged, the consistent view its continue tokens read from (the
// apiserver reads them from etcd at the first page's revision), so that every page of one list
// comes from the same resourceVersion however the store changes meanwhile.
//
// A view lives until its last page is served or it is older than the TTL (etcd's compaction
// period, by default); at most MaxSnapshots are kept, the oldest given up first, so memory is
// bounded whatever the TTL. A token of a view that is gone is a 410 Expired, as from a compacted
// etcd; a token that is not one of ours is a 400. remainingItemCount is reported on a page with
// a continue token unless the caller says the list was filtered (a selector), as the apiserver
// leaves it out then.
//
// Tokens are base64url JSON like the apiserver's ("v", "rv", "start") plus the view and offset.
// Thread: the server thread. Cost: a view shares its items (ObjectPtr) with the store.
class ListPaginator final
{
public:
    static constexpr qsizetype MaxSnapshots = 256;

    // What a continue token carries.
    struct ContinueToken
    {
        quint64 snapshot = 0; // the consistent view
        qsizetype offset = 0; // the next page's first item
        quint64 resourceVersion = 0;
        QString start; // the key of the next page's first item, as the apiserver's tokens have it
    };

    struct Page
    {
        QList<ObjectPtr> items;
        quint64 resourceVersion = 0; // of the view, the list's metadata.resourceVersion
        QString continueToken; // empty on the last page
        std::optional<qsizetype> remainingItemCount; // items after this page, when counted
    };

    explicit ListPaginator(int ttlMs);

    // The first page (limit 0: all) of a new list of items as they stand at resourceVersion.
    [[nodiscard]] Page firstPage(const QList<ObjectPtr> &items, quint64 resourceVersion, qsizetype limit, bool countRemaining);
    // The page continueToken points at, from the same view as the page that gave the token; a
    // 400 for a malformed token, a 410 Expired when its view is gone.
    [[nodiscard]] std::variant<Page, ApiError> nextPage(const QString &continueToken, qsizetype limit, bool countRemaining);
    // Forgets every view: their tokens expire (a restarted apiserver).
    void clear() { m_snapshots.clear(); }
    [[nodiscard]] qsizetype snapshotCount() const { return m_snapshots.size(); }

    [[nodiscard]] static QString encodeContinue(const ContinueToken &token);
    [[nodiscard]] static std::optional<ContinueToken> decodeContinue(const QString &text);

private:
    struct Snapshot
    {
        QList<ObjectPtr> items;
        quint64 resourceVersion = 0;
        QElapsedTimer age;
    };

    [[nodiscard]] Page page(quint64 snapshotId, qsizetype offset, qsizetype limit, bool countRemaining);
    void prune();

    int m_ttlMs;
    QHash<quint64, Snapshot> m_snapshots;
    quint64 m_nextSnapshot = 1;
};

} // namespace Cachescope::Sim
