#include "core/record/recordingwriter.h"

#include "core/cache/keys.h"
#include "core/record/recordingschema.h"
#include "core/record/secretredaction.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QVariant>

#include <atomic>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString uniqueConnectionName()
{
    static std::atomic<int> next{0};
    return u"cachescope-recording-writer-%1"_s.arg(next.fetch_add(1));
}

QVariant nullable(const QString &text)
{
    return text.isNull() ? QVariant() : QVariant(text);
}

// A null QString binds as SQL NULL: the NOT NULL text columns get "" instead.
QString notNull(const QString &text)
{
    return text.isNull() ? u""_s : text;
}

QString errorKindName(ApiError::Kind kind)
{
    switch (kind) {
    case ApiError::Kind::None:
        return {};
    case ApiError::Kind::Config:
        return u"Config"_s;
    case ApiError::Kind::Credentials:
        return u"Credentials"_s;
    case ApiError::Kind::Network:
        return u"Network"_s;
    case ApiError::Kind::Tls:
        return u"Tls"_s;
    case ApiError::Kind::Timeout:
        return u"Timeout"_s;
    case ApiError::Kind::Http:
        return u"Http"_s;
    case ApiError::Kind::Decode:
        return u"Decode"_s;
    case ApiError::Kind::Canceled:
        return u"Canceled"_s;
    }
    return {};
}

} // namespace

struct RecordingWriter::Statements
{
    explicit Statements(const QSqlDatabase &database)
        : object(database)
        , input(database)
        , change(database)
        , pageItem(database)
        , checkpoint(database)
        , checkpointEntry(database)
    {
    }

    QSqlQuery object;
    QSqlQuery input;
    // Most inputs are watch events, which fill 8 of the 18 columns. Qt formats a placeholder
    // name and looks it up for every value bound (QSqlResult::bindValue), half of what the
    // writer spent per input with all 18 bound.
    QSqlQuery change;
    QSqlQuery pageItem;
    QSqlQuery checkpoint;
    QSqlQuery checkpointEntry;
};

RecordingWriter::RecordingWriter(const Options &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_queue(std::make_shared<RecordingQueue>())
    , m_connection(uniqueConnectionName())
{
    connect(&m_commitTimer, &QTimer::timeout, this, &RecordingWriter::commit);
}

RecordingWriter::~RecordingWriter()
{
    close();
}

bool RecordingWriter::exec(const QString &statement)
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    if (!query.exec(statement)) {
        m_error = query.lastError().text();
        return false;
    }
    return true;
}

bool RecordingWriter::open(const QString &path, const SessionInfo &session, QString *errorMessage)
{
    Q_ASSERT(thread() == QThread::currentThread());
    Q_ASSERT(!m_open);
    m_path = path;
    QString why;
    if (QFileInfo::exists(path)) {
        why = u"the file exists (a recording is never overwritten)"_s;
    } else if (openDatabase(session, &why)) {
        m_open = true;
        m_commitTimer.start(m_options.commitInterval);
        return true;
    }
    *errorMessage = u"cannot record to %1: %2"_s.arg(path, why);
    m_queue->close();
    closeDatabase();
    return false;
}

bool RecordingWriter::openDatabase(const SessionInfo &session, QString *why)
{
    QSqlDatabase database = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connection);
    if (!database.isValid()) {
        *why = u"Qt's SQLite driver is missing (install libqt6sql6-sqlite)"_s;
        return false;
    }
    database.setDatabaseName(m_path);
    if (!database.open()) {
        *why = database.lastError().text();
        return false;
    }
    // 16 KiB pages: an object is stored as one row of its bytes (2 to 4 KiB for a pod without
    // managedFields), and with SQLite's 4 KiB default two such rows never share a page, so half
    // of the file was padding. Set before WAL, which fixes the page size.
    if (!exec(u"PRAGMA page_size = 16384"_s)) {
        *why = m_error;
        return false;
    }
    // WAL: a commit is one append to the log, and a reader (or a recorder that died) never sees
    // half a transaction. synchronous=NORMAL syncs at checkpoints only: a power cut may lose the
    // last commits, a killed process loses nothing committed.
    if (!exec(u"PRAGMA journal_mode = WAL"_s) || !exec(u"PRAGMA synchronous = NORMAL"_s)) {
        *why = m_error;
        return false;
    }
    // 32 MiB of page cache instead of SQLite's 2 MiB: each object's row lands on a random leaf of
    // the UNIQUE (uid, resource_version) index, about 60 bytes per version written, so with the
    // default cache those leaves were evicted by the object pages of a busy commit, written to the
    // WAL half-done, read back and written again: 41k reads and 71k writes of 16 KiB pages for
    // 100k events (bench_recording), where 16k pages hold the file. Memory: up to 32 MiB more
    // while recording; a recording of more than ~500k versions misses again, gradually.
    if (!exec(u"PRAGMA cache_size = -32768"_s)) {
        *why = m_error;
        return false;
    }
    if (m_options.maxFileBytes > 0) {
        QSqlQuery pageSize(database);
        if (!pageSize.exec(u"PRAGMA page_size"_s) || !pageSize.next()) {
            *why = pageSize.lastError().text();
            return false;
        }
        const qint64 pages = std::max<qint64>(1, m_options.maxFileBytes / std::max<qint64>(512, pageSize.value(0).toLongLong()));
        if (!exec(u"PRAGMA max_page_count = %1"_s.arg(pages))) {
            *why = m_error;
            return false;
        }
    }
    if (!RecordingSchema::create(database, why)) {
        return false;
    }
    QSqlQuery query(database);
    query.prepare(u"INSERT INTO session (cluster, context, server_version, started, include_secret_values) VALUES (?, ?, ?, ?, ?)"_s);
    query.addBindValue(session.cluster);
    query.addBindValue(session.context);
    query.addBindValue(session.serverVersion);
    query.addBindValue(m_queue->startedWallMs());
    query.addBindValue(m_options.includeSecretValues ? 1 : 0);
    if (!query.exec()) {
        *why = query.lastError().text();
        return false;
    }
    m_statements = std::make_unique<Statements>(database);
    m_statements->object.prepare(u"INSERT INTO objects (uid, resource_version, bytes) VALUES (?, ?, ?)"_s);
    m_statements->input.prepare(
        u"INSERT INTO inputs (seq, informer_id, mono_ns, wall_ms, kind, event_type, object_id, resource_version, continue_token, remaining,"
        " item_count, send_initial_events, error_kind, error_code, error_reason, error_message, error_retry_after_s, error_causes)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    m_statements->change.prepare(
        u"INSERT INTO inputs (seq, informer_id, mono_ns, wall_ms, kind, event_type, object_id, resource_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"_s);
    m_statements->pageItem.prepare(u"INSERT INTO page_items (seq, position, object_id) VALUES (?, ?, ?)"_s);
    m_statements->checkpoint.prepare(u"INSERT INTO checkpoints (seq, informer_id, resource_version) VALUES (?, ?, ?)"_s);
    m_statements->checkpointEntry.prepare(u"INSERT INTO checkpoint_entries (checkpoint_id, key, object_id) VALUES (?, ?, ?)"_s);
    return true;
}

void RecordingWriter::setSessionInfo(const SessionInfo &session)
{
    if (!isRecording()) {
        return;
    }
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(u"UPDATE session SET cluster = ?, context = ?, server_version = ?"_s);
    query.addBindValue(session.cluster);
    query.addBindValue(session.context);
    query.addBindValue(session.serverVersion);
    if (!query.exec()) {
        fail(query.lastError().text());
    }
}

qint64 RecordingWriter::objectId(const KubeObject &object, bool *ok)
{
    *ok = true;
    if (!object.isValid()) {
        return 0;
    }
    const QString uid = object.uid();
    const QByteArray bytes = object.json();
    // A bookmark has no uid: it is told apart by its bytes (the initial-events-end annotation).
    const QString dedupKey =
        uid.isEmpty() ? QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex()) : uid + u'\n' + object.resourceVersion();
    const auto found = m_objectIds.constFind(dedupKey);
    if (found != m_objectIds.cend()) {
        return *found;
    }
    const KubeObject stored = m_options.includeSecretValues ? object : redactedSecret(object);
    QSqlQuery &query = m_statements->object;
    query.addBindValue(uid.isEmpty() ? QVariant() : QVariant(uid));
    query.addBindValue(notNull(object.resourceVersion()));
    query.addBindValue(stored.json());
    if (!query.exec()) {
        m_error = query.lastError().text();
        *ok = false;
        return 0;
    }
    const qint64 id = query.lastInsertId().toLongLong();
    m_objectIds.insert(dedupKey, id);
    ++m_objectsWritten;
    return id;
}

bool RecordingWriter::writeInformer(const RecordedInformer &informer)
{
    QSqlQuery query(QSqlDatabase::database(m_connection, false));
    query.prepare(u"INSERT INTO informers (id, name, resource, grp, version, kind, namespaced, short_names, namespace, label_selector, field_selector,"
                  " metadata_only, fifo, watch_list) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    query.addBindValue(informer.id);
    query.addBindValue(notNull(informer.name));
    query.addBindValue(notNull(informer.resource.gvr.resource()));
    query.addBindValue(notNull(informer.resource.gvr.group()));
    query.addBindValue(notNull(informer.resource.gvr.version()));
    query.addBindValue(notNull(informer.resource.kind));
    query.addBindValue(informer.resource.namespaced ? 1 : 0);
    query.addBindValue(notNull(informer.resource.shortNames.join(u',')));
    query.addBindValue(notNull(informer.namespaceName));
    query.addBindValue(notNull(informer.labelSelector));
    query.addBindValue(notNull(informer.fieldSelector));
    query.addBindValue(informer.metadataOnly ? 1 : 0);
    query.addBindValue(informer.queueKind == DeltaQueue::Kind::DeltaFifo ? u"DeltaFifo"_s : u"RealFifo"_s);
    query.addBindValue(informer.watchList ? 1 : 0);
    if (!query.exec()) {
        m_error = query.lastError().text();
        return false;
    }
    InformerState state;
    // The writer's cache needs keys and row ids only: not keeping the objects keeps its memory
    // to a few strings per cached object.
    state.cache.setKeepObjects(false);
    m_informers.insert(informer.id, state);
    return true;
}

bool RecordingWriter::writeInput(RecordedInput &input)
{
    bool ok = true;
    input.objectId = objectId(input.object, &ok);
    if (!ok) {
        return false;
    }
    input.itemIds.clear();
    input.itemIds.reserve(input.items.size());
    for (const KubeObject &item : std::as_const(input.items)) {
        input.itemIds.append(objectId(item, &ok));
        if (!ok) {
            return false;
        }
    }
    const ApiError &error = input.error;
    const bool hasError = error.isError();
    // Only the columns a watch event fills: the change statement leaves the others NULL.
    const bool change = !hasError && input.continueToken.isEmpty() && !input.remaining && input.kind != RecordedInput::Kind::ListPage &&
        input.kind != RecordedInput::Kind::WatchOpened;
    QSqlQuery &query = change ? m_statements->change : m_statements->input;
    query.addBindValue(input.seq);
    query.addBindValue(input.informerId);
    query.addBindValue(input.monoNs);
    query.addBindValue(input.wallMs);
    query.addBindValue(RecordedInput::kindName(input.kind));
    query.addBindValue(nullable(input.eventType));
    query.addBindValue(input.objectId > 0 ? QVariant(input.objectId) : QVariant());
    query.addBindValue(nullable(input.resourceVersion));
    if (!change) {
        query.addBindValue(nullable(input.continueToken));
        query.addBindValue(input.remaining ? QVariant(*input.remaining) : QVariant());
        query.addBindValue(input.kind == RecordedInput::Kind::ListPage ? QVariant(input.items.size()) : QVariant());
        query.addBindValue(input.kind == RecordedInput::Kind::WatchOpened ? QVariant(input.sendInitialEvents ? 1 : 0) : QVariant());
        query.addBindValue(hasError ? QVariant(errorKindName(error.kind())) : QVariant());
        query.addBindValue(hasError ? QVariant(error.code()) : QVariant());
        query.addBindValue(hasError ? nullable(error.reason()) : QVariant());
        query.addBindValue(hasError ? QVariant(error.message()) : QVariant());
        query.addBindValue(hasError && error.retryAfter() ? QVariant(qint64(error.retryAfter()->count())) : QVariant());
        query.addBindValue(hasError && !error.causeTypes().isEmpty() ? QVariant(error.causeTypes().join(u',')) : QVariant());
    }
    if (!query.exec()) {
        m_error = query.lastError().text();
        return false;
    }
    QSqlQuery &item = m_statements->pageItem;
    for (qsizetype i = 0; i < input.itemIds.size(); ++i) {
        item.addBindValue(input.seq);
        item.addBindValue(i);
        item.addBindValue(input.itemIds.at(i));
        if (!item.exec()) {
            m_error = item.lastError().text();
            return false;
        }
    }
    auto state = m_informers.find(input.informerId);
    if (state == m_informers.end()) {
        return true;
    }
    state->cache.apply(input);
    ++state->sinceCheckpoint;
    if (state->sinceCheckpoint >= m_options.checkpointEvery && !state->cache.isListing()) {
        if (!writeCheckpoint(input.seq, input.informerId, state->cache)) {
            return false;
        }
        state->sinceCheckpoint = 0;
    }
    return true;
}

bool RecordingWriter::writeCheckpoint(qint64 seq, qint64 informerId, const RecordedCache &cache)
{
    QSqlQuery &query = m_statements->checkpoint;
    query.addBindValue(seq);
    query.addBindValue(informerId);
    query.addBindValue(cache.resourceVersion());
    if (!query.exec()) {
        m_error = query.lastError().text();
        return false;
    }
    const qint64 checkpointId = query.lastInsertId().toLongLong();
    QSqlQuery &entry = m_statements->checkpointEntry;
    for (auto it = cache.entries().cbegin(); it != cache.entries().cend(); ++it) {
        entry.addBindValue(checkpointId);
        entry.addBindValue(it.key());
        entry.addBindValue(it->objectId);
        if (!entry.exec()) {
            m_error = entry.lastError().text();
            return false;
        }
    }
    ++m_checkpointsWritten;
    return true;
}

void RecordingWriter::commit()
{
    if (!isRecording()) {
        return;
    }
    QList<RecordedInformer> informers;
    // m_batch goes back to the queue at the next take(), emptied, with its capacity.
    m_queue->take(&informers, &m_batch);
    if (informers.isEmpty() && m_batch.isEmpty()) {
        return;
    }
    QString why;
    if (!writeBatch(informers, m_batch, &why)) {
        m_batch.clear();
        fail(why);
        return;
    }
    const qint64 last = m_batch.isEmpty() ? 0 : m_batch.constLast().seq;
    // Now, not at the next take(): the inputs hold their objects.
    m_batch.clear();
    if (last > 0) {
        m_committed = last;
        Q_EMIT inputsCommitted(m_committed);
    }
}

bool RecordingWriter::writeBatch(const QList<RecordedInformer> &informers, QList<RecordedInput> &inputs, QString *why)
{
    QSqlDatabase database = QSqlDatabase::database(m_connection, false);
    if (!database.transaction()) {
        *why = database.lastError().text();
        return false;
    }
    bool ok = true;
    for (const RecordedInformer &informer : informers) {
        ok = ok && writeInformer(informer);
    }
    for (RecordedInput &input : inputs) {
        if (!ok) {
            break;
        }
        ok = writeInput(input);
    }
    if (!ok || !database.commit()) {
        *why = ok ? database.lastError().text() : m_error;
        database.rollback();
        return false;
    }
    return true;
}

void RecordingWriter::fail(const QString &message)
{
    if (m_failed) {
        return;
    }
    m_failed = true;
    m_error = u"recording to %1 stopped: %2"_s.arg(m_path, message);
    m_commitTimer.stop();
    m_queue->close();
    closeDatabase();
    Q_EMIT errorOccurred(m_error);
}

void RecordingWriter::close()
{
    if (!m_open) {
        closeDatabase();
        return;
    }
    m_commitTimer.stop();
    if (isRecording()) {
        commit();
        m_queue->close();
        // What arrived between the last take() and close() of the queue.
        commit();
    }
    if (isRecording()) {
        QSqlQuery query(QSqlDatabase::database(m_connection, false));
        query.prepare(u"UPDATE session SET ended = ?"_s);
        query.addBindValue(QDateTime::currentMSecsSinceEpoch());
        if (!query.exec()) {
            fail(query.lastError().text());
        }
    }
    m_open = false;
    closeDatabase();
}

void RecordingWriter::closeDatabase()
{
    m_statements.reset();
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase database = QSqlDatabase::database(m_connection, false);
            database.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

} // namespace Cachescope
