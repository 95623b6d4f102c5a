#pragma once

#include "core/cache/kubeobject.h"
#include "core/kube/apierror.h"

#include <QList>
#include <QString>

#include <optional>

namespace Cachescope {

// RecordedInput is one thing an informer's ListerWatcher handed its reflector (or one request
// the reflector made of it), as a recording keeps it: the unit of RecordingWriter, of
// RecordedCache and of ReplayListerWatcher. The kinds and their names in the `inputs` table:
//
//   list          the reflector asked for the first page of a list (resourceVersion: the one asked for)
//   list_page     a page came back (items, resourceVersion, continueToken, remaining)
//   list_error    the list request failed (error)
//   watch_opened  the reflector opened a watch (resourceVersion asked for, sendInitialEvents)
//   watch_event   ADDED, MODIFIED or DELETED (eventType, object)
//   bookmark      a BOOKMARK (object: its bytes carry the initial-events-end annotation)
//   watch_error   an ERROR event (error) or a frame that did not decode (eventType MALFORMED,
//                 error's message is why)
//   watch_ended   the stream ended (error, none when the server closed it) or the reflector
//                 stopped it (eventType STOPPED)
//
// A relist is a `list` after the first; a reconnect a `watch_opened` with no list before it.
// Plain value type; the objects are shared.
struct RecordedInput
{
    enum class Kind { List, ListPage, ListError, WatchOpened, WatchEvent, Bookmark, WatchError, WatchEnded };

    qint64 seq = 0; // order in the recording, from 1, across every informer
    qint64 informerId = 0;
    qint64 monoNs = 0; // monotonic time since the recording started
    qint64 wallMs = 0; // wall clock, ms since the epoch
    Kind kind = Kind::List;
    QString eventType; // watch_event: ADDED, MODIFIED, DELETED; watch_error: ERROR or MALFORMED; watch_ended: STOPPED
    KubeObject object; // watch_event, bookmark
    qint64 objectId = 0; // the object's row in `objects` once written or read
    QList<KubeObject> items; // list_page
    QList<qint64> itemIds;
    QString resourceVersion;
    QString continueToken;
    std::optional<qint64> remaining;
    bool sendInitialEvents = false; // watch_opened
    ApiError error; // list_error, watch_error, watch_ended

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
    static QList<Kind> allKinds();
};

} // namespace Cachescope
