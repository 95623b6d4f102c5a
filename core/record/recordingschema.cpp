#include "core/record/recordingschema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QStringList RecordingSchema::statements()
{
    return {
        u"CREATE TABLE session (cluster TEXT, context TEXT, server_version TEXT, started INTEGER NOT NULL, ended INTEGER,"
        " include_secret_values INTEGER NOT NULL DEFAULT 0)"_s,
        u"CREATE TABLE informers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, resource TEXT NOT NULL, grp TEXT NOT NULL, version TEXT NOT NULL,"
        " kind TEXT NOT NULL, namespaced INTEGER NOT NULL, short_names TEXT NOT NULL, namespace TEXT NOT NULL, label_selector TEXT NOT NULL,"
        " field_selector TEXT NOT NULL, metadata_only INTEGER NOT NULL, fifo TEXT NOT NULL, watch_list INTEGER NOT NULL)"_s,
        u"CREATE TABLE objects (id INTEGER PRIMARY KEY, uid TEXT, resource_version TEXT NOT NULL, bytes BLOB NOT NULL, UNIQUE (uid, resource_version))"_s,
        u"CREATE TABLE inputs (seq INTEGER PRIMARY KEY, informer_id INTEGER NOT NULL REFERENCES informers (id), mono_ns INTEGER NOT NULL,"
        " wall_ms INTEGER NOT NULL, kind TEXT NOT NULL, event_type TEXT, object_id INTEGER REFERENCES objects (id), resource_version TEXT,"
        " continue_token TEXT, remaining INTEGER, item_count INTEGER, send_initial_events INTEGER, error_kind TEXT, error_code INTEGER,"
        " error_reason TEXT, error_message TEXT, error_retry_after_s INTEGER, error_causes TEXT)"_s,
        u"CREATE INDEX inputs_by_informer ON inputs (informer_id, seq)"_s,
        // The time bar's "next change of the selected object" (RecordingReader::nextChangeOf).
        // Added within version 1: a reader does not need it, a file without it is scanned.
        u"CREATE INDEX inputs_by_object ON inputs (object_id, seq)"_s,
        u"CREATE TABLE page_items (seq INTEGER NOT NULL REFERENCES inputs (seq), position INTEGER NOT NULL,"
        " object_id INTEGER NOT NULL REFERENCES objects (id), PRIMARY KEY (seq, position)) WITHOUT ROWID"_s,
        u"CREATE TABLE checkpoints (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, informer_id INTEGER NOT NULL REFERENCES informers (id),"
        " resource_version TEXT)"_s,
        u"CREATE INDEX checkpoints_by_informer ON checkpoints (informer_id, seq)"_s,
        u"CREATE TABLE checkpoint_entries (checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id), key TEXT NOT NULL,"
        " object_id INTEGER NOT NULL REFERENCES objects (id), PRIMARY KEY (checkpoint_id, key)) WITHOUT ROWID"_s,
        u"PRAGMA user_version = %1"_s.arg(version()),
    };
}

bool RecordingSchema::create(QSqlDatabase &database, QString *errorMessage)
{
    if (!database.transaction()) {
        *errorMessage = database.lastError().text();
        return false;
    }
    QSqlQuery query(database);
    for (const QString &statement : statements()) {
        if (!query.exec(statement)) {
            *errorMessage = query.lastError().text();
            database.rollback();
            return false;
        }
    }
    if (!database.commit()) {
        *errorMessage = database.lastError().text();
        return false;
    }
    return true;
}

} // namespace Cachescope
