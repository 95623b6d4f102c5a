#include "core/cache/apilisterwatcher.h"

#include "core/kube/apiclient.h"
#include "core/kube/listdecoder.h"
#include "core/kube/watchstream.h"
#include "core/util/backgroundpool.h"
#include "core/util/seriallane.h"

#include <QThreadPool>

#include <variant>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {
namespace {

// ApiWatchSession adapts a WatchStream (raw frames) to the informer's WatchSession (decoded
// objects). It owns the stream. The stream's thread reads and frames the bytes; the frames'
// objects are decoded off it, in a SerialLane, and come back in order, the stream's end after
// its last event: at a list of 100k pods the decoding was three fifths of the thread's work, and
// with framing and decoding taking turns on one thread the other core idled. Its runs go side by
// side on every pool thread: once QNAM has buffered the rest of a list, decoding is all there is
// to do. The stream pauses while the lane has a few runs waiting, so the frames it outpaces stay
// in QNAM's buffer as raw bytes and the decoded batches get their turns on this thread (without
// it, 100k pods peaked 1.5x the steady RSS instead of 1.35x).
class ApiWatchSession final : public WatchSession
{
public:
    ApiWatchSession(WatchStream *stream, const ApiResource &resource, KubeObject::Transform transform)
        : m_stream(stream)
    {
        stream->setParent(this);
        // In: an event, or the stream's end; out: the decoded event, or the end passed through.
        m_lane = Lane::create(
            this,
            [resource, transform](LaneItem &item) -> LaneResult {
                if (const WatchEvent *event = std::get_if<WatchEvent>(&item)) {
                    return decode(*event, resource, transform);
                }
                return std::get<ApiError>(item);
            },
            [this](const QList<LaneResult> &results) { deliver(results); },
            backgroundPool()->maxThreadCount());
        connect(stream, &WatchStream::eventReceived, this, [this](const WatchEvent &event) {
            m_lane->push(event);
            // Framing outpaces decoding: what the lane has not begun waits in QNAM's buffer
            // instead, as raw bytes, and the decoded batches get their turns on this thread.
            if (m_lane->pendingCount() >= PauseAt && m_stream) {
                m_stream->pauseReading();
            }
        });
        connect(stream, &WatchStream::finished, this, [this](const ApiError &error) { m_lane->push(error); });
    }

    void stop() override
    {
        m_lane->close();
        if (m_stream) {
            m_stream->disconnect(this);
            m_stream->stop();
        }
    }

private:
    using LaneItem = std::variant<WatchEvent, ApiError>;
    using LaneResult = std::variant<ObjectEvent, ApiError>;
    using Lane = SerialLane<LaneItem, LaneResult>;
    // Reading pauses with this many events not yet taken for decoding (~4 runs, a few MB of
    // frames), and resumes once a run is all that is left: enough to keep the lane busy.
    static constexpr qsizetype PauseAt = 4 * Lane::MaxBatch;
    static constexpr qsizetype ResumeAt = Lane::MaxBatch;

    // deliver() hands a batch on: its events at once, then the stream's end if it came. A
    // receiver may stop or delete this session as it reacts.
    void deliver(const QList<LaneResult> &results)
    {
        if (m_stream && m_stream->isReadingPaused() && m_lane->pendingCount() <= ResumeAt) {
            m_stream->resumeReading();
        }
        const QPointer<ApiWatchSession> self(this);
        QList<ObjectEvent> events;
        events.reserve(results.size());
        for (const LaneResult &result : results) {
            if (const ObjectEvent *event = std::get_if<ObjectEvent>(&result)) {
                events.append(*event);
                continue;
            }
            if (!events.isEmpty()) {
                Q_EMIT eventsReceived(events);
                if (!self || m_lane->isClosed()) {
                    return;
                }
            }
            m_lane->close(); // the stream has ended: nothing comes after
            Q_EMIT ended(std::get<ApiError>(result));
            return;
        }
        if (!events.isEmpty()) {
            Q_EMIT eventsReceived(events);
        }
    }

    // decode() runs on a pool thread.
    static ObjectEvent decode(const WatchEvent &event, const ApiResource &resource, KubeObject::Transform transform)
    {
        ObjectEvent out;
        switch (event.type) {
        case WatchEvent::Type::Added:
            out.type = ObjectEvent::Type::Added;
            break;
        case WatchEvent::Type::Modified:
            out.type = ObjectEvent::Type::Modified;
            break;
        case WatchEvent::Type::Deleted:
            out.type = ObjectEvent::Type::Deleted;
            break;
        case WatchEvent::Type::Bookmark:
            out.type = ObjectEvent::Type::Bookmark;
            break;
        case WatchEvent::Type::Error:
            out.type = ObjectEvent::Type::Error;
            out.error = ApiError::fromStatus(event.object);
            return out;
        case WatchEvent::Type::Malformed:
            out.type = ObjectEvent::Type::Malformed;
            out.decodeError = event.decodeError;
            return out;
        }
        // Bookmarks carry only a resourceVersion; no transform needed but the same decoder works.
        const auto object = ApiListerWatcher::decodeItem(event.object, resource, transform);
        if (!object) {
            out.type = ObjectEvent::Type::Malformed;
            out.decodeError = u"the event's object could not be decoded"_s;
            return out;
        }
        out.object = *object;
        return out;
    }

    QPointer<WatchStream> m_stream; // owned (child)
    std::shared_ptr<Lane> m_lane;
};

} // namespace

ApiListerWatcher::ApiListerWatcher(ApiClient *client, const Target &target)
    : m_client(client)
    , m_target(target)
{
}

void ApiListerWatcher::addSelectors(ApiRequest &request, const QString &labelSelector, const QString &fieldSelector) const
{
    // A call's own selectors win over the target's (a ListerWatcher is usually made with them).
    const QString labels = labelSelector.isEmpty() ? m_target.labelSelector : labelSelector;
    const QString fields = fieldSelector.isEmpty() ? m_target.fieldSelector : fieldSelector;
    if (!labels.isEmpty()) {
        request.query.addQueryItem(u"labelSelector"_s, labels);
    }
    if (!fields.isEmpty()) {
        request.query.addQueryItem(u"fieldSelector"_s, fields);
    }
}

QString ApiListerWatcher::collectionPath() const
{
    return m_target.resource.gvr.collectionPath(m_target.resource.namespaced ? m_target.namespaceName : QString());
}

std::optional<KubeObject> ApiListerWatcher::decodeItem(const QByteArray &json, const ApiResource &resource, KubeObject::Transform transform)
{
    auto object = KubeObject::fromJson(json, transform);
    if (!object || !object->kind().isEmpty() || json.size() < 2 || resource.kind.isEmpty()) {
        return object;
    }
    // A list item: the apiserver omits apiVersion and kind inside typed lists.
    const QByteArray prefix = "{\"apiVersion\":\"" + resource.gvr.groupVersion().toUtf8() + "\",\"kind\":\"" + resource.kind.toUtf8() + '"';
    const QByteArray body = json.trimmed().mid(1).trimmed();
    QByteArray patched = prefix;
    if (!body.startsWith('}')) {
        patched += ',';
    }
    patched += body;
    return KubeObject::fromJson(patched, transform);
}

void ApiListerWatcher::list(const ListOptions &options, QObject *context, ListCallback done)
{
    if (!m_client) {
        ObjectListPage page;
        page.error = ApiError(ApiError::Kind::Canceled, u"the cluster connection is gone"_s);
        QMetaObject::invokeMethod(
            context, [done, page] { done(page); }, Qt::QueuedConnection);
        return;
    }
    ApiRequest request;
    request.path = collectionPath();
    request.accept = m_target.metadataOnly ? ApiRequest::acceptMetadataList : ApiRequest::acceptJson;
    if (options.continueToken.isEmpty()) {
        request.query.addQueryItem(u"resourceVersion"_s, options.resourceVersion);
        if (!options.resourceVersionMatch.isEmpty()) {
            request.query.addQueryItem(u"resourceVersionMatch"_s, options.resourceVersionMatch);
        }
    } else {
        request.query.addQueryItem(u"continue"_s, options.continueToken);
    }
    if (options.limit > 0) {
        request.query.addQueryItem(u"limit"_s, QString::number(options.limit));
    }
    addSelectors(request, options.labelSelector, options.fieldSelector);
    // The answer is decoded while it downloads (an RV "0" list comes whole from the watch cache,
    // whatever the limit): each item becomes a KubeObject as its bytes complete, and only the
    // decoded objects, which the cache keeps anyway, are held until the page ends.
    struct StreamedPage
    {
        ListDecoder decoder;
        ObjectListPage page;
    };
    auto streamed = std::make_shared<StreamedPage>();
    const ApiResource resource = m_target.resource;
    const KubeObject::Transform transform = m_target.transform;
    const auto onBody = [streamed, resource, transform](QByteArrayView bytes) {
        for (const QByteArray &item : streamed->decoder.feed(bytes)) {
            if (auto object = decodeItem(item, resource, transform)) {
                streamed->page.items.append(*object);
            } else {
                ++streamed->page.malformedItems;
            }
        }
        return !streamed->decoder.failed();
    };
    m_client->stream(request, context, onBody, [done, streamed](const ApiResponse &response) {
        ObjectListPage page = std::exchange(streamed->page, {});
        auto decoded = streamed->decoder.finish();
        if (const QString *error = std::get_if<QString>(&decoded); error && (response.isOk() || streamed->decoder.failed())) {
            page = {};
            page.error = ApiError(ApiError::Kind::Decode, u"the list answer could not be read: "_s + *error);
        } else if (!response.isOk()) {
            page = {};
            page.error = response.error;
        } else {
            const ListPage &meta = std::get<ListPage>(decoded);
            page.resourceVersion = meta.resourceVersion;
            page.continueToken = meta.continueToken;
            page.remainingItemCount = meta.remainingItemCount;
        }
        done(page);
    });
}

std::unique_ptr<WatchSession> ApiListerWatcher::watch(const WatchOptions &options)
{
    ApiRequest request;
    request.path = collectionPath();
    request.accept = m_target.metadataOnly ? ApiRequest::acceptMetadata : ApiRequest::acceptJson;
    request.query.addQueryItem(u"watch"_s, u"true"_s);
    if (!options.resourceVersion.isEmpty()) {
        request.query.addQueryItem(u"resourceVersion"_s, options.resourceVersion);
    }
    if (options.allowWatchBookmarks) {
        request.query.addQueryItem(u"allowWatchBookmarks"_s, u"true"_s);
    }
    if (options.timeoutSeconds > 0) {
        request.query.addQueryItem(u"timeoutSeconds"_s, QString::number(options.timeoutSeconds));
    }
    if (options.sendInitialEvents) {
        request.query.addQueryItem(u"sendInitialEvents"_s, u"true"_s);
        request.query.addQueryItem(u"resourceVersionMatch"_s, u"NotOlderThan"_s);
    }
    addSelectors(request, options.labelSelector, options.fieldSelector);
    Q_ASSERT(m_client);
    WatchStream *stream = m_client->watch(request);
    if (m_target.idleTimeout.count() > 0) {
        stream->setIdleTimeout(m_target.idleTimeout);
    }
    return std::make_unique<ApiWatchSession>(stream, m_target.resource, m_target.transform);
}

} // namespace Cachescope
