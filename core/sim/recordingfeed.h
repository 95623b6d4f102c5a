#pragma once

#include "core/record/recordedinput.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>

class QTimer;

namespace Cachescope {
class RecordingReader;
}

namespace Cachescope::Sim {

class ObjectStore;
class ResourceCatalog;
struct ResourceType;

// RecordingFeed serves a recording (core/record) as a cluster: load() fills the ObjectStore
// with the recorded state at an instant, start() then writes the recorded changes after it
// into the store at the recorded pace (× speed), so that the simulator's own list, get and
// watch handlers serve them with the recorded objects and resourceVersions. The instant is the
// `--at` text (RecordingReader::seqAt); empty is the recording's start: the input at which
// every recorded informer had its first list. Each recorded informer's state comes from
// RecordingReader::stateAt(); the inputs after the instant are applied to a RecordedCache per
// informer, and what changed (a watch event; a relist's difference, deletions stamped with
// the list's version) is restored into the store. Two informers of one resource record the
// same event twice: ObjectStore::restore() skips the older write.
//
// Resources the simulator's catalog does not serve are left out (skippedResources()); their
// objects could be listed by no route. The feed never writes anything else: no churn, no
// workload, and the ApiServer refuses clients' writes in replay mode.
//
// Thread: the server thread (the store's); the reader is opened on it, as a QSqlDatabase
// connection is per thread. Cost: load() reads every input of the recording into memory.
class RecordingFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingFeed)
public:
    struct Options
    {
        QString path;
        QString at; // RFC 3339 or +OFFSET; empty: the recording's start
        double speed = 1; // × the recorded pace; 0 or less: every change at once
    };

    RecordingFeed(ObjectStore *store, const ResourceCatalog *catalog, const Options &options, QObject *parent = nullptr);
    ~RecordingFeed() override;

    // Opens the recording and fills the store; false and *error when the file does not open as
    // a recording or the instant does not parse.
    [[nodiscard]] bool load(QString *error);
    void start();

    // The recording's input the store was filled at.
    [[nodiscard]] qint64 startSeq() const { return m_startSeq; }
    // The last input written into the store so far.
    [[nodiscard]] qint64 currentSeq() const { return m_currentSeq; }
    [[nodiscard]] bool isFinished() const { return m_next >= m_pending.size(); }
    [[nodiscard]] QStringList skippedResources() const { return m_skipped; }

Q_SIGNALS:
    // Every recorded input has been played.
    void finished();

private:
    struct Informer;
    void playDue();
    void play(const RecordedInput &input);

    ObjectStore *m_store; // not owned
    const ResourceCatalog *m_catalog; // not owned
    Options m_options;
    std::unique_ptr<RecordingReader> m_reader;
    QHash<qint64, std::shared_ptr<Informer>> m_informers; // by recorded informer id
    QList<RecordedInput> m_pending; // every input after the instant, in recorded order
    qsizetype m_next = 0;
    qint64 m_startSeq = 0;
    qint64 m_currentSeq = 0;
    qint64 m_startMonoNs = 0; // of the input at the instant
    QElapsedTimer m_clock;
    QTimer *m_timer = nullptr; // owned (child)
    QStringList m_skipped;
};

} // namespace Cachescope::Sim
