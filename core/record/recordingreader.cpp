#include "core/record/recordingreader.h"

#include "core/record/recordingschema.h"

#include "core/printers/duration.h"
#include "core/util/rfc3339.h"

#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <atomic>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString uniqueConnectionName()
{
    static std::atomic<int> next{0};
    return u"cachescope-recording-reader-%1"_s.arg(next.fetch_add(1));
}

ApiError::Kind errorKindFromName(const QString &name)
{
    static const QHash<QString, ApiError::Kind> kinds{
        {u"Config"_s, ApiError::Kind::Config},
        {u"Credentials"_s, ApiError::Kind::Credentials},
        {u"Network"_s, ApiError::Kind::Network},
        {u"Tls"_s, ApiError::Kind::Tls},
        {u"Timeout"_s, ApiError::Kind::Timeout},
        {u"Http"_s, ApiError::Kind::Http},
        {u"Decode"_s, ApiError::Kind::Decode},
        {u"Canceled"_s, ApiError::Kind::Canceled},
    };
    // An error of a kind this version does not know is still an error.
    return kinds.value(name, ApiError::Kind::Network);
}

QDateTime fromMs(const QVariant &value)
{
    return value.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), Qt::UTC);
}

} // namespace

RecordingReader::RecordingReader()
    : m_connection(uniqueConnectionName())
{
}

RecordingReader::~RecordingReader()
{
    close();
}

void RecordingReader::close()
{
    m_open = false;
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase database = QSqlDatabase::database(m_connection, false);
            database.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

bool RecordingReader::open(const QString &path, QString *errorMessage)
{
    close();
    m_path = path;
    QString why;
    if (!load(path, &why)) {
        // Closed only here, where load()'s database and query handles are gone: closing under
        // them makes Qt warn that the connection is still in use.
        *errorMessage = u"cannot read the recording %1: %2"_s.arg(path, why);
        close();
        return false;
    }
    return true;
}

bool RecordingReader::load(const QString &path, QString *why)
{
    const auto failOpen = [why](const QString &reason) {
        *why = reason;
        return false;
    };
    if (!QFileInfo(path).isFile()) {
        return failOpen(u"no such file"_s);
    }
    QSqlDatabase database = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connection);
    if (!database.isValid()) {
        return failOpen(u"Qt's SQLite driver is missing (install libqt6sql6-sqlite)"_s);
    }
    database.setDatabaseName(path);
    database.setConnectOptions(u"QSQLITE_OPEN_READONLY"_s);
    if (!database.open()) {
        return failOpen(database.lastError().text());
    }
    QSqlQuery query(database);
    if (!query.exec(u"PRAGMA user_version"_s) || !query.next()) {
        return failOpen(query.lastError().text());
    }
    const int version = query.value(0).toInt();
    if (version != RecordingSchema::version()) {
        return failOpen(version == 0 ? u"not a Cachescope recording (an SQLite file without its schema version)"_s
                                     : u"schema version %1, this Cachescope reads version %2"_s.arg(version).arg(RecordingSchema::version()));
    }
    if (!query.exec(u"SELECT cluster, context, server_version, started, ended, include_secret_values FROM session"_s) || !query.next()) {
        return failOpen(query.lastError().isValid() ? query.lastError().text() : u"the session row is missing"_s);
    }
    m_session.cluster = query.value(0).toString();
    m_session.context = query.value(1).toString();
    m_session.serverVersion = query.value(2).toString();
    m_session.started = fromMs(query.value(3));
    m_session.ended = fromMs(query.value(4));
    m_session.includeSecretValues = query.value(5).toInt() != 0;
    m_informers.clear();
    if (!query.exec(u"SELECT id, name, resource, grp, version, kind, namespaced, short_names, namespace, label_selector, field_selector,"
                    " metadata_only, fifo, watch_list FROM informers ORDER BY id"_s)) {
        return failOpen(query.lastError().text());
    }
    while (query.next()) {
        RecordedInformer informer;
        informer.id = query.value(0).toLongLong();
        informer.name = query.value(1).toString();
        informer.resource.gvr = GroupVersionResource(query.value(3).toString(), query.value(4).toString(), query.value(2).toString());
        informer.resource.kind = query.value(5).toString();
        informer.resource.namespaced = query.value(6).toInt() != 0;
        informer.resource.shortNames = query.value(7).toString().split(u',', Qt::SkipEmptyParts);
        informer.resource.verbs = {u"list"_s, u"watch"_s};
        informer.namespaceName = query.value(8).toString();
        informer.labelSelector = query.value(9).toString();
        informer.fieldSelector = query.value(10).toString();
        informer.metadataOnly = query.value(11).toInt() != 0;
        informer.queueKind = query.value(12).toString() == u"DeltaFifo"_s ? DeltaQueue::Kind::DeltaFifo : DeltaQueue::Kind::RealFifo;
        informer.watchList = query.value(13).toInt() != 0;
        m_informers.append(informer);
    }
    m_open = true;
    return true;
}

std::optional<RecordedInformer> RecordingReader::informer(qint64 id) const
{
    for (const RecordedInformer &informer : m_informers) {
        if (informer.id == id) {
            return informer;
        }
    }
    return std::nullopt;
}

RecordingReader::Summary RecordingReader::summary() const
{
    Summary summary;
    if (!m_open) {
        return summary;
    }
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    if (query.exec(u"SELECT kind, count(*) FROM inputs GROUP BY kind"_s)) {
        while (query.next()) {
            if (const auto kind = RecordedInput::kindFromName(query.value(0).toString())) {
                summary.inputsByKind.insert(*kind, query.value(1).toLongLong());
            }
            summary.inputs += query.value(1).toLongLong();
        }
    }
    noteError(query);
    if (query.exec(u"SELECT min(seq), max(seq), min(wall_ms), max(wall_ms), max(mono_ns) FROM inputs"_s) && query.next()) {
        // Inputs counted but no first or last: an index SQLite answered from is damaged (its
        // schema or pages edited), and other answers may leave rows out. Said, not hidden.
        if (summary.inputs > 0 && (query.value(0).isNull() || query.value(1).isNull())) {
            m_error =
                u"the recording is damaged: %1 inputs, but none has a sequence number (run `sqlite3 FILE 'PRAGMA integrity_check'`)"_s.arg(summary.inputs);
        }
        summary.firstSeq = query.value(0).toLongLong();
        summary.lastSeq = query.value(1).toLongLong();
        summary.firstWallMs = query.value(2).toLongLong();
        summary.lastWallMs = query.value(3).toLongLong();
        summary.lastMonoNs = query.value(4).toLongLong();
    }
    noteError(query);
    if (query.exec(u"SELECT count(*), coalesce(sum(length(bytes)), 0) FROM objects"_s) && query.next()) {
        summary.objects = query.value(0).toLongLong();
        summary.objectBytes = query.value(1).toLongLong();
    }
    noteError(query);
    if (query.exec(u"SELECT count(*) FROM checkpoints"_s) && query.next()) {
        summary.checkpoints = query.value(0).toLongLong();
    }
    noteError(query);
    return summary;
}

void RecordingReader::noteError(const QSqlQuery &query) const
{
    // A damaged page fails a query part way, after rows were read: what was read is returned,
    // and the error says it is not all.
    if (query.lastError().isValid()) {
        m_error = query.lastError().text();
    }
}

KubeObject RecordingReader::objectFromRow(qint64 id, const QVariant &bytes) const
{
    if (id <= 0) {
        return {};
    }
    const auto found = m_objects.constFind(id);
    if (found != m_objects.cend()) {
        return *found;
    }
    const KubeObject object = bytes.isNull() ? KubeObject() : KubeObject::fromJson(bytes.toByteArray(), KubeObject::Transform::None).value_or(KubeObject());
    m_objects.insert(id, object);
    return object;
}

QList<RecordedInput> RecordingReader::inputs(qint64 informerId, qint64 fromSeq, qint64 toSeq) const
{
    QList<RecordedInput> inputs;
    if (!m_open) {
        return inputs;
    }
    const qint64 last = toSeq < 0 ? std::numeric_limits<qint64>::max() : toSeq;
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.setForwardOnly(true);
    // The objects come with their rows (a join), not one query each: a seek reads thousands.
    query.prepare(u"SELECT i.seq, i.mono_ns, i.wall_ms, i.kind, i.event_type, i.object_id, i.resource_version, i.continue_token, i.remaining,"
                  " i.send_initial_events, i.error_kind, i.error_code, i.error_reason, i.error_message, i.error_retry_after_s, i.error_causes, o.bytes"
                  " FROM inputs i LEFT JOIN objects o ON o.id = i.object_id WHERE i.informer_id = ? AND i.seq >= ? AND i.seq <= ? ORDER BY i.seq"_s);
    query.addBindValue(informerId);
    query.addBindValue(fromSeq);
    query.addBindValue(last);
    if (!query.exec()) {
        m_error = query.lastError().text();
        return inputs;
    }
    QHash<qint64, qsizetype> pages; // seq → index in inputs
    qint64 previousSeq = std::numeric_limits<qint64>::min();
    while (query.next()) {
        RecordedInput input;
        input.seq = query.value(0).toLongLong();
        // The rows come in seq order through the index on (informer_id, seq). A damaged index
        // (pages of the file edited) hands out rows twice or out of order, which a replay would
        // apply as such: said, and the answer ends there, as for any other damage.
        if (input.seq <= previousSeq || input.seq < fromSeq || input.seq > last) {
            m_error = u"the recording is damaged: its inputs are out of order at seq %1 (run `sqlite3 FILE 'PRAGMA integrity_check'`)"_s.arg(input.seq);
            break;
        }
        previousSeq = input.seq;
        input.informerId = informerId;
        input.monoNs = query.value(1).toLongLong();
        input.wallMs = query.value(2).toLongLong();
        const auto kind = RecordedInput::kindFromName(query.value(3).toString());
        if (!kind) {
            continue; // a kind of a later version: not something this replay can apply
        }
        input.kind = *kind;
        input.eventType = query.value(4).toString();
        input.objectId = query.value(5).toLongLong();
        input.object = objectFromRow(input.objectId, query.value(16));
        input.resourceVersion = query.value(6).toString();
        input.continueToken = query.value(7).toString();
        if (!query.value(8).isNull()) {
            input.remaining = query.value(8).toLongLong();
        }
        input.sendInitialEvents = query.value(9).toInt() != 0;
        if (!query.value(10).isNull()) {
            input.error =
                ApiError(errorKindFromName(query.value(10).toString()), query.value(13).toString(), query.value(11).toInt(), query.value(12).toString());
            if (!query.value(14).isNull()) {
                input.error.setRetryAfter(std::chrono::seconds(query.value(14).toLongLong()));
            }
            if (!query.value(15).isNull()) {
                input.error.setCauseTypes(query.value(15).toString().split(u','));
            }
        }
        if (input.kind == RecordedInput::Kind::ListPage) {
            pages.insert(input.seq, inputs.size());
        }
        inputs.append(input);
    }
    noteError(query);
    if (pages.isEmpty()) {
        return inputs;
    }
    query.prepare(u"SELECT p.seq, p.object_id, o.bytes FROM page_items p JOIN inputs i ON i.seq = p.seq JOIN objects o ON o.id = p.object_id"
                  " WHERE i.informer_id = ? AND p.seq >= ? AND p.seq <= ? ORDER BY p.seq, p.position"_s);
    query.addBindValue(informerId);
    query.addBindValue(fromSeq);
    query.addBindValue(last);
    if (!query.exec()) {
        m_error = query.lastError().text();
        return inputs;
    }
    while (query.next()) {
        const auto page = pages.constFind(query.value(0).toLongLong());
        if (page == pages.cend()) {
            continue;
        }
        RecordedInput &input = inputs[*page];
        const qint64 objectId = query.value(1).toLongLong();
        input.itemIds.append(objectId);
        input.items.append(objectFromRow(objectId, query.value(2)));
    }
    return inputs;
}

RecordedCache RecordingReader::stateAt(qint64 informerId, qint64 seq) const
{
    RecordedCache cache;
    if (!m_open) {
        return cache;
    }
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(u"SELECT id, seq, resource_version FROM checkpoints WHERE informer_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1"_s);
    query.addBindValue(informerId);
    query.addBindValue(seq);
    qint64 from = 0;
    if (query.exec() && query.next()) {
        const qint64 checkpointId = query.value(0).toLongLong();
        from = query.value(1).toLongLong() + 1;
        const QString resourceVersion = query.value(2).toString();
        QHash<QString, RecordedCache::Entry> entries;
        QSqlQuery entryQuery(QSqlDatabase::database(m_connection, false));
        entryQuery.setForwardOnly(true);
        entryQuery.prepare(u"SELECT e.key, e.object_id, o.resource_version, o.bytes FROM checkpoint_entries e JOIN objects o ON o.id = e.object_id"
                           " WHERE e.checkpoint_id = ?"_s);
        entryQuery.addBindValue(checkpointId);
        if (entryQuery.exec()) {
            while (entryQuery.next()) {
                const qint64 objectId = entryQuery.value(1).toLongLong();
                entries.insert(entryQuery.value(0).toString(),
                               RecordedCache::Entry{objectId, entryQuery.value(2).toString(), objectFromRow(objectId, entryQuery.value(3))});
            }
        }
        noteError(entryQuery);
        cache.reset(entries, resourceVersion);
    }
    const QList<RecordedInput> after = inputs(informerId, from, seq);
    for (const RecordedInput &input : after) {
        cache.apply(input);
    }
    return cache;
}

qint64 RecordingReader::seqAtOffset(qint64 offsetMs) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(u"SELECT coalesce(max(seq), 0) FROM inputs WHERE mono_ns <= ?"_s);
    query.addBindValue(offsetMs * 1000000);
    return query.exec() && query.next() ? query.value(0).toLongLong() : 0;
}

std::optional<RecordedInput> RecordingReader::nextChangeOf(const QString &uid, qint64 afterSeq) const
{
    return changeOf(uid, afterSeq, true);
}

std::optional<RecordedInput> RecordingReader::previousChangeOf(const QString &uid, qint64 beforeSeq) const
{
    return changeOf(uid, beforeSeq, false);
}

std::optional<RecordedInput> RecordingReader::changeOf(const QString &uid, qint64 seq, bool forward) const
{
    if (!m_open || uid.isEmpty()) {
        return std::nullopt;
    }
    // The object's versions through the (uid, resource_version) index, then their events through
    // inputs_by_object: two index lookups, whatever the recording's length.
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.setForwardOnly(true);
    query.prepare(forward ? u"SELECT seq, informer_id, mono_ns, wall_ms, event_type, resource_version FROM inputs WHERE kind = 'watch_event'"
                            " AND object_id IN (SELECT id FROM objects WHERE uid = ?) AND seq > ? ORDER BY seq LIMIT 1"_s
                          : u"SELECT seq, informer_id, mono_ns, wall_ms, event_type, resource_version FROM inputs WHERE kind = 'watch_event'"
                            " AND object_id IN (SELECT id FROM objects WHERE uid = ?) AND seq < ? ORDER BY seq DESC LIMIT 1"_s);
    query.addBindValue(uid);
    query.addBindValue(seq);
    if (!query.exec() || !query.next()) {
        noteError(query);
        return std::nullopt;
    }
    RecordedInput input;
    input.kind = RecordedInput::Kind::WatchEvent;
    input.seq = query.value(0).toLongLong();
    input.informerId = query.value(1).toLongLong();
    input.monoNs = query.value(2).toLongLong();
    input.wallMs = query.value(3).toLongLong();
    input.eventType = query.value(4).toString();
    input.resourceVersion = query.value(5).toString();
    return input;
}

qint64 RecordingReader::seqAtTime(const QDateTime &instant) const
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(u"SELECT coalesce(max(seq), 0) FROM inputs WHERE wall_ms <= ?"_s);
    query.addBindValue(instant.toMSecsSinceEpoch());
    return query.exec() && query.next() ? query.value(0).toLongLong() : 0;
}

std::optional<qint64> RecordingReader::seqAt(const QString &at, QString *errorMessage) const
{
    if (at.startsWith(u'+')) {
        const auto offset = parseDuration(at.mid(1));
        if (!offset) {
            if (errorMessage)
                *errorMessage = u"--at: \"%1\" is not an offset (e.g. +90s, +2m)"_s.arg(at);
            return std::nullopt;
        }
        return seqAtOffset(offset->count());
    }
    const QDateTime instant = dateTimeFromRfc3339(at);
    if (!instant.isValid()) {
        if (errorMessage)
            *errorMessage = u"--at: \"%1\" is neither RFC 3339 (2024-05-01T14:03:00Z) nor an offset (+90s)"_s.arg(at);
        return std::nullopt;
    }
    return seqAtTime(instant);
}

} // namespace Cachescope
