#pragma once

#include "core/record/recordedcache.h"
#include "core/record/recordedinformer.h"
#include "core/record/recordedinput.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

class QSqlQuery;
class QVariant;

namespace Cachescope {

// RecordingReader opens a recording (RecordingSchema) read-only: a finished one, one still
// being written, or one whose recorder died (it then holds everything up to the last commit;
// the session has no end). It answers what `recording info` prints and what a replay needs:
// the informers, the inputs of one informer in order with their objects, and stateAt(), the
// informer's cache after a given input, rebuilt from the nearest checkpoint at or before it
// plus the inputs after that checkpoint.
//
// Thread: use it on the thread that opened it (a QSqlDatabase connection is per thread).
// Cost: inputs() and stateAt() decode the objects they return (KubeObject::fromJson, without a
// transform: the bytes were stored transformed).
class RecordingReader
{
    Q_DISABLE_COPY_MOVE(RecordingReader)

public:
    struct Session
    {
        QString cluster;
        QString context;
        QString serverVersion;
        QDateTime started;
        QDateTime ended; // invalid: the recorder did not close the file (still running, or killed)
        bool includeSecretValues = false;
    };

    struct Summary
    {
        qint64 inputs = 0;
        qint64 objects = 0;
        qint64 checkpoints = 0;
        QHash<RecordedInput::Kind, qint64> inputsByKind;
        qint64 firstSeq = 0;
        qint64 lastSeq = 0;
        qint64 firstWallMs = 0;
        qint64 lastWallMs = 0;
        qint64 lastMonoNs = 0;
        qint64 objectBytes = 0; // the stored objects' bytes
    };

    RecordingReader();
    ~RecordingReader();

    [[nodiscard]] bool open(const QString &path, QString *errorMessage);
    bool isOpen() const { return m_open; }
    QString path() const { return m_path; }

    const Session &session() const { return m_session; }
    const QList<RecordedInformer> &informers() const { return m_informers; }
    std::optional<RecordedInformer> informer(qint64 id) const;
    [[nodiscard]] Summary summary() const;

    // inputs() are the informer's inputs with fromSeq <= seq <= toSeq, in order, with their
    // objects and page items (0 and -1 for either end).
    [[nodiscard]] QList<RecordedInput> inputs(qint64 informerId, qint64 fromSeq = 0, qint64 toSeq = -1) const;
    // stateAt() is the informer's cache after input `seq` (of any informer) was applied.
    [[nodiscard]] RecordedCache stateAt(qint64 informerId, qint64 seq) const;
    // seqAtOffset() / seqAtTime() are the last input (of any informer) at or before an offset
    // from the start (monotonic) or a wall-clock instant; 0 when none is.
    [[nodiscard]] qint64 seqAtOffset(qint64 offsetMs) const;
    [[nodiscard]] qint64 seqAtTime(const QDateTime &instant) const;
    // seqAt() reads an instant as `--at` gives it, RFC 3339 (seqAtTime) or an offset from the
    // start such as +90s (seqAtOffset): one reading for `replay` and `cachescope-sim --replay`.
    // Nothing and *errorMessage when the text is neither.
    [[nodiscard]] std::optional<qint64> seqAt(const QString &at, QString *errorMessage) const;

    // nextChangeOf() is the first watch event (ADDED, MODIFIED, DELETED) of the object `uid`
    // after input `afterSeq`; previousChangeOf() the last one before input `beforeSeq`; nothing
    // when there is none. Of every informer that saw the object. The input comes without its
    // object (seq, informer, times, event type, resourceVersion). A list page that holds the
    // object is not a change of it: a relist lists every object again. Fast on files with the
    // inputs_by_object index (RecordingSchema); older files are scanned from the position on.
    [[nodiscard]] std::optional<RecordedInput> nextChangeOf(const QString &uid, qint64 afterSeq) const;
    [[nodiscard]] std::optional<RecordedInput> previousChangeOf(const QString &uid, qint64 beforeSeq) const;

    // errorString() is the last failure of a query: summary(), inputs() and stateAt() return
    // what they could read of a damaged file, and set it.
    QString errorString() const { return m_error; }

private:
    // objectFromRow() is the object of row `id` whose bytes a query brought along, decoded once.
    KubeObject objectFromRow(qint64 id, const QVariant &bytes) const;
    std::optional<RecordedInput> changeOf(const QString &uid, qint64 seq, bool forward) const;
    // noteError() keeps a query's failure, if it had one, as errorString().
    void noteError(const QSqlQuery &query) const;
    void close();
    // load() reads the session and the informers of an opened file; false and *why when it is
    // not a recording of this version.
    bool load(const QString &path, QString *why);

    QString m_path;
    QString m_connection;
    bool m_open = false;
    Session m_session;
    QList<RecordedInformer> m_informers;
    mutable QString m_error;
    mutable QHash<qint64, KubeObject> m_objects; // decoded objects by row id
};

} // namespace Cachescope
