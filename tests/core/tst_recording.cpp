// The recording on temporary files: what RecordingListerWatcher tees into RecordingWriter from a
// live informer (a scripted FakeListerWatcher: paged list, events, a bookmark, a 410 and its
// relist, a clean end and its resumption), read back by RecordingReader and replayed through
// ReplayListerWatcher into another informer. The state at each recorded step must be the live
// informer's, with or without checkpoints; objects are kept once per (uid, resourceVersion);
// Secrets' values are redacted unless asked for; a file that cannot be written is a clear
// error, and a write failing mid-recording stops the recording, not the informer.
#include "fakelisterwatcher.h"
#include "recordingtesthelpers.h"

#include "core/cache/sharedindexinformer.h"
#include "core/record/recordinglisterwatcher.h"
#include "core/record/recordingreader.h"
#include "core/record/recordingwriter.h"
#include "core/record/replaylisterwatcher.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;

namespace {

SharedIndexInformer::Options informerOptions(DeltaQueue::Kind kind = DeltaQueue::Kind::RealFifo)
{
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.queueKind = kind;
    // The classic relist (a delta per object), not client-go 1.36's AtomicFIFO: an atomic relist
    // drops the watch's deltas still queued, so whether a handler sees them depends on whether
    // the consumer popped them before the relist came, i.e. on the machine's load, live or
    // replayed. A delta per object keeps them queued: the same calls at any pace.
    options.atomicReplace = false;
    options.reflector.useWatchList = false;
    options.reflector.pageSize = 2;
    options.reflector.veryShortWatch = std::chrono::milliseconds(0);
    options.reflector.backoff.initial = std::chrono::milliseconds(5);
    options.reflector.backoff.cap = std::chrono::milliseconds(20);
    options.reflector.seed = 3;
    return options;
}

// Snapshot is the live informer's cache right after the input `seq` was recorded.
struct Snapshot
{
    qint64 seq = 0;
    KeyVersions state;
};

// LiveRun is the scripted session, recorded.
struct LiveRun
{
    qint64 informerId = 0;
    QList<Snapshot> snapshots;
    QStringList calls;
    QSet<QString> distinctObjects; // uid + resourceVersion of everything the server sent
};

} // namespace

class TestRecording : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void stateAtEveryStepIsTheLiveCache_data();
    void stateAtEveryStepIsTheLiveCache();
    void objectsAreStoredOncePerUidAndResourceVersion();
    void columnsKeepTheirSqlTypes();
    void replayRepeatsTheHandlerCalls_data();
    void replayRepeatsTheHandlerCalls();
    void replayFromAnInstantStartsWithItsState();
    void secretValuesAreRedacted_data();
    void secretValuesAreRedacted();
    void unwritablePathIsAClearError_data();
    void unwritablePathIsAClearError();
    void writeFailureStopsRecordingNotTheInformer();
    void aDamagedIndexIsSaidNotReplayed();

private:
    // record() runs the scripted session through a recording tee into `path`.
    void record(const QString &path, const RecordingWriter::Options &writerOptions, LiveRun *run);
};

void TestRecording::record(const QString &path, const RecordingWriter::Options &writerOptions, LiveRun *run)
{
    RecordingWriter writer(writerOptions);
    QString error;
    QVERIFY2(writer.open(path, {u"https://127.0.0.1:1"_s, u"test"_s, u"v1.32.0"_s}, &error), qPrintable(error));
    run->informerId = writer.queue()->addInformer(recordedPods());

    // The "server": what it lists, by name.
    QMap<QString, KubeObject> server;
    const auto put = [&](const KubeObject &object) {
        server.insert(object.name(), object);
        run->distinctObjects.insert(object.uid() + u'/' + object.resourceVersion());
    };
    put(pod(u"a"_s, u"1"_s));
    put(pod(u"b"_s, u"2"_s));
    put(pod(u"c"_s, u"3"_s));

    auto fake = std::make_unique<FakeListerWatcher>();
    FakeListerWatcher *lw = fake.get();
    lw->onList = [&server](const ListOptions &options) {
        // Two pages of two: the reflector's pageSize.
        const QList<KubeObject> all = server.values();
        const qsizetype from = options.continueToken.isEmpty() ? 0 : options.continueToken.toLongLong();
        const QString next = from + 2 < all.size() ? QString::number(from + 2) : QString();
        return page(all.mid(from, 2), u"100"_s, next);
    };
    SharedIndexInformer informer(
        std::make_unique<RecordingListerWatcher>(std::move(fake), writer.queue(), run->informerId), QThread::currentThread(), informerOptions());
    auto log = std::make_shared<CallLog>();
    (void)informer.addEventHandler(log);
    informer.run();

    const auto expected = [&] {
        KeyVersions state;
        for (const KubeObject &object : std::as_const(server)) {
            state.insert(metaNamespaceKey(object), object.resourceVersion());
        }
        return state;
    };
    const auto snapshot = [&](const char *step) {
        QTRY_COMPARE_WITH_TIMEOUT(keyVersions(informer), expected(), 10000);
        run->snapshots.append({writer.queue()->appended(), expected()});
        Q_UNUSED(step)
    };
    const auto send = [&](ObjectEvent::Type type, const KubeObject &object) {
        if (type == ObjectEvent::Type::Deleted) {
            server.remove(object.name());
            run->distinctObjects.insert(object.uid() + u'/' + object.resourceVersion());
        } else {
            put(object);
        }
        lw->current()->send({watchEvent(type, object)});
    };

    QTRY_VERIFY(informer.hasSynced());
    QTRY_VERIFY(lw->current());
    snapshot("listed");
    send(ObjectEvent::Type::Added, pod(u"d"_s, u"10"_s));
    send(ObjectEvent::Type::Modified, pod(u"a"_s, u"11"_s));
    snapshot("events");
    send(ObjectEvent::Type::Deleted, pod(u"b"_s, u"12"_s));
    lw->current()->send({watchEvent(ObjectEvent::Type::Bookmark, bookmark(u"13"_s))});
    snapshot("deleted");
    // 410 Gone: the reflector relists, and the server changed meanwhile (a deletion it missed).
    put(pod(u"a"_s, u"14"_s));
    put(pod(u"e"_s, u"15"_s));
    server.remove(u"c"_s);
    lw->current()->send({errorEvent(410, u"Expired"_s)});
    QTRY_COMPARE(lw->watchCalls.size(), 2);
    QTRY_VERIFY(lw->current());
    snapshot("relisted");
    send(ObjectEvent::Type::Modified, pod(u"e"_s, u"16"_s));
    // The server closes the watch (its timeout): the reflector resumes without a list.
    lw->current()->end();
    QTRY_COMPARE(lw->watchCalls.size(), 3);
    QTRY_VERIFY(lw->current());
    send(ObjectEvent::Type::Added, pod(u"f"_s, u"17"_s));
    send(ObjectEvent::Type::Deleted, pod(u"d"_s, u"18"_s));
    snapshot("resumed");
    QCOMPARE(lw->listCalls.size(), 4); // two lists of two pages each

    QTRY_COMPARE(log->calls().size(), 13);
    run->calls = log->calls();
    informer.stop();
    writer.close();
    QVERIFY2(!writer.isRecording() && writer.errorString().isEmpty(), qPrintable(writer.errorString()));
}

void TestRecording::stateAtEveryStepIsTheLiveCache_data()
{
    QTest::addColumn<qint64>("checkpointEvery");
    QTest::addColumn<bool>("expectCheckpoints");
    QTest::newRow("a checkpoint after every input") << qint64(1) << true;
    QTest::newRow("a checkpoint every third input") << qint64(3) << true;
    QTest::newRow("no checkpoint: every state from the first input") << qint64(1000000) << false;
}

void TestRecording::stateAtEveryStepIsTheLiveCache()
{
    QFETCH(qint64, checkpointEvery);
    QFETCH(bool, expectCheckpoints);
    QTemporaryDir dir;
    RecordingWriter::Options options;
    options.checkpointEvery = checkpointEvery;
    LiveRun run;
    record(dir.filePath(u"session.cachescope"_s), options, &run);
    if (QTest::currentTestFailed()) {
        return;
    }
    RecordingReader reader;
    QString error;
    QVERIFY2(reader.open(dir.filePath(u"session.cachescope"_s), &error), qPrintable(error));
    const RecordingReader::Summary summary = reader.summary();
    QCOMPARE(summary.checkpoints > 0, expectCheckpoints);
    QCOMPARE(reader.session().context, u"test"_s);
    QVERIFY(reader.session().ended.isValid());
    QCOMPARE(reader.informers().size(), 1);
    QCOMPARE(reader.informers().constFirst().resource.kind, u"Pod"_s);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::List), 2);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::ListPage), 4);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::WatchOpened), 3);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::WatchError), 1);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::Bookmark), 1);
    QCOMPARE(summary.inputsByKind.value(RecordedInput::Kind::WatchEvent), 6);
    QCOMPARE(run.snapshots.size(), 5);
    for (const Snapshot &snapshot : std::as_const(run.snapshots)) {
        QCOMPARE(keyVersions(reader.stateAt(run.informerId, snapshot.seq)), snapshot.state);
    }
    // Between the steps too: from a checkpoint or not, every seq gives what applying every input
    // from the first one gives.
    RecordedCache full;
    const QList<RecordedInput> inputs = reader.inputs(run.informerId);
    QCOMPARE(inputs.size(), summary.inputs);
    for (const RecordedInput &input : inputs) {
        full.apply(input);
        QCOMPARE(keyVersions(reader.stateAt(run.informerId, input.seq)), keyVersions(full));
    }
}

void TestRecording::objectsAreStoredOncePerUidAndResourceVersion()
{
    QTemporaryDir dir;
    LiveRun run;
    record(dir.filePath(u"session.cachescope"_s), {}, &run);
    if (QTest::currentTestFailed()) {
        return;
    }
    RecordingReader reader;
    QString error;
    QVERIFY2(reader.open(dir.filePath(u"session.cachescope"_s), &error), qPrintable(error));
    // The relist sends d again, unchanged: without the dedup there would be more rows than
    // distinct versions. The bookmark has no uid: one row of its own.
    const RecordingReader::Summary summary = reader.summary();
    QCOMPARE(summary.objects, qint64(run.distinctObjects.size()) + 1);
    const qint64 referenced = summary.inputsByKind.value(RecordedInput::Kind::WatchEvent) + 4 /* first list */ + 3 /* relist */;
    QVERIFY(summary.objects < referenced);
}

void TestRecording::columnsKeepTheirSqlTypes()
{
    // What `sqlite3` users and older readers see: which columns of each kind of input are NULL,
    // text or integer. The writer binds through SQLite's API (SqliteStatement); these are the
    // types QSqlQuery stored before (a null QString is NULL, an empty one text), one line per
    // kind and distinct combination.
    QTemporaryDir dir;
    LiveRun run;
    const QString path = dir.filePath(u"session.cachescope"_s);
    RecordingWriter::Options options;
    options.checkpointEvery = 3; // checkpoints, at a list's state and at a watch's
    record(path, options, &run);
    if (QTest::currentTestFailed()) {
        return;
    }
    QStringList types;
    const QString connection = u"tst_recording-types"_s;
    {
        QSqlDatabase database = QSqlDatabase::addDatabase(u"QSQLITE"_s, connection);
        database.setDatabaseName(path);
        QVERIFY(database.open());
        QSqlQuery query(database);
        QVERIFY(query.exec(u"SELECT DISTINCT kind || ': ' || typeof(event_type) || ' ' || typeof(object_id) || ' ' || typeof(resource_version) || ' ' ||"
                           " typeof(continue_token) || ' ' || typeof(remaining) || ' ' || typeof(item_count) || ' ' || typeof(send_initial_events) || ' ' ||"
                           " typeof(error_kind) || ' ' || typeof(error_code) || ' ' || typeof(error_reason) || ' ' || typeof(error_message) || ' ' ||"
                           " typeof(error_retry_after_s) || ' ' || typeof(error_causes) FROM inputs ORDER BY 1"_s));
        while (query.next()) {
            types.append(query.value(0).toString());
        }
        QVERIFY(query.exec(u"SELECT DISTINCT 'object: ' || typeof(uid) || ' ' || typeof(resource_version) || ' ' || typeof(bytes) FROM objects ORDER BY 1"_s));
        while (query.next()) {
            types.append(query.value(0).toString());
        }
        QVERIFY(query.exec(u"SELECT DISTINCT 'checkpoint: ' || typeof(resource_version) FROM checkpoints ORDER BY 1"_s));
        while (query.next()) {
            types.append(query.value(0).toString());
        }
    }
    QSqlDatabase::removeDatabase(connection);
    // Columns: event_type object_id resource_version continue_token remaining item_count
    // send_initial_events error_kind error_code error_reason error_message error_retry_after_s
    // error_causes.
    const QStringList expected = {
        u"bookmark: null integer text null null null null null null null null null null"_s,
        u"list: null null text null null null null null null null null null null"_s,
        u"list_page: null null text null null integer null null null null null null null"_s, // the last page
        u"list_page: null null text text null integer null null null null null null null"_s,
        u"watch_ended: null null null null null null null null null null null null null"_s, // the server ended it
        u"watch_ended: text null null null null null null null null null null null null"_s, // STOPPED
        u"watch_error: text null null null null null null text integer text text null null"_s,
        u"watch_event: text integer text null null null null null null null null null null"_s,
        u"watch_opened: null null text null null null integer null null null null null null"_s,
        u"object: null text blob"_s, // the bookmark
        u"object: text text blob"_s,
        u"checkpoint: text"_s,
    };
    QCOMPARE(types, expected);
}

void TestRecording::replayRepeatsTheHandlerCalls_data()
{
    QTest::addColumn<int>("queueKind");
    QTest::addColumn<double>("speed");
    // DeltaFifo merges the deltas of a key still queued, so the order across keys depends on how
    // fast the informer pops (live or replayed); each key's own calls are in order all the same.
    QTest::newRow("RealFifo, as fast as possible: the same calls in the same order") << int(DeltaQueue::Kind::RealFifo) << 0.0;
    QTest::newRow("RealFifo, recorded pace x 20: the same calls in the same order") << int(DeltaQueue::Kind::RealFifo) << 20.0;
    QTest::newRow("DeltaFifo, as fast as possible: each key's calls in order") << int(DeltaQueue::Kind::DeltaFifo) << 0.0;
}

void TestRecording::replayRepeatsTheHandlerCalls()
{
    QFETCH(int, queueKind);
    QFETCH(double, speed);
    QTemporaryDir dir;
    LiveRun run;
    record(dir.filePath(u"session.cachescope"_s), {}, &run);
    if (QTest::currentTestFailed()) {
        return;
    }
    RecordingReader reader;
    QString error;
    QVERIFY2(reader.open(dir.filePath(u"session.cachescope"_s), &error), qPrintable(error));
    ReplayListerWatcher::Options options;
    options.speed = speed;
    auto replay = std::make_unique<ReplayListerWatcher>(reader, run.informerId, options);
    ReplayListerWatcher *replayView = replay.get();
    SharedIndexInformer informer(std::move(replay), QThread::currentThread(), informerOptions(DeltaQueue::Kind(queueKind)));
    auto log = std::make_shared<CallLog>();
    (void)informer.addEventHandler(log);
    informer.run();
    QTRY_VERIFY_WITH_TIMEOUT(replayView->isFinished(), 20000);
    if (DeltaQueue::Kind(queueKind) == DeltaQueue::Kind::RealFifo) {
        QTRY_COMPARE(log->calls(), run.calls);
    } else {
        const auto byKey = [](const QStringList &calls) {
            QMap<QString, QStringList> perKey;
            for (const QString &call : calls) {
                perKey[call.section(u' ', 1, 1)].append(call);
            }
            return perKey;
        };
        QTRY_COMPARE(byKey(log->calls()), byKey(run.calls));
    }
    QCOMPARE(keyVersions(informer), run.snapshots.constLast().state);
    const Reflector::Status status = informer.counters().reflector;
    QCOMPARE(status.lists, quint64(2)); // the relist after the 410, as recorded
    informer.stop();
}

void TestRecording::replayFromAnInstantStartsWithItsState()
{
    QTemporaryDir dir;
    RecordingWriter::Options writerOptions;
    writerOptions.checkpointEvery = 4;
    LiveRun run;
    record(dir.filePath(u"session.cachescope"_s), writerOptions, &run);
    if (QTest::currentTestFailed()) {
        return;
    }
    RecordingReader reader;
    QString error;
    QVERIFY2(reader.open(dir.filePath(u"session.cachescope"_s), &error), qPrintable(error));
    for (qsizetype i = 0; i < run.snapshots.size(); ++i) {
        const Snapshot &snapshot = run.snapshots.at(i);
        const bool last = i + 1 == run.snapshots.size();
        // Held at the start: the state rebuilt from the nearest checkpoint. Then, from the same
        // start, held at the next step: the replayed events take it there.
        for (const qint64 stopSeq : {snapshot.seq, last ? qint64(-1) : run.snapshots.at(i + 1).seq}) {
            ReplayListerWatcher::Options options;
            options.startSeq = snapshot.seq;
            options.speed = 0;
            options.stopSeq = stopSeq;
            auto replay = std::make_unique<ReplayListerWatcher>(reader, run.informerId, options);
            ReplayListerWatcher *replayView = replay.get();
            SharedIndexInformer informer(std::move(replay), QThread::currentThread(), informerOptions());
            informer.run();
            QTRY_VERIFY(informer.hasSynced());
            QTRY_VERIFY_WITH_TIMEOUT(replayView->isFinished(), 10000);
            const KeyVersions expected = stopSeq == snapshot.seq || last ? snapshot.state : run.snapshots.at(i + 1).state;
            QTRY_COMPARE(keyVersions(informer), expected);
            informer.stop();
        }
    }
}

void TestRecording::secretValuesAreRedacted_data()
{
    QTest::addColumn<bool>("includeSecretValues");
    QTest::newRow("values replaced, keys kept") << false;
    QTest::newRow("--include-secret-values keeps them") << true;
}

void TestRecording::secretValuesAreRedacted()
{
    QFETCH(bool, includeSecretValues);
    QTemporaryDir dir;
    const QString path = dir.filePath(u"secrets.cachescope"_s);
    RecordingWriter::Options options;
    options.includeSecretValues = includeSecretValues;
    RecordingWriter writer(options);
    QString error;
    QVERIFY2(writer.open(path, {}, &error), qPrintable(error));
    const qint64 id = writer.queue()->addInformer(recordedPods());
    const auto object = [](const char *json) {
        return KubeObject::fromJson(QByteArray(json)).value_or(KubeObject());
    };
    RecordedInput input;
    input.informerId = id;
    input.kind = RecordedInput::Kind::ListPage;
    input.items = {
        object(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"db","namespace":"shop","uid":"s1","resourceVersion":"5"},)"
               R"("type":"Opaque","data":{"password":"aHVudGVyMg=="},"stringData":{"user":"admin"}})"),
        object(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cfg","namespace":"shop","uid":"c1","resourceVersion":"6"},)"
               R"("data":{"password":"not-a-secret"}})"),
    };
    QVERIFY(input.items.at(0).isValid() && input.items.at(1).isValid());
    writer.queue()->append(input);
    writer.close();

    RecordingReader reader;
    QVERIFY2(reader.open(path, &error), qPrintable(error));
    QCOMPARE(reader.session().includeSecretValues, includeSecretValues);
    const QList<RecordedInput> inputs = reader.inputs(id);
    QCOMPARE(inputs.size(), 1);
    QCOMPARE(inputs.constFirst().items.size(), 2);
    const KubeObject secret = inputs.constFirst().items.at(0);
    const QString expectedPassword = includeSecretValues ? u"aHVudGVyMg=="_s : u"<redacted>"_s;
    const QString expectedUser = includeSecretValues ? u"admin"_s : u"<redacted>"_s;
    QCOMPARE(secret.value(u"data.password"_s).toString(), expectedPassword);
    QCOMPARE(secret.value(u"stringData.user"_s).toString(), expectedUser);
    QCOMPARE(secret.value(u"type"_s).toString(), u"Opaque"_s);
    QCOMPARE(secret.resourceVersion(), u"5"_s);
    // Only Secrets: a ConfigMap's data is recorded as it is.
    QCOMPARE(inputs.constFirst().items.at(1).value(u"data.password"_s).toString(), u"not-a-secret"_s);
}

void TestRecording::unwritablePathIsAClearError_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("because");
    QTest::newRow("a directory that does not exist") << u"/nonexistent-cachescope-dir/session.cachescope"_s << u"unable to open"_s;
    // /proc refuses new files even to root, as a read-only mount does.
    QTest::newRow("a file system that refuses new files") << u"/proc/session.cachescope"_s << u"unable to open"_s;
    QTest::newRow("an existing file") << QString() << u"exists"_s;
}

void TestRecording::unwritablePathIsAClearError()
{
    QFETCH(QString, path);
    QFETCH(QString, because);
    QTemporaryDir dir;
    if (path.isEmpty()) {
        path = dir.filePath(u"taken"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a recording");
    }
    RecordingWriter writer({});
    QString error;
    QVERIFY(!writer.open(path, {}, &error));
    QVERIFY2(error.startsWith(u"cannot record to "_s + path + u": "_s), qPrintable(error));
    QVERIFY2(error.contains(because, Qt::CaseInsensitive), qPrintable(error));
    QVERIFY(!writer.isRecording());
    // Appends after a failed open go nowhere, at no cost to the caller.
    writer.queue()->append(RecordedInput());
    QCOMPARE(writer.queue()->appended(), 0);
}

void TestRecording::writeFailureStopsRecordingNotTheInformer()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"full.cachescope"_s);
    RecordingWriter::Options options;
    // Room for the schema and a little more: big objects fill it as a full disk would. The schema
    // takes a page per table and index (16 KiB each, RecordingWriter), 12 of the 16.
    options.maxFileBytes = 256 * 1024;
    options.commitInterval = std::chrono::milliseconds(20);
    RecordingWriter writer(options);
    QString error;
    QVERIFY2(writer.open(path, {}, &error), qPrintable(error));
    QSignalSpy failed(&writer, &RecordingWriter::errorOccurred);
    QSignalSpy committed(&writer, &RecordingWriter::inputsCommitted);
    const qint64 id = writer.queue()->addInformer(recordedPods());

    auto fake = std::make_unique<FakeListerWatcher>();
    FakeListerWatcher *lw = fake.get();
    lw->onList = [](const ListOptions &) {
        return page({pod(u"a"_s, u"1"_s)}, u"1"_s);
    };
    SharedIndexInformer informer(std::make_unique<RecordingListerWatcher>(std::move(fake), writer.queue(), id), QThread::currentThread(), informerOptions());
    informer.run();
    QTRY_VERIFY(informer.hasSynced());
    QTRY_VERIFY(lw->current());
    QTRY_VERIFY(!committed.isEmpty()); // the list made it to the file
    const QString padding(4000, u'x');
    for (int i = 0; i < 200 && failed.isEmpty(); ++i) {
        const QByteArray json = u"{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p%1\",\"namespace\":\"default\",\"uid\":\"u%1\","
                                "\"resourceVersion\":\"%2\",\"annotations\":{\"pad\":\"%3\"}}}"_s.arg(i)
                                    .arg(i + 2)
                                    .arg(padding)
                                    .toUtf8();
        lw->current()->send({watchEvent(ObjectEvent::Type::Added, KubeObject::fromJson(json).value_or(KubeObject()))});
        QTest::qWait(5); // lets the commit timer run between events
    }
    QVERIFY(failed.size() == 1 || failed.wait(5000));
    QCOMPARE(failed.size(), 1);
    const QString message = failed.constFirst().constFirst().toString();
    QVERIFY2(message.contains(path) && message.contains(u"full"_s, Qt::CaseInsensitive), qPrintable(message));
    QVERIFY(!writer.isRecording());
    QVERIFY(writer.queue()->isClosed());

    // The informer goes on as if nothing happened.
    lw->current()->send({watchEvent(ObjectEvent::Type::Added, pod(u"after"_s, u"1000"_s))});
    QTRY_VERIFY(keyVersions(informer).contains(u"default/after"_s));
    informer.stop();
    writer.close();

    // What was committed before the failure reads back.
    RecordingReader reader;
    QVERIFY2(reader.open(path, &error), qPrintable(error));
    const RecordingReader::Summary summary = reader.summary();
    QVERIFY(summary.inputsByKind.value(RecordedInput::Kind::ListPage) == 1);
    QVERIFY(!reader.session().ended.isValid());
}

// fuzz_recording found this file: a recording whose index on (informer_id, seq) lost an entry
// (`PRAGMA integrity_check`: "row 12 missing from index inputs_by_informer"). Through that index,
// the first informer's inputs came as seq 1…11, 14, 13, 14: a replay would have applied an input
// twice and out of order, and nothing said so. The reader now stops at the first input out of
// order and says the file is damaged.
void TestRecording::aDamagedIndexIsSaidNotReplayed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"damaged.db"_s);
    QVERIFY(QFile::copy(QStringLiteral(CACHESCOPE_TEST_DATA "/record/damaged-inputs-index.db"), path));
    QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    RecordingReader reader;
    QString error;
    QVERIFY2(reader.open(path, &error), qPrintable(error));
    QVERIFY(reader.errorString().isEmpty());
    const QList<RecordedInformer> informers = reader.informers();
    QCOMPARE(informers.size(), 2);
    const QList<RecordedInput> inputs = reader.inputs(informers.first().id);
    QVERIFY2(reader.errorString().contains(u"damaged"_s), qPrintable(reader.errorString()));
    QVERIFY(reader.errorString().contains(u"out of order at seq 13"_s));
    QList<qint64> seqs;
    for (const RecordedInput &input : inputs) {
        seqs.append(input.seq);
    }
    QCOMPARE(seqs, (QList<qint64>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14}));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRecording)

#include "tst_recording.moc"
