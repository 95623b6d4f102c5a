#include "core/record/recordedcache.h"

#include "core/cache/keys.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

RecordedCache::Entry entryOf(const KubeObject &object, qint64 objectId, bool keepObject)
{
    return RecordedCache::Entry{objectId, object.resourceVersion(), keepObject ? object : KubeObject()};
}

} // namespace

bool RecordedCache::isInitialEventsEnd(const KubeObject &bookmark)
{
    const QJsonObject annotations = QJsonDocument::fromJson(bookmark.json()).object().value(u"metadata"_s).toObject().value(u"annotations"_s).toObject();
    return annotations.value(u"k8s.io/initial-events-end"_s).toString() == u"true"_s;
}

void RecordedCache::reset(const QHash<QString, Entry> &entries, const QString &resourceVersion)
{
    m_entries = entries;
    m_resourceVersion = resourceVersion;
    m_pending.clear();
    m_listing = false;
    m_streaming = false;
    m_listStartSeq = 0;
}

void RecordedCache::apply(const RecordedInput &input)
{
    using Kind = RecordedInput::Kind;
    switch (input.kind) {
    case Kind::List:
        m_pending.clear();
        m_listing = true;
        m_streaming = false;
        m_listStartSeq = input.seq;
        break;
    case Kind::ListPage:
        if (!m_listing || m_streaming) {
            break;
        }
        for (qsizetype i = 0; i < input.items.size(); ++i) {
            const KubeObject &item = input.items.at(i);
            m_pending.insert(metaNamespaceKey(item), entryOf(item, input.itemIds.value(i), m_keepObjects));
        }
        if (input.continueToken.isEmpty()) {
            // The reflector's replace(): the store is the list, nothing else.
            m_entries = std::exchange(m_pending, {});
            m_resourceVersion = input.resourceVersion;
            m_listing = false;
        }
        break;
    case Kind::ListError:
        // The reflector drops the pages so far; whatever it does next starts with a `list`.
        if (!m_streaming) {
            m_pending.clear();
            m_listing = false;
        }
        break;
    case Kind::WatchOpened:
        m_streaming = input.sendInitialEvents;
        m_listing = input.sendInitialEvents;
        m_pending.clear();
        if (m_listing) {
            m_listStartSeq = input.seq;
        }
        break;
    case Kind::WatchEvent: {
        QHash<QString, Entry> &target = m_streaming ? m_pending : m_entries;
        const QString key = metaNamespaceKey(input.object);
        if (input.eventType == u"DELETED"_s) {
            target.remove(key);
        } else {
            target.insert(key, entryOf(input.object, input.objectId, m_keepObjects));
        }
        if (!m_streaming) {
            m_resourceVersion = input.object.resourceVersion();
        }
        break;
    }
    case Kind::Bookmark:
        if (m_streaming) {
            if (isInitialEventsEnd(input.object)) {
                m_entries = std::exchange(m_pending, {});
                m_resourceVersion = input.object.resourceVersion();
                m_streaming = false;
                m_listing = false;
            }
            break;
        }
        m_resourceVersion = input.object.resourceVersion();
        break;
    case Kind::WatchError:
    case Kind::WatchEnded:
        if (m_streaming) {
            // A streaming list lives and dies with its watch.
            m_pending.clear();
            m_streaming = false;
            m_listing = false;
        }
        break;
    }
}

} // namespace Cachescope
