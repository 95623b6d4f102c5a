#pragma once

#include "core/record/recordedcache.h"
#include "core/record/recordingqueue.h"

#include <QHash>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <memory>

namespace Cachescope {

// RecordingWriter writes a recording (RecordingSchema) from a RecordingQueue that recording
// ListerWatchers fill. open() creates the file (it must not exist yet) in WAL mode with
// synchronous=NORMAL; from then on a timer takes what the queue holds and writes it in one
// transaction every commitInterval (250 ms: a recorder killed with SIGKILL loses at most that
// much, well under the second the issue allows), and close() writes the rest and the session's
// end. Objects are written once per (uid, resourceVersion); Secrets' values are redacted
// (redactedSecret()) unless includeSecretValues. Every checkpointEvery inputs of an informer,
// at the first input after which it is not in the middle of a list, its cache (RecordedCache)
// is written as a checkpoint, so a reader rebuilds any instant from the nearest one.
//
// Failure: a write that fails (a read-only path, a full disk) rolls its transaction back,
// emits errorOccurred() once with SQLite's message and the file, closes the queue and stops:
// the live informers go on, nothing more is recorded. What was committed before stays.
//
// Thread: lives on the thread that made it and writes there (a QSqlDatabase connection is used
// on its own thread only); the queue is what other threads touch. Cost: memory for the
// (uid, resourceVersion) → row map of every object written, and one RecordedCache per informer.
class RecordingWriter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingWriter)

public:
    struct Options
    {
        bool includeSecretValues = false;
        qint64 checkpointEvery = 5000; // inputs of one informer
        std::chrono::milliseconds commitInterval{250};
        // A limit on the file's size (SQLite's max_page_count; 0 = none): past it a write fails
        // as on a full disk.
        qint64 maxFileBytes = 0;
    };

    struct SessionInfo
    {
        QString cluster; // the server's URL
        QString context;
        QString serverVersion;
    };

    explicit RecordingWriter(const Options &options, QObject *parent = nullptr);
    ~RecordingWriter() override;

    // open() creates `path` and starts committing; false with *errorMessage when it cannot.
    [[nodiscard]] bool open(const QString &path, const SessionInfo &session, QString *errorMessage);
    // setSessionInfo() updates the session row (the server version is known after discovery).
    void setSessionInfo(const SessionInfo &session);
    // close() writes what is queued and the session's end, and closes the file.
    void close();

    const std::shared_ptr<RecordingQueue> &queue() const { return m_queue; }
    bool isRecording() const { return m_open && !m_failed; }
    QString path() const { return m_path; }
    // committed() is the seq of the last input committed to the file.
    // Any thread may read it.
    qint64 committed() const { return m_committed.load(); }
    qint64 objectsWritten() const { return m_objectsWritten; }
    qint64 checkpointsWritten() const { return m_checkpointsWritten; }
    QString errorString() const { return m_error; }

Q_SIGNALS:
    void errorOccurred(const QString &message);
    void inputsCommitted(qint64 lastSeq);

private:
    struct InformerState
    {
        RecordedCache cache;
        qint64 sinceCheckpoint = 0;
    };

    void commit();
    bool openDatabase(const SessionInfo &session, QString *why);
    bool writeBatch(const QList<RecordedInformer> &informers, QList<RecordedInput> &inputs, QString *why);
    bool writeInformer(const RecordedInformer &informer);
    bool writeInput(RecordedInput &input);
    bool writeCheckpoint(qint64 seq, qint64 informerId, const RecordedCache &cache);
    qint64 objectId(const KubeObject &object, bool *ok);
    bool exec(const QString &statement);
    void fail(const QString &message);
    void closeDatabase();

    struct Statements;

    Options m_options;
    std::shared_ptr<RecordingQueue> m_queue;
    QString m_path;
    QString m_connection;
    bool m_open = false;
    bool m_failed = false;
    QString m_error;
    QTimer m_commitTimer{this};
    std::unique_ptr<Statements> m_statements; // prepared once per file
    QHash<QString, qint64> m_objectIds; // "uid\nresourceVersion" (or the bytes' hash) → objects.id
    QList<RecordedInput> m_batch; // what commit() took; empty between commits, its capacity kept
    QHash<qint64, InformerState> m_informers;
    std::atomic<qint64> m_committed{0};
    qint64 m_objectsWritten = 0;
    qint64 m_checkpointsWritten = 0;
};

} // namespace Cachescope
