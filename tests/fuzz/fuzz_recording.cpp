// fuzz_recording: RecordingReader over a file it did not write. Two ways in:
//  - the input is the file: whatever it holds, open() never crashes, and a file that is not an
//    SQLite database, or one without a recording's schema, is an error with a message, never an
//    empty success;
//  - an input that is not an SQLite file is also read as edits to a real recording (the seed
//    recording.db of the corpus): a list of small SQL changes (set a column of a row or of every
//    row to a value, delete rows, drop a table, change the schema version), made to a copy that
//    the reader then opens. SQLite's own format is left to SQLite; the edits reach what our
//    queries read out of rows.
// Whatever opens is read whole: the summary, every informer's inputs and its cache at a few
// instants. Invariants, unless the reader reported a failed query (a damaged file): an
// informer's inputs come in increasing seq within the summary's span, and no informer has more
// inputs than the recording.
#include "core/record/recordingreader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

QTemporaryDir *workDir = nullptr;
QByteArray baseRecording;

struct Table
{
    QString name;
    QString key; // what selects one row (WITHOUT ROWID tables have no rowid)
    QStringList columns;
};

const QList<Table> &tables()
{
    static const QList<Table> all{
        {u"session"_s, u"rowid"_s, {u"cluster"_s, u"context"_s, u"server_version"_s, u"started"_s, u"ended"_s, u"include_secret_values"_s}},
        {u"informers"_s,
         u"id"_s,
         {u"id"_s,
          u"name"_s,
          u"resource"_s,
          u"grp"_s,
          u"version"_s,
          u"kind"_s,
          u"namespaced"_s,
          u"short_names"_s,
          u"namespace"_s,
          u"label_selector"_s,
          u"field_selector"_s,
          u"metadata_only"_s,
          u"fifo"_s,
          u"watch_list"_s}},
        {u"objects"_s, u"id"_s, {u"id"_s, u"uid"_s, u"resource_version"_s, u"bytes"_s}},
        {u"inputs"_s,
         u"seq"_s,
         {u"seq"_s,
          u"informer_id"_s,
          u"mono_ns"_s,
          u"wall_ms"_s,
          u"kind"_s,
          u"event_type"_s,
          u"object_id"_s,
          u"resource_version"_s,
          u"continue_token"_s,
          u"remaining"_s,
          u"item_count"_s,
          u"send_initial_events"_s,
          u"error_kind"_s,
          u"error_code"_s,
          u"error_reason"_s,
          u"error_message"_s,
          u"error_retry_after_s"_s,
          u"error_causes"_s}},
        {u"page_items"_s, u"(seq, position)"_s, {u"seq"_s, u"position"_s, u"object_id"_s}},
        {u"checkpoints"_s, u"id"_s, {u"id"_s, u"seq"_s, u"informer_id"_s, u"resource_version"_s}},
        {u"checkpoint_entries"_s, u"(checkpoint_id, key)"_s, {u"checkpoint_id"_s, u"key"_s, u"object_id"_s}},
    };
    return all;
}

// Words the reader gives a meaning to, so that edits hit them without guessing them byte by byte.
const QStringList &words()
{
    static const QStringList all{u"list"_s,
                                 u"list_page"_s,
                                 u"list_error"_s,
                                 u"watch_opened"_s,
                                 u"watch_event"_s,
                                 u"bookmark"_s,
                                 u"watch_error"_s,
                                 u"watch_ended"_s,
                                 u"ADDED"_s,
                                 u"MODIFIED"_s,
                                 u"DELETED"_s,
                                 u"MALFORMED"_s,
                                 u"STOPPED"_s,
                                 u"Http"_s,
                                 u"Decode"_s,
                                 u"DeltaFifo"_s,
                                 u"{}"_s,
                                 u"[]"_s,
                                 u"{\"metadata\":{\"name\":\"a\",\"namespace\":\"b\",\"resourceVersion\":\"1\"}}"_s};
    return all;
}

// Reads the input byte by byte; past the end it reads zeros.
struct Cursor
{
    const uint8_t *data;
    size_t size;
    size_t at = 0;
    bool atEnd() const { return at >= size; }
    uint8_t byte() { return at < size ? data[at++] : 0; }
    QByteArray bytes(size_t count)
    {
        const size_t n = std::min(count, size - std::min(at, size));
        const QByteArray out(reinterpret_cast<const char *>(data + at), qsizetype(n));
        at += n;
        return out;
    }
};

QVariant valueFrom(Cursor &cursor)
{
    switch (cursor.byte() % 6) {
    case 0:
        return QVariant(QMetaType::fromType<QString>());
    case 1: {
        qint64 value = 0;
        const QByteArray raw = cursor.bytes(sizeof value);
        std::memcpy(&value, raw.constData(), size_t(raw.size()));
        return value;
    }
    case 2:
        return qint64(static_cast<int8_t>(cursor.byte()));
    case 3:
        return QString::fromUtf8(cursor.bytes(cursor.byte() % 64));
    case 4:
        return cursor.bytes(cursor.byte() % 64);
    default:
        return words().at(cursor.byte() % words().size());
    }
}

// Applies the edits the input describes to the database at path; at most 16, each one statement.
void applyEdits(const QString &path, Cursor cursor)
{
    const QString connection = u"fuzz-edit"_s;
    {
        QSqlDatabase database = QSqlDatabase::addDatabase(u"QSQLITE"_s, connection);
        database.setDatabaseName(path);
        if (database.open()) {
            QSqlQuery query(database);
            // A scratch copy: nothing needs to survive a crash, and syncing made each run slow.
            query.exec(u"PRAGMA synchronous = OFF"_s);
            query.exec(u"PRAGMA journal_mode = MEMORY"_s);
            for (int edit = 0; edit < 16 && !cursor.atEnd(); ++edit) {
                const uint8_t op = cursor.byte();
                const Table &table = tables().at(cursor.byte() % tables().size());
                // A row by its position, or (255) every row.
                const uint8_t row = cursor.byte();
                const QString where = row == 255 ? QString() : u" WHERE %1 IN (SELECT %1 FROM %2 LIMIT 1 OFFSET %3)"_s.arg(table.key, table.name).arg(row);
                switch (op % 8) {
                case 0:
                case 1:
                case 2:
                case 3: {
                    const QString &column = table.columns.at(cursor.byte() % table.columns.size());
                    query.prepare(u"UPDATE %1 SET %2 = ?"_s.arg(table.name, column) + where);
                    query.addBindValue(valueFrom(cursor));
                    query.exec();
                    break;
                }
                case 4:
                case 5:
                    query.exec(u"DELETE FROM %1"_s.arg(table.name) + where);
                    break;
                case 6:
                    query.exec(u"DROP TABLE %1"_s.arg(table.name));
                    break;
                case 7:
                    query.exec(u"PRAGMA user_version = %1"_s.arg(int(cursor.byte()) % 4));
                    break;
                }
            }
        }
        database.close();
    }
    QSqlDatabase::removeDatabase(connection);
}

// Writes a database file afresh: the journal or WAL of the last input must not be read with it.
bool writeFile(const QString &path, const QByteArray &bytes)
{
    for (const QString &suffix : {u"-wal"_s, u"-shm"_s, u"-journal"_s})
        QFile::remove(path + suffix);
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// Reads everything a replay reads; returns whether the file opened.
bool readAll(const QString &path)
{
    RecordingReader reader;
    QString error;
    if (!reader.open(path, &error)) {
        if (error.isEmpty() || reader.isOpen())
            std::abort();
        return false;
    }
    const RecordingReader::Summary summary = reader.summary();
    for (const RecordedInformer &informer : reader.informers()) {
        const QList<RecordedInput> inputs = reader.inputs(informer.id);
        // A damaged file answers in part; only a complete answer must agree with the summary.
        if (!reader.errorString().isEmpty())
            continue;
        if (inputs.size() > summary.inputs)
            std::abort();
        qint64 previous = std::numeric_limits<qint64>::min();
        for (const RecordedInput &input : inputs) {
            if (input.seq <= previous || input.seq < summary.firstSeq || input.seq > summary.lastSeq)
                std::abort();
            previous = input.seq;
        }
        (void)reader.stateAt(informer.id, summary.lastSeq);
        // An edited file's seqs may span more than a qint64 can hold: the midpoint without overflow.
        (void)reader.stateAt(informer.id, std::midpoint(summary.firstSeq, summary.lastSeq));
    }
    (void)reader.seqAtOffset(summary.lastMonoNs / 1000000);
    (void)reader.seqAtTime(QDateTime::fromMSecsSinceEpoch(summary.lastWallMs, Qt::UTC));
    QString why;
    (void)reader.seqAt(u"+1s"_s, &why);
    return true;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static QCoreApplication app(*argc, *argv);
    // In memory where there is a tmpfs: every run writes a database file or two.
    const QString shm = u"/dev/shm"_s;
    workDir = QFileInfo(shm).isWritable() ? new QTemporaryDir(shm + u"/fuzz_recording-XXXXXX"_s) : new QTemporaryDir;
    QFile base(QStringLiteral(CACHESCOPE_FUZZ_BASE_RECORDING));
    if (!workDir->isValid() || !base.open(QIODevice::ReadOnly))
        std::abort();
    baseRecording = base.readAll();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString path = workDir->filePath(u"input.db"_s);
    if (!writeFile(path, input))
        std::abort();
    // SQLite opens nothing that lacks its header; an empty file is an empty database, which is
    // not a recording either.
    const bool opened = readAll(path);
    const bool sqlite = input.startsWith(QByteArrayView("SQLite format 3\0", 16));
    if (opened && !sqlite)
        std::abort();
    if (sqlite)
        return 0;

    const QString edited = workDir->filePath(u"edited.db"_s);
    if (!writeFile(edited, baseRecording))
        std::abort();
    applyEdits(edited, Cursor{data, size});
    (void)readAll(edited);
    return 0;
}
