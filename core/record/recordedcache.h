#pragma once

#include "core/record/recordedinput.h"

#include <QHash>

namespace Cachescope {

// RecordedCache is what a reflector fed by a sequence of RecordedInputs has handed its store:
// key → object, as the informer's Indexer holds it once its queue is drained. A list's pages
// are gathered and replace the state at its last page; a streaming list's events are gathered
// and replace it at the initial-events-end bookmark; watch events of a running watch apply one
// by one; a list or streaming list that fails is dropped, as the reflector drops it. The writer
// keeps one per informer to write checkpoints, the reader rebuilds one for stateAt(), and a
// replay keeps one to answer a list the recording cannot.
//
// isListing() says a list is in progress (gathered, not applied): a checkpoint is written
// only when it is not, so that a checkpoint alone rebuilds the state. Entries carry the
// object's row id in `objects`; the object itself may be left invalid (the writer does not
// keep it). Plain value type, not thread-safe.
class RecordedCache
{
public:
    struct Entry
    {
        qint64 objectId = 0;
        QString resourceVersion;
        KubeObject object;
    };

    void apply(const RecordedInput &input);
    // setKeepObjects(false) keeps row ids and resourceVersions only (the writer's way).
    void setKeepObjects(bool keep) { m_keepObjects = keep; }
    void reset(const QHash<QString, Entry> &entries, const QString &resourceVersion);

    const QHash<QString, Entry> &entries() const { return m_entries; }
    // resourceVersion() is the last one applied: a list's, then each event's or bookmark's.
    QString resourceVersion() const { return m_resourceVersion; }
    bool isListing() const { return m_listing; }
    // listStartSeq() is the seq of the `list` or `watch_opened` that began the list in progress.
    qint64 listStartSeq() const { return m_listStartSeq; }

    // isInitialEventsEnd() says a bookmark ends a streaming list's initial events.
    static bool isInitialEventsEnd(const KubeObject &bookmark);

private:
    QHash<QString, Entry> m_entries;
    QHash<QString, Entry> m_pending;
    QString m_resourceVersion;
    bool m_listing = false;
    bool m_streaming = false; // the list in progress is a streaming list
    qint64 m_listStartSeq = 0;
    bool m_keepObjects = true;
};

} // namespace Cachescope
