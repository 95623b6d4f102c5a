#pragma once

#include "core/kube/fieldselector.h"
#include "core/kube/labelselector.h"
#include "core/sim/resourcecatalog.h"
#include "core/sim/storedobject.h"
#include "core/sim/tableconverter.h"

#include <QObject>
#include <QPointer>

#include <deque>

class QTimer;

namespace Cachescope::Sim {

class HttpExchange;
struct ApiError;

// WatchSession is one WATCH response in progress: a chunked stream of newline-terminated JSON
// events for one resource, filtered by namespace and selectors, rendered as full objects, as
// Table rows (kubectl get -w) or as PartialObjectMetadata. It ends when its timeoutSeconds run
// out (after a last bookmark, as the apiserver does), when the client goes away, or when the
// client reads too slowly: once more than bufferLimit bytes wait for it, the watch is ended, so
// a slow reader costs a bounded amount of memory and never holds anyone else up.
//
// Selectors see transitions as the apiserver's watch cache does: a MODIFIED that makes an
// object leave the selection arrives as DELETED, one that makes it enter as ADDED.
//
// Thread: server thread. Owned by ApiServer (child); deletes itself after finished().
class WatchSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchSession)
public:
    enum class Format { Object, Table, Metadata };
    struct Options
    {
        QString namespaceName;
        LabelSelector labels;
        FieldSelector fields;
        Format format = Format::Object;
        TableConverter::IncludeObject includeObject = TableConverter::IncludeObject::Metadata;
        bool bookmarks = false;
        int timeoutMs = 0;
        int bookmarkIntervalMs = 60000;
        qint64 bufferLimit = 64 * 1024 * 1024;
        // Live events that may wait behind a client still reading its initial events.
        qsizetype maxQueuedEvents = 100000;
    };

    WatchSession(
        HttpExchange *connection, const ResourceType &type, const Options &options, std::function<quint64()> currentVersion, QObject *parent = nullptr);
    ~WatchSession() override;

    // Sends the response head; then the synthetic ADDED events of `initial` (objects that match
    // are filtered here), for a streaming list (sendInitialEvents) the BOOKMARK marking the end
    // of the initial events at version initialVersion, and the replayed history `replay`.
    // These are written as the client reads (a 100k-object initial state is not buffered at
    // once); live events that arrive meanwhile queue behind them, in order.
    void start(const QList<ObjectPtr> &initial, const QList<StoreEventPtr> &replay, bool initialEventsEnd, quint64 initialVersion = 0);
    void deliver(const StoreEventPtr &event);
    // An ERROR event with the Status of error, then the end of the stream.
    void fail(const ApiError &error);
    // Fault injection: a half-written next frame, then the connection cut; or silence forever.
    void truncateNextFrame() { m_truncateNext = true; }
    void stall() { m_stalled = true; }
    // Ends the stream cleanly (the terminating chunk).
    void finish();
    void abortConnection();

    [[nodiscard]] const ResourceType &resourceType() const { return m_type; }
    [[nodiscard]] bool matches(const StoredObject &object) const;
    [[nodiscard]] bool isFinished() const { return m_finished; }
    [[nodiscard]] bool droppedForSlowness() const { return m_droppedSlow; }

Q_SIGNALS:
    void finished(Cachescope::Sim::WatchSession *session);

private:
    struct Pending
    {
        ObjectPtr initial;
        StoreEventPtr event;
        quint64 initialEventsEnd = 0; // the version of the initial-events-end bookmark
        bool live = false; // delivered while others waited (counted against maxQueuedEvents)
    };
    void send(const QByteArray &frame);
    void flush();
    void write(const StoreEventPtr &event);
    QByteArray renderFrame(StoreEventType type, const StoredObject &object, const QByteArray *cachedFrame);
    void sendBookmark(bool initialEventsEnd, quint64 version = 0);

    QPointer<HttpExchange> m_connection;
    ResourceType m_type;
    Options m_options;
    std::function<quint64()> m_currentVersion;
    QTimer *m_timeout = nullptr; // owned (child)
    QTimer *m_bookmarkTimer = nullptr; // owned (child)
    std::deque<Pending> m_pending;
    qsizetype m_pendingLive = 0;
    bool m_sentColumns = false;
    bool m_stalled = false;
    bool m_truncateNext = false;
    bool m_finished = false;
    bool m_droppedSlow = false;
};

} // namespace Cachescope::Sim
