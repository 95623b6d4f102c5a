#include "core/sim/watchsession.h"

#include "core/sim/apierror.h"
#include "core/sim/httpexchange.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QTimer>

#include <utility>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

WatchSession::WatchSession(HttpExchange *connection, const ResourceType &type, const Options &options, std::function<quint64()> currentVersion, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_type(type)
    , m_options(options)
    , m_currentVersion(std::move(currentVersion))
{
    connect(connection, &HttpExchange::closed, this, [this] {
        if (!m_finished) {
            m_finished = true;
            Q_EMIT finished(this);
            deleteLater();
        }
    });
}

WatchSession::~WatchSession() = default;

bool WatchSession::matches(const StoredObject &object) const
{
    if (!m_options.namespaceName.isEmpty() && object.namespaceName != m_options.namespaceName)
        return false;
    if (!m_options.labels.matches(object.labels))
        return false;
    return m_options.fields.matches([&object](const QString &field) { return object.fieldValue(field); });
}

void WatchSession::start(const QList<ObjectPtr> &initial, const QList<StoreEventPtr> &replay, bool initialEventsEnd, quint64 initialVersion)
{
    if (!m_connection)
        return;
    const QByteArray contentType =
        m_options.format == Format::Table ? QByteArray("application/json;as=Table;v=v1;g=meta.k8s.io") : QByteArray("application/json");
    m_connection->beginChunked(200, contentType);
    connect(m_connection, &HttpExchange::writable, this, &WatchSession::flush);
    if (m_options.timeoutMs > 0) {
        m_timeout = new QTimer(this);
        m_timeout->setSingleShot(true);
        connect(m_timeout, &QTimer::timeout, this, [this] {
            // A last bookmark right before the timeout lets the client resume without replaying.
            if (m_options.bookmarks)
                sendBookmark(false);
            finish();
        });
        m_timeout->start(m_options.timeoutMs);
    }
    if (m_options.bookmarks) {
        m_bookmarkTimer = new QTimer(this);
        connect(m_bookmarkTimer, &QTimer::timeout, this, [this] { sendBookmark(false); });
        m_bookmarkTimer->start(m_options.bookmarkIntervalMs);
    }
    for (const ObjectPtr &object : initial)
        m_pending.push_back({object, {}, 0, false});
    if (initialEventsEnd)
        m_pending.push_back({{}, {}, initialVersion ? initialVersion : m_currentVersion(), false});
    for (const StoreEventPtr &event : replay)
        m_pending.push_back({{}, event, 0, false});
    flush();
}

void WatchSession::flush()
{
    // Refill up to about a megabyte at a time: a client reading slowly holds back only its own
    // stream, and memory stays bounded by what it has not read yet.
    constexpr qint64 HighWater = 1024 * 1024;
    // Initial events go out many to a chunk: one chunk, one copy and three socket writes per
    // object held a streaming list of a million pods to a fraction of what a list serves. A
    // watch stream is a sequence of JSON objects whatever its chunks; only a frame about to be
    // truncated goes alone, so that the cut falls inside it. Batches stay below glibc's mmap
    // threshold, as ListHandler's do.
    constexpr qsizetype BatchBytes = 96 * 1024;
    QByteArray batch;
    const auto sendBatch = [this, &batch] {
        if (!batch.isEmpty())
            send(std::exchange(batch, QByteArray()));
    };
    while (!m_pending.empty() && !m_finished && !m_stalled && m_connection && m_connection->pendingBytes() < HighWater) {
        const Pending next = m_pending.front();
        m_pending.pop_front();
        if (next.initial && m_options.format == Format::Object && !m_truncateNext) {
            if (matches(*next.initial)) {
                if (batch.isEmpty())
                    batch.reserve(BatchBytes + 16 * 1024);
                batch += "{\"type\":\"ADDED\",\"object\":";
                batch += next.initial->json;
                batch += "}\n";
                if (batch.size() >= BatchBytes)
                    sendBatch();
            }
            continue;
        }
        sendBatch();
        if (next.initial) {
            if (matches(*next.initial))
                send(renderFrame(StoreEventType::Added, *next.initial, nullptr));
        } else if (next.event) {
            if (next.live)
                --m_pendingLive;
            write(next.event);
        } else {
            sendBookmark(true, next.initialEventsEnd);
        }
    }
    sendBatch();
}

void WatchSession::deliver(const StoreEventPtr &event)
{
    if (m_finished || m_stalled)
        return;
    if (!m_pending.empty()) {
        // Behind initial events or a replay: keep the order, within a bound.
        if (++m_pendingLive > m_options.maxQueuedEvents) {
            m_droppedSlow = true;
            finish();
            return;
        }
        m_pending.push_back({{}, event, 0, true});
        return;
    }
    write(event);
}

void WatchSession::write(const StoreEventPtr &event)
{
    const bool nowMatches = matches(*event->object);
    StoreEventType type = event->type;
    if (type == StoreEventType::Modified) {
        const bool wasMatching = event->previous && matches(*event->previous);
        if (!wasMatching && !nowMatches)
            return;
        if (wasMatching && !nowMatches)
            type = StoreEventType::Deleted;
        else if (!wasMatching)
            type = StoreEventType::Added;
    } else if (!nowMatches) {
        return;
    }
    send(renderFrame(type, *event->object, type == event->type ? &event->frame() : nullptr));
}

QByteArray WatchSession::renderFrame(StoreEventType type, const StoredObject &object, const QByteArray *cachedFrame)
{
    if (m_options.format == Format::Object) {
        if (cachedFrame)
            return *cachedFrame;
        return "{\"type\":\"" + StoreEvent::typeName(type) + "\",\"object\":" + object.json + "}\n";
    }
    const QJsonObject parsed = QJsonDocument::fromJson(object.json).object();
    QJsonObject rendered;
    if (m_options.format == Format::Metadata) {
        rendered = TableConverter::partialObjectMetadata(parsed);
    } else {
        const QJsonObject row = TableConverter::row(m_type, parsed, m_options.includeObject, QDateTime::currentDateTimeUtc());
        const QJsonObject metadata{{u"resourceVersion"_s, QString::number(object.resourceVersion)}};
        // Only the first table of a watch carries the column definitions, as the apiserver
        // sends them; kubectl keeps the ones it got.
        rendered = TableConverter::table(m_type, QJsonArray{row}, !m_sentColumns, metadata);
        m_sentColumns = true;
    }
    const QJsonObject event{{u"type"_s, QString::fromLatin1(StoreEvent::typeName(type))}, {u"object"_s, rendered}};
    return QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
}

void WatchSession::sendBookmark(bool initialEventsEnd, quint64 version)
{
    // A periodic bookmark while events still wait would claim a version the client has not
    // reached yet.
    if (m_finished || m_stalled || (!initialEventsEnd && !m_pending.empty()))
        return;
    QJsonObject metadata{{u"resourceVersion"_s, QString::number(version ? version : m_currentVersion())}, {u"creationTimestamp"_s, QJsonValue::Null}};
    if (initialEventsEnd)
        metadata.insert(u"annotations"_s, QJsonObject{{u"k8s.io/initial-events-end"_s, u"true"_s}});
    QJsonObject object{{u"metadata"_s, metadata}};
    if (m_options.format == Format::Object) {
        object.insert(u"kind"_s, m_type.kind);
        object.insert(u"apiVersion"_s, m_type.groupVersion());
    } else if (m_options.format == Format::Metadata) {
        object.insert(u"kind"_s, u"PartialObjectMetadata"_s);
        object.insert(u"apiVersion"_s, u"meta.k8s.io/v1"_s);
    } else {
        object = TableConverter::table(m_type, QJsonArray(), !m_sentColumns, QJsonObject{{u"resourceVersion"_s, metadata.value(u"resourceVersion")}});
        m_sentColumns = true;
    }
    const QJsonObject event{{u"type"_s, u"BOOKMARK"_s}, {u"object"_s, object}};
    send(QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n');
}

void WatchSession::send(const QByteArray &frame)
{
    if (m_finished || !m_connection)
        return;
    if (m_truncateNext) {
        // Half a frame inside a well-formed chunk, then EOF: the client's decoder sees a JSON
        // object cut in the middle.
        const QByteArray half = frame.left(qMax<qsizetype>(1, frame.size() / 2));
        m_finished = true;
        m_connection->writeRawAndAbort(QByteArray::number(frame.size(), 16) + "\r\n" + half);
        Q_EMIT finished(this);
        deleteLater();
        return;
    }
    m_connection->writeChunk(frame);
    if (m_connection && m_connection->pendingBytes() > m_options.bufferLimit) {
        // The apiserver's cacher ends a watcher whose buffer is full rather than block the
        // others; the client relists or resumes.
        m_droppedSlow = true;
        finish();
    }
}

void WatchSession::fail(const ApiError &error)
{
    if (m_finished || !m_connection)
        return;
    const QJsonObject event{{u"type"_s, u"ERROR"_s}, {u"object"_s, error.toStatusObject()}};
    m_connection->writeChunk(QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n');
    finish();
}

void WatchSession::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_connection)
        m_connection->endChunked();
    Q_EMIT finished(this);
    deleteLater();
}

void WatchSession::abortConnection()
{
    if (m_finished)
        return;
    m_finished = true;
    if (m_connection)
        m_connection->abort();
    Q_EMIT finished(this);
    deleteLater();
}

} // namespace Cachescope::Sim
