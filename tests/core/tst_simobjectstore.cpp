// Tests of the simulator's ObjectStore: versions, generation, conflicts, history and truth; and
// the objects WorkloadGenerator composes without a QJsonObject (its pods).
#include "core/sim/objectstore.h"

#include "core/sim/jsonwriter.h"
#include "core/sim/workloadgenerator.h"

#include "testmain.h"

#include <QJsonDocument>
#include <QSet>
#include <QTest>
#include <QThread>
#include <QUuid>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

class TestSimObjectStore : public QObject
{
    Q_OBJECT

private:
    ResourceCatalog m_catalog;
    ResourceType configMaps() const { return m_catalog.findById(u"configmaps"_s); }
    static QJsonObject configMap(const QString &name, const QString &value = u"v"_s)
    {
        return QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, name}, {u"namespace"_s, u"ns"_s}}}, {u"data"_s, QJsonObject{{u"k"_s, value}}}};
    }
    static QJsonObject parsed(const ObjectPtr &object) { return QJsonDocument::fromJson(object->json).object(); }

private Q_SLOTS:
    void everyWriteIncrementsTheGlobalVersion()
    {
        ObjectStore store(100);
        const quint64 start = store.resourceVersion();
        const ObjectStore::WriteResult a = store.create(configMaps(), configMap(u"a"_s));
        QVERIFY(a.ok());
        QCOMPARE(a.object->resourceVersion, start + 1);
        const ObjectStore::WriteResult b = store.create(m_catalog.findById(u"pods"_s), configMap(u"b"_s));
        QCOMPARE(b.object->resourceVersion, start + 2);
        QJsonObject changed = parsed(a.object);
        changed.insert(u"data"_s, QJsonObject{{u"k"_s, u"w"_s}});
        const ObjectStore::WriteResult updated = store.update(configMaps(), changed);
        QVERIFY(updated.ok());
        QCOMPARE(updated.object->resourceVersion, start + 3);
        const ObjectStore::WriteResult removed = store.remove(configMaps(), u"ns"_s, u"a"_s);
        QVERIFY(removed.ok());
        QCOMPARE(removed.object->resourceVersion, start + 4);
        QCOMPARE(parsed(removed.object).value(u"metadata").toObject().value(u"resourceVersion").toString(), QString::number(start + 4));
        QCOMPARE(store.resourceVersion(), start + 4);
    }

    void serverOwnedMetadataIsKept()
    {
        ObjectStore store;
        const ObjectPtr created = store.create(configMaps(), configMap(u"a"_s)).object;
        const QJsonObject metadata = parsed(created).value(u"metadata").toObject();
        QCOMPARE(parsed(created).value(u"kind").toString(), u"ConfigMap"_s);
        QCOMPARE(parsed(created).value(u"apiVersion").toString(), u"v1"_s);
        QVERIFY(!metadata.value(u"uid").toString().isEmpty());
        QVERIFY(!metadata.value(u"creationTimestamp").toString().isEmpty());
        QJsonObject replacement = configMap(u"a"_s, u"x"_s);
        QJsonObject replacementMetadata = replacement.value(u"metadata").toObject();
        replacementMetadata.insert(u"uid"_s, u"forged"_s);
        replacement.insert(u"metadata"_s, replacementMetadata);
        const ObjectPtr updated = store.update(configMaps(), replacement).object;
        QCOMPARE(updated->uid, metadata.value(u"uid").toString());
    }

    void uidsAreRandomVersion4UuidsOfTheirOwn()
    {
        // As the apiserver's: a random UUID (version 4, RFC 4122 variant), never repeated, and
        // another store (another simulator) draws others.
        QSet<QString> seen;
        for (int storeIndex = 0; storeIndex < 2; ++storeIndex) {
            ObjectStore store;
            for (int i = 0; i < 500; ++i) {
                const ObjectPtr object = store.create(configMaps(), configMap(u"c%1"_s.arg(i))).object;
                QVERIFY(object);
                const QUuid uid(object->uid);
                QVERIFY2(!uid.isNull(), qPrintable(object->uid));
                QCOMPARE(uid.version(), QUuid::Random);
                QCOMPARE(uid.variant(), QUuid::DCE);
                QCOMPARE(uid.toString(QUuid::WithoutBraces), object->uid);
                QVERIFY2(!seen.contains(object->uid), qPrintable(object->uid));
                seen.insert(object->uid);
            }
        }
    }

    void generationFollowsSpecChanges_data()
    {
        QTest::addColumn<bool>("changeSpec");
        QTest::addColumn<int>("generation");
        QTest::newRow("spec change bumps generation") << true << 2;
        QTest::newRow("status change keeps generation") << false << 1;
    }
    void generationFollowsSpecChanges()
    {
        QFETCH(bool, changeSpec);
        QFETCH(int, generation);
        ObjectStore store;
        const ResourceType deployments = m_catalog.findById(u"deployments.apps"_s);
        QJsonObject object{{u"metadata"_s, QJsonObject{{u"name"_s, u"d"_s}, {u"namespace"_s, u"ns"_s}}}, {u"spec"_s, QJsonObject{{u"replicas"_s, 1}}}};
        object = parsed(store.create(deployments, object).object);
        if (changeSpec)
            object.insert(u"spec"_s, QJsonObject{{u"replicas"_s, 2}});
        else
            object.insert(u"status"_s, QJsonObject{{u"replicas"_s, 1}});
        const ObjectPtr updated = store.update(deployments, object).object;
        QCOMPARE(parsed(updated).value(u"metadata").toObject().value(u"generation").toInt(), generation);
    }

    void staleVersionConflicts()
    {
        ObjectStore store;
        const QJsonObject first = parsed(store.create(configMaps(), configMap(u"a"_s)).object);
        QVERIFY(store.update(configMaps(), first).ok());
        const ObjectStore::WriteResult stale = store.update(configMaps(), first);
        QVERIFY(!stale.ok());
        QCOMPARE(stale.error->code, 409);
        QCOMPARE(stale.error->reason, u"Conflict"_s);
        QCOMPARE(store.create(configMaps(), configMap(u"a"_s)).error->reason, u"AlreadyExists"_s);
        QCOMPARE(store.remove(configMaps(), u"ns"_s, u"zzz"_s).error->code, 404);
        QCOMPARE(store.remove(configMaps(), u"ns"_s, u"a"_s, u"1"_s).error->code, 409);
    }

    void historyResumesUntilEvicted_data()
    {
        QTest::addColumn<int>("historyLimit");
        QTest::addColumn<int>("writes");
        QTest::addColumn<int>("resumeAfter"); // writes seen by the client before resuming
        QTest::addColumn<int>("expectedEvents"); // -1: too old
        QTest::addColumn<int>("windowMs"); // 0: the count alone
        QTest::newRow("everything kept") << 10 << 5 << 0 << 5 << 0;
        QTest::newRow("resume in the middle") << 10 << 5 << 3 << 2 << 0;
        QTest::newRow("resume at the head") << 10 << 5 << 5 << 0 << 0;
        QTest::newRow("resume just at the oldest kept event's predecessor") << 3 << 5 << 2 << 3 << 0;
        QTest::newRow("one event too old") << 3 << 5 << 1 << -1 << 0;
        QTest::newRow("far too old") << 3 << 50 << 0 << -1 << 0;
        QTest::newRow("a time window keeps young events beyond the count") << 3 << 50 << 0 << 50 << 3600000;
    }
    void historyResumesUntilEvicted()
    {
        QFETCH(int, historyLimit);
        QFETCH(int, writes);
        QFETCH(int, resumeAfter);
        QFETCH(int, expectedEvents);
        QFETCH(int, windowMs);
        ObjectStore store(historyLimit);
        store.setHistoryWindow(std::chrono::milliseconds(windowMs));
        const quint64 start = store.resourceVersion();
        for (int i = 0; i < writes; ++i)
            QVERIFY(store.create(configMaps(), configMap(u"cm%1"_s.arg(i))).ok());
        const std::optional<QList<StoreEventPtr>> events = store.eventsAfter(start + quint64(resumeAfter));
        if (expectedEvents < 0) {
            QVERIFY(!events.has_value());
            return;
        }
        QVERIFY(events.has_value());
        QCOMPARE(events->size(), expectedEvents);
        for (qsizetype i = 0; i < events->size(); ++i)
            QCOMPARE(events->at(i)->resourceVersion, start + quint64(resumeAfter) + quint64(i) + 1);
    }

    // Beyond the count, an event leaves the history once it is older than the window: the write
    // after that moment evicts it.
    void eventsOlderThanTheWindowAreEvicted()
    {
        ObjectStore store(3);
        store.setHistoryWindow(std::chrono::milliseconds(50));
        const quint64 start = store.resourceVersion();
        for (int i = 0; i < 10; ++i)
            QVERIFY(store.create(configMaps(), configMap(u"cm%1"_s.arg(i))).ok());
        QVERIFY(store.eventsAfter(start).has_value());
        int writes = 10;
        QTRY_VERIFY(((void)store.create(configMaps(), configMap(u"cm%1"_s.arg(writes++))), !store.eventsAfter(start).has_value()));
        // The count is still honoured: the last three events stay resumable.
        QVERIFY(store.eventsAfter(store.resourceVersion() - 3).has_value());
    }

    void compactionForgetsHistory()
    {
        ObjectStore store(100);
        const quint64 before = store.resourceVersion();
        QVERIFY(store.create(configMaps(), configMap(u"a"_s)).ok());
        QVERIFY(store.eventsAfter(before).has_value());
        store.compactHistory();
        QVERIFY(!store.eventsAfter(before).has_value());
        QCOMPARE(store.eventsAfter(store.resourceVersion())->size(), 0);
    }

    void truthMatchesObjects()
    {
        ObjectStore store;
        const ObjectPtr a = store.create(configMaps(), configMap(u"a"_s)).object;
        const ObjectPtr b = store.create(configMaps(), configMap(u"b"_s)).object;
        QVERIFY(store.remove(configMaps(), u"ns"_s, u"a"_s).ok());
        const QHash<QString, quint64> truth = store.truth(u"configmaps"_s);
        QCOMPARE(truth.size(), 1);
        QCOMPARE(truth.value(u"ns/b"_s), b->resourceVersion);
        QVERIFY(store.truth(u"pods"_s).isEmpty());
    }

    void listsOneNamespaceInKeyOrder()
    {
        ObjectStore store;
        for (const char *ns : {"b", "a-b", "a", "c"}) {
            for (const char *name : {"y", "x"}) {
                QJsonObject object{{u"metadata"_s, QJsonObject{{u"name"_s, QString::fromLatin1(name)}, {u"namespace"_s, QString::fromLatin1(ns)}}}};
                QVERIFY(store.create(configMaps(), object).ok());
            }
        }
        QStringList keys;
        for (const ObjectPtr &object : store.list(configMaps(), u"a"_s))
            keys.append(object->key());
        QCOMPARE(keys, (QStringList{u"a/x"_s, u"a/y"_s}));
        QCOMPARE(store.list(configMaps()).size(), 8);
        QCOMPARE(store.list(configMaps()).first()->key(), u"a-b/x"_s);
    }

    void composedObjectsAreTheirJson_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<int>("churn");
        for (const QString &resource : {u"pods"_s, u"deployments.apps"_s, u"replicasets.apps"_s, u"services"_s, u"endpoints"_s, u"configmaps"_s}) {
            QTest::addRow("populated %s", qPrintable(resource)) << resource << 0;
            QTest::addRow("%s after churn", qPrintable(resource)) << resource << 400;
        }
    }
    void composedObjectsAreTheirJson()
    {
        // An object WorkloadGenerator composes from a template must be what create() would have
        // stored from its QJsonObject: the bytes JsonWriter writes for the parsed JSON, and
        // extracted fields that say what the JSON says.
        QFETCH(QString, resource);
        QFETCH(int, churn);
        ObjectStore store(100000);
        WorkloadGenerator generator(&store, &m_catalog, {3, 4, 60, 7});
        generator.populate();
        for (int i = 0; i < churn; ++i)
            generator.churnOnce();
        generator.settle();
        const ResourceType type = m_catalog.findById(resource);
        const QList<ObjectPtr> objects = store.list(type);
        QVERIFY(objects.size() >= 10);
        QSet<QString> phases;
        for (const ObjectPtr &object : objects) {
            const QJsonObject json = parsed(object);
            QVERIFY(!json.isEmpty());
            QCOMPARE(JsonWriter::compact(json), object->json);
            const QJsonObject metadata = json.value(u"metadata").toObject();
            QCOMPARE(json.value(u"kind").toString(), type.kind);
            QCOMPARE(json.value(u"apiVersion").toString(), type.groupVersion());
            QCOMPARE(object->name, metadata.value(u"name").toString());
            QCOMPARE(object->namespaceName, metadata.value(u"namespace").toString());
            QCOMPARE(object->uid, metadata.value(u"uid").toString());
            QCOMPARE(QString::number(object->resourceVersion), metadata.value(u"resourceVersion").toString());
            QVERIFY(metadata.value(u"generation").toInteger() >= 1);
            QVERIFY(!metadata.value(u"creationTimestamp").toString().isEmpty());
            QCOMPARE(object->nodeName, json.value(u"spec").toObject().value(u"nodeName").toString());
            QCOMPARE(object->phase, json.value(u"status").toObject().value(u"phase").toString());
            QMap<QString, QString> labels;
            const QJsonObject jsonLabels = metadata.value(u"labels").toObject();
            for (auto it = jsonLabels.begin(); it != jsonLabels.end(); ++it)
                labels.insert(it.key(), it.value().toString());
            QCOMPARE(object->labels, labels);
            if (resource == u"pods") {
                const QString podIp = json.value(u"status").toObject().value(u"podIP").toString();
                QVERIFY(object->json.contains(QByteArray("\"k:{\\\"ip\\\":\\\"" + podIp.toLatin1() + "\\\"}\"")));
                phases.insert(object->phase);
            }
        }
        if (resource == u"pods") {
            QVERIFY(phases.contains(u"Running"_s));
            QVERIFY(phases.size() > 1);
        }
    }

    void initialObjectsComposedInBackgroundAreCompleteWhenRead()
    {
        // The initial state's JSON may be written on pool threads (populating on every core):
        // whatever the store serves from, a read sees every object with its JSON.
        ObjectStore store(100);
        ObjectStore::CreateOptions options;
        options.initialState = true;
        options.composeInBackground = true;
        for (int i = 0; i < 3; ++i) {
            StoredObject fields;
            fields.name = u"c%1"_s.arg(i);
            fields.namespaceName = u"ns"_s;
            const ObjectStore::WriteResult result = store.createComposed(
                configMaps(),
                std::move(fields),
                [i](const QString &uid, quint64 rv) -> QByteArray {
                    if (i == 0)
                        QThread::msleep(200); // still being written when the read below comes
                    return QByteArray("{\"uid\":\"" + uid.toUtf8() + "\",\"rv\":" + QByteArray::number(rv) + '}');
                },
                options);
            QVERIFY(result.ok());
        }
        const ObjectPtr first = store.get(configMaps(), u"ns"_s, u"c0"_s);
        QVERIFY(first);
        QCOMPARE(first->json, QByteArray("{\"uid\":\"" + first->uid.toUtf8() + "\",\"rv\":" + QByteArray::number(first->resourceVersion) + '}'));
        for (const ObjectPtr &object : store.list(configMaps()))
            QVERIFY(object->json.startsWith(QByteArray("{\"uid\":\"" + object->uid.toUtf8())));
    }

    void populationIsNoHistory()
    {
        // Nobody can watch from before the cluster existed: its initial objects are the state a
        // watch starts from, not events to replay.
        ObjectStore store(100000);
        const quint64 start = store.resourceVersion();
        WorkloadGenerator generator(&store, &m_catalog, {3, 4, 60, 7});
        qsizetype podsSeen = 0;
        store.addListener([&podsSeen](const StoreEventPtr &event) { podsSeen += event->resource == u"pods" && event->type == StoreEventType::Added; });
        generator.populate();
        QCOMPARE(podsSeen, store.count(m_catalog.findById(u"pods"_s)));
        QVERIFY(!store.eventsAfter(start).has_value());
        QVERIFY(store.oldestResumableVersion() > start + quint64(podsSeen));
        const std::optional<QList<StoreEventPtr>> history = store.eventsAfter(store.oldestResumableVersion());
        QVERIFY(history.has_value());
        for (const StoreEventPtr &event : *history)
            QCOMPARE(event->resource, u"events"_s);
    }

    void listenersSeeEveryEventInOrder()
    {
        ObjectStore store;
        QList<quint64> versions;
        QList<StoreEventType> types;
        store.addListener([&](const StoreEventPtr &event) {
            versions.append(event->resourceVersion);
            types.append(event->type);
        });
        const QJsonObject a = parsed(store.create(configMaps(), configMap(u"a"_s)).object);
        QVERIFY(store.update(configMaps(), a).ok());
        QVERIFY(store.remove(configMaps(), u"ns"_s, u"a"_s).ok());
        QCOMPARE(types, (QList<StoreEventType>{StoreEventType::Added, StoreEventType::Modified, StoreEventType::Deleted}));
        QVERIFY(versions.at(0) < versions.at(1) && versions.at(1) < versions.at(2));
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimObjectStore)
#include "tst_simobjectstore.moc"
