#pragma once

#include "core/cache/kubeobject.h"
#include "core/kube/apierror.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace Cachescope {

// ListOptions are the parameters of one LIST request (one page), as the apiserver takes them.
struct ListOptions
{
    QString resourceVersion; // "" = most recent (consistent read), "0" = any, else per resourceVersionMatch
    QString resourceVersionMatch; // "", "NotOlderThan" or "Exact"
    qint64 limit = 0; // 0 = no paging
    QString continueToken;
    QString labelSelector;
    QString fieldSelector;
};

// ObjectListPage is the answer to one LIST request: an error, or decoded items with the list's
// resourceVersion and, when the server pages, the token and count of what remains.
struct ObjectListPage
{
    ApiError error;
    QList<KubeObject> items;
    QString resourceVersion;
    QString continueToken;
    std::optional<qint64> remainingItemCount;
    // Items the server sent that could not be decoded (skipped, counted here).
    qsizetype malformedItems = 0;
};

// WatchOptions are the parameters of one WATCH request.
struct WatchOptions
{
    QString resourceVersion;
    QString labelSelector;
    QString fieldSelector;
    bool allowWatchBookmarks = true;
    int timeoutSeconds = 0; // 0 = the server's default
    // A streaming list (KEP-3157): the server first sends the current state as ADDED events,
    // then a BOOKMARK annotated k8s.io/initial-events-end; resourceVersionMatch is NotOlderThan.
    bool sendInitialEvents = false;
};

// ObjectEvent is one decoded watch event. For Bookmark only object.resourceVersion() matters;
// for Error, error holds the server's Status; Malformed is a frame that could not be decoded
// (decodeError says why), which the reflector treats as a broken stream.
struct ObjectEvent
{
    enum class Type { Added, Modified, Deleted, Bookmark, Error, Malformed };
    Type type = Type::Malformed;
    KubeObject object;
    ApiError error;
    QString decodeError;
};

// WatchSession is one open watch. It emits eventsReceived() for each batch of events in the
// order the server sent them, then ended() exactly once: with no error when the server closed
// the stream (timeoutSeconds elapsed or the server went away cleanly), with an error for a
// failed request, a broken connection or a stream that stayed silent past the idle limit.
// After stop() it emits nothing more. It lives on the thread that called
// ListerWatcher::watch(); its owner deletes it.
class WatchSession : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual void stop() = 0;

Q_SIGNALS:
    void eventsReceived(const QList<Cachescope::ObjectEvent> &events);
    void ended(const Cachescope::ApiError &error);
};

// ListerWatcher is client-go's ListerWatcher (Lister + Watcher) for one resource, with the
// namespace and selectors fixed when it was made: what a Reflector lists and watches through.
// Implementations: the cluster's ApiListerWatcher over ApiClient, a fake for unit tests, and
// a replay of a recording. Calls are asynchronous and made from one thread (the thread the
// implementation lives on); answers arrive on that thread. Items and event objects come
// already decoded, with the informer's transform applied (see KubeObject::fromJson).
class ListerWatcher
{
public:
    using ListCallback = std::function<void(const ObjectListPage &page)>;

    virtual ~ListerWatcher() = default;

    // list() requests one page and calls done exactly once with the answer, on this thread,
    // unless context is destroyed first.
    virtual void list(const ListOptions &options, QObject *context, ListCallback done) = 0;
    // watch() opens a watch stream; the caller owns the session.
    [[nodiscard]] virtual std::unique_ptr<WatchSession> watch(const WatchOptions &options) = 0;
};

} // namespace Cachescope

Q_DECLARE_METATYPE(Cachescope::ObjectEvent)
