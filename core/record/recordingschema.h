#pragma once

#include <QString>
#include <QStringList>

class QSqlDatabase;

namespace Cachescope {

// RecordingSchema is the layout of a recording: one SQLite file, readable with `sqlite3`.
// `PRAGMA user_version` holds version(); a reader refuses a file of another version. The file
// is in WAL mode while it is written (RecordingWriter), so a recorder that dies keeps every
// committed transaction.
//
//   session      one row: cluster (server URL), context, server_version, started and ended
//                (ms since the epoch; ended is NULL while recording or when the recorder died),
//                include_secret_values (0: Secrets' data and stringData values are "<redacted>")
//   informers    id, name, resource, grp, version, kind, namespaced, short_names, namespace
//                (empty: all), label_selector, field_selector, metadata_only, fifo ("RealFifo" or
//                "DeltaFifo"), watch_list (1: streaming lists)
//   objects      id, uid, resource_version, bytes: an object as the informer stored it (after its
//                transform), once per (uid, resource_version); a bookmark has no uid and is kept
//                once per distinct bytes
//   inputs       seq (order across informers), informer_id, mono_ns (since started), wall_ms,
//                kind (list, list_page, list_error, watch_opened, watch_event, bookmark,
//                watch_error, watch_ended: see RecordedInput), event_type, object_id,
//                resource_version, continue_token, remaining, item_count, send_initial_events,
//                error_kind, error_code, error_reason, error_message, error_retry_after_s,
//                error_causes
//                (indexed by informer_id, seq and by object_id, seq; files written before the
//                second index lack it and are read all the same)
//   page_items   seq, position, object_id: the items of a list_page, in order
//   checkpoints  id, seq, informer_id, resource_version: the informer's cache after input seq
//                (written every N inputs of the informer, never in the middle of a list)
//   checkpoint_entries  checkpoint_id, key, object_id: what that cache held
//
// Example: the events of one pod, in order:
//   SELECT i.seq, i.event_type, o.resource_version FROM inputs i JOIN objects o ON o.id = i.object_id
//   WHERE i.kind = 'watch_event' AND json_extract(o.bytes, '$.metadata.name') = 'web-1' ORDER BY i.seq;
class RecordingSchema
{
public:
    static constexpr int version() { return 1; }
    // statements() is the DDL that creates an empty recording.
    static QStringList statements();
    // create() makes the tables in an empty database and sets user_version.
    [[nodiscard]] static bool create(QSqlDatabase &database, QString *errorMessage);
};

} // namespace Cachescope
