#pragma once

#include "core/cache/sharedindexinformer.h"
#include "core/workqueue/queuemetrics.h"

#include <QAbstractListModel>
#include <QElapsedTimer>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

namespace Cachescope {

class Queue;

// PipelineModel samples the counters of every stage of one informer's pipeline (client-go's
// diagram: ListerWatcher → Reflector → DeltaFIFO/RealFIFO → Informer → Indexer, and the
// handlers, then a controller's WorkQueue when one is attached) about 5 times a second, and
// derives rates (per second) from consecutive samples. One row per stage, in pipeline order;
// the WorkQueue row exists only while a queue is attached. Each sample changes data, never the
// rows, except attaching or detaching a queue (one insert or remove); setInformer() resets.
//
// The view reads the typed accessors (stageTitle(), stateText(), details(), health(),
// inputRate()); data() answers the same through the roles below, for lists and tests.
// Thread: GUI thread; informer counters and queue metrics are thread-safe snapshots.
// Ownership: the informer is not owned (it may be deleted: the model then shows it stopped);
// the work queue is observed through a weak pointer and dropped when it dies.
// Cost per sample: SharedIndexInformer::counters() and Queue::metrics(), both O(handlers).
class PipelineModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PipelineModel)

public:
    enum class Stage { ListerWatcher, Reflector, Queue, Informer, Indexer, Handlers, WorkQueue };
    Q_ENUM(Stage)
    // Health colours a stage: Idle (stopped, nothing to show), Ok, Busy (listing, a deep
    // queue), Warning (backing off, a handler falling behind), Error (failing now).
    enum class Health { Idle, Ok, Busy, Warning, Error };
    Q_ENUM(Health)

    enum Role {
        StageRole = Qt::UserRole + 1, // Stage, as int
        TitleRole, // QString: the box's title ("Reflector", "RealFIFO")
        StateRole, // QString: its state in a few words ("watching", "depth 3")
        DetailsRole, // QStringList: counters, one per line
        HealthRole, // Health, as int
        RateRole, // double: events per second flowing into the stage
    };

    // Sample is one reading of every counter, with the rates since the previous one.
    struct Sample
    {
        bool valid = false; // false without an informer
        QString informerName;
        SharedIndexInformer::Counters counters;
        QStringList indexNames;
        std::optional<QueueMetrics> workQueue;
        qint64 workQueueWaiting = 0; // keys waiting for a delay (DelayingQueue and up)
        double watchEventsPerSecond = 0; // events and bookmarks the reflector received
        double queuedPerSecond = 0; // deltas into the FIFO
        double poppedPerSecond = 0; // items out of the FIFO
        double processedPerSecond = 0; // deltas applied to the indexer and handed to handlers
        double workQueueAddsPerSecond = 0;
    };

    explicit PipelineModel(QObject *parent = nullptr);
    ~PipelineModel() override;

    SharedIndexInformer *informer() const { return m_informer.data(); }
    void setInformer(SharedIndexInformer *informer);
    // setWorkQueue() attaches a controller's queue (a null pointer detaches it).
    void setWorkQueue(const std::shared_ptr<const Queue> &queue);
    bool hasWorkQueue() const { return m_hasWorkQueue; }

    // The sampling interval (200 ms by default); 0 stops the timer (sample() by hand).
    std::chrono::milliseconds interval() const;
    void setInterval(std::chrono::milliseconds interval);
    // sample() reads every counter now.
    void sample();
    const Sample &lastSample() const { return m_sample; }

    QList<Stage> stages() const;
    QString stageTitle(Stage stage) const;
    QString stateText(Stage stage) const;
    QStringList details(Stage stage) const;
    Health health(Stage stage) const;
    // inputRate() is what flows into the stage per second (the arrow before its box).
    double inputRate(Stage stage) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // queueKindName() is how client-go names the queue: "DeltaFIFO" or "RealFIFO".
    static QString queueKindName(DeltaQueue::Kind kind);

Q_SIGNALS:
    // sampled() follows every sample(), after dataChanged().
    void sampled();

private:
    void updateWorkQueueRow();

    QPointer<SharedIndexInformer> m_informer; // not owned
    std::weak_ptr<const Queue> m_workQueue; // not owned
    bool m_hasWorkQueue = false; // whether the WorkQueue row is shown
    Sample m_sample;
    QElapsedTimer m_sinceSample; // invalid until the first sample of the informer
    QTimer m_timer;
};

} // namespace Cachescope
