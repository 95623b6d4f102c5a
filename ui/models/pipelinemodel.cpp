#include "ui/models/pipelinemodel.h"

#include "core/workqueue/delayingqueue.h"
#include "core/workqueue/queue.h"

#include <QLocale>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// A FIFO or work queue this deep is worth a colour: the consumer is behind by more than a
// moment (a 100k-object relist fills the FIFO far beyond it, which is what Busy shows).
constexpr qint64 BusyDepth = 1000;
// A handler this far behind is at risk of showing stale data for a while.
constexpr qsizetype WarningBacklog = 10000;

QString number(quint64 value)
{
    return QLocale().toString(value);
}

QString number(qint64 value)
{
    return QLocale().toString(value);
}

double rate(quint64 now, quint64 before, double seconds)
{
    return now >= before && seconds > 0 ? double(now - before) / seconds : 0.0;
}

} // namespace

PipelineModel::PipelineModel(QObject *parent)
    : QAbstractListModel(parent)
{
    // 5 Hz: state changes (listing → watching) show at once to the eye, and reading the
    // counters (a few locks, no copying of objects) costs nothing at that rate.
    m_timer.setInterval(std::chrono::milliseconds(200));
    connect(&m_timer, &QTimer::timeout, this, &PipelineModel::sample);
}

PipelineModel::~PipelineModel() = default;

void PipelineModel::setInformer(SharedIndexInformer *informer)
{
    beginResetModel();
    m_informer = informer;
    m_sample = Sample();
    m_sinceSample.invalidate();
    endResetModel();
    if (informer && m_timer.interval() > 0) {
        m_timer.start();
    } else if (!m_hasWorkQueue) {
        m_timer.stop();
    }
    sample();
}

void PipelineModel::setWorkQueue(const std::shared_ptr<const Queue> &queue)
{
    m_workQueue = queue;
    m_sample.workQueue.reset();
    if (queue && m_timer.interval() > 0) {
        m_timer.start();
    }
    sample();
}

std::chrono::milliseconds PipelineModel::interval() const
{
    return m_timer.intervalAsDuration();
}

void PipelineModel::setInterval(std::chrono::milliseconds interval)
{
    m_timer.setInterval(interval);
    if (interval.count() > 0 && (m_informer || !m_workQueue.expired())) {
        m_timer.start();
    } else {
        m_timer.stop();
    }
}

void PipelineModel::sample()
{
    const Sample previous = m_sample;
    const double seconds = m_sinceSample.isValid() ? double(m_sinceSample.nsecsElapsed()) / 1e9 : 0.0;
    m_sinceSample.start();

    Sample next;
    if (const SharedIndexInformer *informer = m_informer.data()) {
        next.valid = true;
        next.informerName = informer->name();
        next.counters = informer->counters();
        next.indexNames = informer->indexer().indexers().keys();
        next.indexNames.sort();
        if (previous.valid) {
            const auto &now = next.counters;
            const auto &before = previous.counters;
            next.watchEventsPerSecond = rate(now.reflector.events + now.reflector.bookmarks, before.reflector.events + before.reflector.bookmarks, seconds);
            next.queuedPerSecond = rate(now.queue.queued, before.queue.queued, seconds);
            next.poppedPerSecond = rate(now.queue.popped, before.queue.popped, seconds);
            next.processedPerSecond = rate(now.deltasProcessed, before.deltasProcessed, seconds);
        }
    }
    if (const std::shared_ptr<const Queue> queue = m_workQueue.lock()) {
        next.workQueue = queue->metrics();
        if (const auto *delaying = dynamic_cast<const DelayingQueue *>(queue.get())) {
            next.workQueueWaiting = delaying->waitingCount();
        }
        if (previous.workQueue && previous.workQueue->name == next.workQueue->name) {
            next.workQueueAddsPerSecond = rate(next.workQueue->adds, previous.workQueue->adds, seconds);
        }
    }
    m_sample = next;
    updateWorkQueueRow();
    if (rowCount() > 0) {
        Q_EMIT dataChanged(index(0), index(rowCount() - 1), {Qt::DisplayRole, Qt::ToolTipRole, TitleRole, StateRole, DetailsRole, HealthRole, RateRole});
    }
    Q_EMIT sampled();
}

void PipelineModel::updateWorkQueueRow()
{
    const bool show = m_sample.workQueue.has_value();
    if (show == m_hasWorkQueue) {
        return;
    }
    const int row = static_cast<int>(stages().size()) - (m_hasWorkQueue ? 1 : 0);
    if (show) {
        beginInsertRows({}, row, row);
        m_hasWorkQueue = true;
        endInsertRows();
    } else {
        beginRemoveRows({}, row, row);
        m_hasWorkQueue = false;
        endRemoveRows();
    }
}

QList<PipelineModel::Stage> PipelineModel::stages() const
{
    QList<Stage> result{Stage::ListerWatcher, Stage::Reflector, Stage::Queue, Stage::Informer, Stage::Indexer, Stage::Handlers};
    if (m_hasWorkQueue) {
        result.append(Stage::WorkQueue);
    }
    return result;
}

QString PipelineModel::queueKindName(DeltaQueue::Kind kind)
{
    return kind == DeltaQueue::Kind::DeltaFifo ? u"DeltaFIFO"_s : u"RealFIFO"_s;
}

QString PipelineModel::stageTitle(Stage stage) const
{
    // The client-go names stay untranslated, as the Chinese community writes them too.
    switch (stage) {
    case Stage::ListerWatcher:
        return u"ListerWatcher"_s;
    case Stage::Reflector:
        return u"Reflector"_s;
    case Stage::Queue:
        return queueKindName(m_sample.valid ? m_sample.counters.queueKind : DeltaQueue::Kind::RealFifo);
    case Stage::Informer:
        return u"Informer"_s;
    case Stage::Indexer:
        return u"Indexer"_s;
    case Stage::Handlers:
        return tr("Handlers");
    case Stage::WorkQueue:
        return m_sample.workQueue && !m_sample.workQueue->name.isEmpty() ? u"WorkQueue "_s + m_sample.workQueue->name : u"WorkQueue"_s;
    }
    return {};
}

QString PipelineModel::stateText(Stage stage) const
{
    const Sample &s = m_sample;
    if (stage == Stage::WorkQueue) {
        return s.workQueue ? tr("depth %1").arg(number(s.workQueue->depth)) : QString();
    }
    if (!s.valid) {
        return tr("no informer");
    }
    const auto &c = s.counters;
    switch (stage) {
    case Stage::ListerWatcher:
        return s.informerName;
    case Stage::Reflector:
        switch (c.reflector.state) {
        case Reflector::State::Stopped:
            return tr("stopped");
        case Reflector::State::Listing:
            return tr("listing");
        case Reflector::State::Watching:
            return tr("watching");
        case Reflector::State::BackingOff:
            return tr("backing off");
        }
        return {};
    case Stage::Queue:
        return tr("depth %1").arg(number(qint64(c.queue.depth)));
    case Stage::Informer:
        return c.synced ? tr("synced") : tr("syncing");
    case Stage::Indexer:
        return tr("objects %1").arg(number(qint64(c.storeSize)));
    case Stage::Handlers:
        return tr("handlers %1").arg(c.handlerBacklogs.size());
    case Stage::WorkQueue:
        break;
    }
    return {};
}

QStringList PipelineModel::details(Stage stage) const
{
    const Sample &s = m_sample;
    QStringList lines;
    if (stage == Stage::WorkQueue) {
        if (const auto &q = s.workQueue) {
            lines.append(tr("adds %1 · retries %2").arg(number(q->adds), number(q->retries)));
            lines.append(tr("processing %1 · waiting %2").arg(number(qint64(q->processing)), number(s.workQueueWaiting)));
        }
        return lines;
    }
    if (!s.valid) {
        return lines;
    }
    const auto &c = s.counters;
    const auto &r = c.reflector;
    switch (stage) {
    case Stage::ListerWatcher:
        lines.append(tr("lists %1 · watches %2").arg(number(r.lists), number(r.watchesOpened)));
        if (r.usingWatchList) {
            lines.append(tr("streaming list"));
        }
        break;
    case Stage::Reflector:
        lines.append(tr("resourceVersion %1").arg(r.lastSyncResourceVersion.isEmpty() ? u"-"_s : r.lastSyncResourceVersion));
        if (r.state == Reflector::State::Listing) {
            lines.append(r.remainingItemCount ? tr("listed %1, %2 remaining").arg(number(r.itemsListed), number(*r.remainingItemCount))
                                              : tr("listed %1").arg(number(r.itemsListed)));
        }
        lines.append(tr("relists %1 · reconnects %2").arg(number(r.relists), number(r.reconnects)));
        lines.append(tr("events %1 · bookmarks %2").arg(number(r.events), number(r.bookmarks)));
        lines.append(tr("errors %1").arg(number(r.errors)));
        if (r.lastError.isError()) {
            lines.append(tr("last error: %1").arg(r.lastError.toString()));
        }
        break;
    case Stage::Queue:
        lines.append(tr("queued %1 · popped %2").arg(number(c.queue.queued), number(c.queue.popped)));
        // How a relist reaches the cache: client-go 1.36 swaps the store in one step (AtomicFIFO);
        // a DeltaFIFO and the 1.33–1.35 RealFIFO queue a delta per object.
        lines.append(c.atomicReplace ? tr("atomic replace") : tr("replace per object"));
        break;
    case Stage::Informer:
        lines.append(tr("deltas processed %1").arg(number(c.deltasProcessed)));
        break;
    case Stage::Indexer:
        lines.append(s.indexNames.isEmpty() ? tr("no indexes") : tr("indexes: %1").arg(s.indexNames.join(u", "_s)));
        break;
    case Stage::Handlers:
        for (qsizetype i = 0; i < c.handlerBacklogs.size(); ++i) {
            lines.append(tr("handler %1: backlog %2").arg(i + 1).arg(number(qint64(c.handlerBacklogs.at(i)))));
        }
        break;
    case Stage::WorkQueue:
        break;
    }
    return lines;
}

PipelineModel::Health PipelineModel::health(Stage stage) const
{
    const Sample &s = m_sample;
    if (stage == Stage::WorkQueue) {
        if (!s.workQueue) {
            return Health::Idle;
        }
        return s.workQueue->depth >= BusyDepth ? Health::Busy : Health::Ok;
    }
    if (!s.valid) {
        return Health::Idle;
    }
    const auto &c = s.counters;
    const bool stopped = c.reflector.state == Reflector::State::Stopped;
    switch (stage) {
    case Stage::ListerWatcher:
        if (stopped) {
            return Health::Idle;
        }
        // The connection is failing while the reflector waits to retry it.
        return c.reflector.state == Reflector::State::BackingOff ? Health::Error : Health::Ok;
    case Stage::Reflector:
        switch (c.reflector.state) {
        case Reflector::State::Stopped:
            return Health::Idle;
        case Reflector::State::Listing:
            return Health::Busy;
        case Reflector::State::Watching:
            return Health::Ok;
        case Reflector::State::BackingOff:
            return Health::Warning;
        }
        return Health::Idle;
    case Stage::Queue:
        return c.queue.depth >= BusyDepth ? Health::Busy : (stopped && c.queue.depth == 0 ? Health::Idle : Health::Ok);
    case Stage::Informer:
        return c.synced ? Health::Ok : (stopped ? Health::Idle : Health::Busy);
    case Stage::Indexer:
        return c.storeSize > 0 || c.synced ? Health::Ok : Health::Idle;
    case Stage::Handlers: {
        if (c.handlerBacklogs.isEmpty()) {
            return Health::Idle;
        }
        const qsizetype deepest = *std::max_element(c.handlerBacklogs.cbegin(), c.handlerBacklogs.cend());
        return deepest >= WarningBacklog ? Health::Warning : (deepest >= BusyDepth ? Health::Busy : Health::Ok);
    }
    case Stage::WorkQueue:
        break;
    }
    return Health::Idle;
}

double PipelineModel::inputRate(Stage stage) const
{
    switch (stage) {
    case Stage::ListerWatcher:
        return 0;
    case Stage::Reflector:
        return m_sample.watchEventsPerSecond;
    case Stage::Queue:
        return m_sample.queuedPerSecond;
    case Stage::Informer:
        return m_sample.poppedPerSecond;
    case Stage::Indexer:
    case Stage::Handlers:
        return m_sample.processedPerSecond;
    case Stage::WorkQueue:
        return m_sample.workQueueAddsPerSecond;
    }
    return 0;
}

int PipelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(stages().size());
}

QVariant PipelineModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const Stage stage = stages().at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return QString(stageTitle(stage) + u": "_s + stateText(stage));
    case Qt::ToolTipRole:
        return details(stage).join(u'\n');
    case StageRole:
        return int(stage);
    case TitleRole:
        return stageTitle(stage);
    case StateRole:
        return stateText(stage);
    case DetailsRole:
        return details(stage);
    case HealthRole:
        return int(health(stage));
    case RateRole:
        return inputRate(stage);
    default:
        return {};
    }
}

QHash<int, QByteArray> PipelineModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(StageRole, "stage");
    names.insert(TitleRole, "title");
    names.insert(StateRole, "state");
    names.insert(DetailsRole, "details");
    names.insert(HealthRole, "health");
    names.insert(RateRole, "rate");
    return names;
}

} // namespace Cachescope
