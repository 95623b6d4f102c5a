#include "core/relations/workloadlogs.h"

#include "core/cache/cluster.h"
#include "core/relations/relationservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// At most ten batches a second reach the view: a follow of 50 pods at 50 lines a second makes
// a few hundred lines per batch, one insertion each, and lines still show well inside the
// merge window's half second.
constexpr auto FlushInterval = std::chrono::milliseconds(100);
// A pod that left the workload's set is given this long to deliver its last lines before its
// stream is stopped (the server ends a deleted pod's follow by itself, usually sooner).
constexpr auto LeaveGrace = std::chrono::seconds(5);

QString streamKey(const QString &podUid, const QString &container)
{
    return podUid + u'/' + container;
}

} // namespace

WorkloadLogs::WorkloadLogs(Cluster *cluster, RelationService *relations, const ObjectRef &workload, const LogOptions &options, QObject *parent)
    : QObject(parent)
    , m_cluster(cluster)
    , m_relations(relations)
    , m_workload(workload)
    , m_options(options)
{
    m_options.previous = false;
    m_options.timestamps = true;
    m_clock.start();
    m_flushTimer.setSingleShot(true);
    connect(&m_flushTimer, &QTimer::timeout, this, &WorkloadLogs::flush);
}

WorkloadLogs::~WorkloadLogs()
{
    for (Stream &stream : m_streams) {
        if (stream.follower) {
            disconnect(stream.follower, nullptr, this, nullptr);
            // Deleted on its own thread, where its request lives; deleting it aborts the request.
            stream.follower->deleteLater();
            stream.follower = nullptr;
        }
    }
}

bool WorkloadLogs::isWorkload(const KubeObject &object)
{
    if (!object.isValid())
        return false;
    const QString kind = object.kind();
    const QString group = object.apiVersion().section(u'/', 0, 0);
    if (group == u"apps")
        return kind == u"Deployment" || kind == u"ReplicaSet" || kind == u"StatefulSet" || kind == u"DaemonSet";
    return group == u"batch" && kind == u"Job";
}

QStringList WorkloadLogs::containersOf(const KubeObject &workload)
{
    QStringList names;
    const QJsonObject root = QJsonDocument::fromJson(workload.json()).object();
    const QJsonArray containers = root.value(u"spec").toObject().value(u"template").toObject().value(u"spec").toObject().value(u"containers").toArray();
    for (const QJsonValue &container : containers)
        names.append(container.toObject().value(u"name").toString());
    return names;
}

void WorkloadLogs::setBound(qsizetype lines)
{
    m_merger.setBound(lines);
}

void WorkloadLogs::start()
{
    if (m_startedReading || !m_relations || !m_cluster || !m_cluster->client())
        return;
    m_startedReading = true;
    connect(m_relations, &RelationService::changed, this, &WorkloadLogs::refresh);
    connect(m_relations, &RelationService::synced, this, &WorkloadLogs::refresh);
    refresh();
}

WorkloadLogs::Pod WorkloadLogs::podOf(const ObjectRef &ref) const
{
    Pod pod;
    pod.resourceVersion = ref.object.resourceVersion();
    const QJsonObject root = QJsonDocument::fromJson(ref.object.json()).object();
    const QJsonArray containers = root.value(u"spec").toObject().value(u"containers").toArray();
    for (const QJsonValue &container : containers) {
        const QString name = container.toObject().value(u"name").toString();
        if (m_options.container.isEmpty() || name == m_options.container)
            pod.containers.append(name);
    }
    const QJsonArray statuses = root.value(u"status").toObject().value(u"containerStatuses").toArray();
    for (const QJsonValue &value : statuses) {
        const QJsonObject status = value.toObject();
        const QJsonObject state = status.value(u"state").toObject();
        // What the kubelet can serve: a running or ended container, or the last instance of
        // one waiting after a crash. A container still being created has no log yet (400).
        const QString name = status.value(u"name").toString();
        if (pod.containers.contains(name) && (state.contains(u"running"_s) || state.contains(u"terminated"_s) || status.value(u"restartCount").toInt() > 0))
            pod.started.insert(name);
    }
    return pod;
}

bool WorkloadLogs::hasStarted(const Stream &stream) const
{
    const auto pod = m_pods.constFind(stream.podUid);
    return pod != m_pods.cend() && pod->started.contains(stream.container);
}

void WorkloadLogs::refresh()
{
    if (!m_relations)
        return;
    const QList<ObjectRef> pods = m_relations->podsOf(m_workload);
    QHash<QString, Pod> present;
    present.reserve(pods.size());
    bool podsChanged = pods.size() != m_pods.size();
    for (const ObjectRef &ref : pods) {
        const auto known = m_pods.constFind(ref.uid);
        podsChanged = podsChanged || known == m_pods.cend();
        const Pod pod = known != m_pods.cend() && known->resourceVersion == ref.object.resourceVersion() ? *known : podOf(ref);
        present.insert(ref.uid, pod);
        for (const QString &container : pod.containers) {
            const QString key = streamKey(ref.uid, container);
            if (m_streams.contains(key))
                continue;
            Stream stream;
            stream.podUid = ref.uid;
            stream.podName = ref.name;
            stream.container = container;
            stream.source = ref.name + u'/' + container;
            m_streams.insert(key, stream);
            m_order.append(key);
        }
    }
    m_pods = present;
    // Streams of pods that left: a running one gets its grace; one that never ran is over.
    for (auto it = m_streams.begin(); it != m_streams.end(); ++it) {
        if (it->done || it->leaving || m_pods.contains(it->podUid))
            continue;
        if (!it->follower) {
            it->done = true;
            continue;
        }
        it->leaving = true;
        const QString key = it.key();
        QTimer::singleShot(LeaveGrace, this, [this, key] { stopStream(key); });
    }
    fillSlots();
    if (podsChanged)
        Q_EMIT countsChanged();
}

void WorkloadLogs::fillSlots()
{
    bool changed = false;
    for (const QString &key : std::as_const(m_order)) {
        if (m_running >= m_maxStreams)
            break;
        Stream &stream = m_streams[key];
        if (stream.done || stream.follower || !hasStarted(stream))
            continue;
        startStream(stream);
        changed = true;
    }
    if (changed)
        Q_EMIT countsChanged();
}

void WorkloadLogs::startStream(Stream &stream)
{
    if (!m_cluster || !m_cluster->client())
        return;
    LogOptions options = m_options;
    options.container = stream.container;
    // The receiver's ring holds no more than bound() lines: of each log, no more is worth reading.
    if (!options.tailLines)
        options.tailLines = m_merger.bound();
    auto *follower = new LogFollower(m_cluster->client(), m_workload.namespaceName, stream.podName, options);
    follower->setInitialBackoff(m_initialBackoff);
    follower->moveToThread(m_cluster->workerThread());
    stream.follower = follower;
    ++m_running;
    m_started.append(stream.source);
    m_merger.addSource(stream.source);
    const QString key = streamKey(stream.podUid, stream.container);
    connect(follower, &LogFollower::linesReceived, this, [this, key](const QStringList &lines) { onLines(key, lines); });
    connect(follower, &LogFollower::stateChanged, this, [this, key](LogFollower::State state, const QString &message) { onState(key, state, message); });
    QMetaObject::invokeMethod(follower, &LogFollower::start);
}

void WorkloadLogs::stopStream(const QString &key)
{
    const auto it = m_streams.find(key);
    if (it == m_streams.end() || it->done)
        return;
    it->done = true;
    // Its pending lines stay and leave in order; it holds nothing back any more.
    m_merger.removeSource(it->source);
    if (it->follower) {
        // Lines it queued before this still arrive and are kept (onLines()).
        disconnect(it->follower, &LogFollower::stateChanged, this, nullptr);
        it->follower->deleteLater();
        it->follower = nullptr;
        --m_running;
    }
    fillSlots();
    Q_EMIT countsChanged();
}

void WorkloadLogs::onLines(const QString &key, const QStringList &lines)
{
    const auto it = m_streams.constFind(key);
    if (it == m_streams.cend())
        return;
    m_received += lines.size();
    m_merger.append(it->source, lines, m_clock.elapsed());
    if (it->done) {
        // Lines queued before the stream was stopped: kept, without holding the others back.
        m_merger.removeSource(it->source);
    }
    scheduleFlush();
}

void WorkloadLogs::onState(const QString &key, LogFollower::State state, const QString &message)
{
    switch (state) {
    case LogFollower::State::Reconnecting:
        ++m_reconnects;
        break;
    case LogFollower::State::Failed:
        m_lastError = m_streams.value(key).source + u": "_s + message;
        stopStream(key);
        break;
    case LogFollower::State::Ended:
    case LogFollower::State::PodDeleted:
        // Nothing more will come: the lines stay, the slot goes to a pod that waits.
        stopStream(key);
        break;
    default:
        break;
    }
}

void WorkloadLogs::scheduleFlush()
{
    if (!m_flushTimer.isActive())
        m_flushTimer.start(FlushInterval);
}

void WorkloadLogs::flush()
{
    const LogLines lines = m_merger.take(m_clock.elapsed());
    if (!lines.isEmpty())
        Q_EMIT linesReceived(lines);
    if (m_merger.pendingCount() > 0)
        scheduleFlush();
}

int WorkloadLogs::waitingCount() const
{
    QSet<QString> waiting;
    for (const Stream &stream : m_streams) {
        if (!stream.done && !stream.follower && hasStarted(stream))
            waiting.insert(stream.podUid);
    }
    return int(waiting.size());
}

QStringList WorkloadLogs::runningSources() const
{
    QStringList running;
    for (const QString &key : m_order) {
        const auto stream = m_streams.constFind(key);
        if (stream != m_streams.cend() && stream->follower)
            running.append(stream->source);
    }
    return running;
}

int WorkloadLogs::notStartedCount() const
{
    int count = 0;
    for (const Pod &pod : m_pods)
        count += pod.started.isEmpty() ? 1 : 0;
    return count;
}

} // namespace Cachescope
