#include "core/sim/recordingfeed.h"

#include "core/record/recordedcache.h"
#include "core/record/recordingreader.h"
#include "core/sim/objectstore.h"
#include "core/sim/resourcecatalog.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

struct RecordingFeed::Informer
{
    ResourceType type;
    RecordedCache cache;
};

namespace {
QJsonObject jsonOf(const KubeObject &object)
{
    return QJsonDocument::fromJson(object.json()).object();
}

// The input at which an informer's first list was applied: until then the recorded cluster
// had not been seen whole, so a replay starts after it.
qint64 firstListedSeq(const QList<RecordedInput> &inputs)
{
    RecordedCache cache;
    cache.setKeepObjects(false);
    for (const RecordedInput &input : inputs) {
        const bool wasListing = cache.isListing();
        cache.apply(input);
        if (wasListing && !cache.isListing() && (input.kind == RecordedInput::Kind::ListPage || input.kind == RecordedInput::Kind::Bookmark))
            return input.seq;
    }
    return 0;
}
} // namespace

RecordingFeed::RecordingFeed(ObjectStore *store, const ResourceCatalog *catalog, const Options &options, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_catalog(catalog)
    , m_options(options)
    , m_reader(std::make_unique<RecordingReader>())
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &RecordingFeed::playDue);
}

RecordingFeed::~RecordingFeed() = default;

bool RecordingFeed::load(QString *error)
{
    if (!m_reader->open(m_options.path, error))
        return false;
    QList<RecordedInput> all;
    qint64 startSeq = 0;
    for (const RecordedInformer &recorded : m_reader->informers()) {
        const QList<RecordedInput> inputs = m_reader->inputs(recorded.id);
        all.append(inputs);
        startSeq = std::max(startSeq, firstListedSeq(inputs));
        const GroupVersionResource &gvr = recorded.resource.gvr;
        const ResourceType type = m_catalog->find(gvr.group(), gvr.version(), gvr.resource());
        if (!type.isValid()) {
            m_skipped.append(recorded.name);
            continue;
        }
        auto informer = std::make_shared<Informer>();
        informer->type = type;
        m_informers.insert(recorded.id, informer);
    }
    if (!m_options.at.isEmpty()) {
        const std::optional<qint64> at = m_reader->seqAt(m_options.at, error);
        if (!at)
            return false;
        startSeq = *at;
    }
    m_startSeq = startSeq;
    m_currentSeq = startSeq;
    std::sort(all.begin(), all.end(), [](const RecordedInput &a, const RecordedInput &b) { return a.seq < b.seq; });
    for (const RecordedInput &input : std::as_const(all)) {
        if (input.seq == startSeq)
            m_startMonoNs = input.monoNs;
        if (input.seq > startSeq)
            m_pending.append(input);
    }

    quint64 version = 0;
    for (auto it = m_informers.cbegin(); it != m_informers.cend(); ++it) {
        Informer &informer = **it;
        const RecordedCache state = startSeq > 0 ? m_reader->stateAt(it.key(), startSeq) : RecordedCache();
        for (const RecordedCache::Entry &entry : state.entries())
            m_store->restore(informer.type, StoreEventType::Added, jsonOf(entry.object), false);
        informer.cache.reset(state.entries(), state.resourceVersion());
        version = std::max(version, state.resourceVersion().toULongLong());
    }
    // A client lists at the recorded list's version and watches from there: the recorded
    // events after the instant all come after it.
    m_store->resetResourceVersion(std::max(version, m_store->resourceVersion()));
    return true;
}

void RecordingFeed::start()
{
    m_clock.start();
    playDue();
}

void RecordingFeed::playDue()
{
    const bool atOnce = m_options.speed <= 0;
    const double elapsedNs = double(m_clock.nsecsElapsed()) * m_options.speed;
    while (m_next < m_pending.size() && (atOnce || double(m_pending.at(m_next).monoNs - m_startMonoNs) <= elapsedNs)) {
        play(m_pending.at(m_next));
        ++m_next;
    }
    if (isFinished()) {
        Q_EMIT finished();
        return;
    }
    const double waitMs = (double(m_pending.at(m_next).monoNs - m_startMonoNs) - elapsedNs) / m_options.speed / 1e6;
    // A tiny speed all but pauses the replay; an hour is as good as forever, as the wait is
    // measured again when the timer fires.
    m_timer->start(int(std::clamp(waitMs, 1.0, 3600.0 * 1000)));
}

void RecordingFeed::play(const RecordedInput &input)
{
    m_currentSeq = input.seq;
    const auto found = m_informers.constFind(input.informerId);
    if (found == m_informers.cend())
        return;
    Informer &informer = **found;
    const bool wasListing = informer.cache.isListing();
    const QHash<QString, RecordedCache::Entry> before = informer.cache.entries();
    informer.cache.apply(input);
    if (input.kind == RecordedInput::Kind::WatchEvent && !wasListing) {
        static const QHash<QString, StoreEventType> types{
            {u"ADDED"_s, StoreEventType::Added}, {u"MODIFIED"_s, StoreEventType::Modified}, {u"DELETED"_s, StoreEventType::Deleted}};
        const auto type = types.constFind(input.eventType);
        if (type != types.cend())
            m_store->restore(informer.type, *type, jsonOf(input.object));
        return;
    }
    if (!wasListing || informer.cache.isListing())
        return;
    // A relist (or a streaming list) was applied: what it changed is what the recorded
    // reflector's store saw change, though the events in between were never recorded.
    const QHash<QString, RecordedCache::Entry> &after = informer.cache.entries();
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const auto old = before.constFind(it.key());
        if (old == before.cend())
            m_store->restore(informer.type, StoreEventType::Added, jsonOf(it->object));
        else if (old->resourceVersion != it->resourceVersion)
            m_store->restore(informer.type, StoreEventType::Modified, jsonOf(it->object));
    }
    for (auto it = before.cbegin(); it != before.cend(); ++it) {
        if (after.contains(it.key()))
            continue;
        // The deletion happened before the list's version; that version is the closest one
        // the recording knows.
        QJsonObject last = jsonOf(it->object);
        QJsonObject metadata = last.value(u"metadata").toObject();
        metadata.insert(u"resourceVersion"_s, informer.cache.resourceVersion());
        last.insert(u"metadata"_s, metadata);
        m_store->restore(informer.type, StoreEventType::Deleted, last);
    }
}

} // namespace Cachescope::Sim
