// ObjectEventsModel against the in-process simulated cluster, for a Pod and for a custom resource:
// its rows are, newest first, the lines `cachescope-cli events` prints for the same object (oldest
// first), warnings are marked, a new event is inserted on top and an event seen again moves there
// with its count, never through a reset.
#include "core/cli/eventscommand.h"
#include "core/printers/duration.h"
#include "core/relations/objectevents.h"
#include "ui/models/objecteventsmodel.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QTextStream>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::send;

namespace {

// Twelve pods in two namespaces, the cluster the CLI rows of tst_clirelations print too.
Sim::SimOptions simOptions()
{
    return CachescopeTest::simOptions(12, 2, 0, 15);
}

// printedRows() reads what `cachescope-cli events` prints, each line's cells cut where the
// header's columns start, newest first as the model lists them.
QList<QStringList> printedRows(const QList<EventRecord> &events, const QDateTime &now)
{
    QString text;
    QTextStream out(&text);
    EventsCommand::printEvents(events, now, out);
    out.flush();
    QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    const QString header = lines.takeFirst();
    QList<qsizetype> starts;
    for (const QString &title : {u"LAST SEEN"_s, u"TYPE"_s, u"REASON"_s, u"OBJECT"_s, u"MESSAGE"_s}) {
        starts.append(header.indexOf(title));
    }
    starts.append(std::numeric_limits<int>::max());
    QList<QStringList> rows;
    for (auto line = lines.crbegin(); line != lines.crend(); ++line) {
        QStringList cells;
        for (int column = 0; column + 1 < starts.size(); ++column) {
            cells.append(line->mid(starts.at(column), starts.at(column + 1) - starts.at(column)).trimmed());
        }
        rows.append(cells);
    }
    return rows;
}

// modelRows() writes the model's rows in the CLI's terms: the count and first sighting join the
// last one as kubectl writes them ("5m (x7 over 15m)").
QList<QStringList> modelRows(const ObjectEventsModel &model, const QDateTime &now)
{
    QList<QStringList> rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto cell = [&](int column) {
            return model.index(row, column).data().toString();
        };
        QString lastSeen = cell(ObjectEventsModel::LastSeenColumn);
        if (const int count = model.index(row, ObjectEventsModel::CountColumn).data().toInt(); count > 1) {
            lastSeen += u" (x%1 over %2)"_s.arg(count).arg(humanDuration(std::chrono::milliseconds(model.record(row).firstSeen.msecsTo(now))));
        }
        rows.append({lastSeen,
                     cell(ObjectEventsModel::TypeColumn),
                     cell(ObjectEventsModel::ReasonColumn),
                     cell(ObjectEventsModel::ObjectColumn),
                     cell(ObjectEventsModel::MessageColumn)});
    }
    return rows;
}

} // namespace

class TestObjectEventsModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rowsAreWhatTheCliPrintsAndFollow_data()
    {
        QTest::addColumn<QString>("resource");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("apiVersion");
        QTest::newRow("a pod") << u"pods"_s << u"Pod"_s << u"v1"_s;
        QTest::newRow("a custom resource") << u"widgets"_s << u"Widget"_s << u"demo.cachescope.io/v1"_s;
    }

    void rowsAreWhatTheCliPrintsAndFollow()
    {
        QFETCH(QString, resource);
        QFETCH(QString, kind);
        QFETCH(QString, apiVersion);
        CachescopeTest::SimClusterFixture fixture(simOptions());
        QVERIFY(fixture.startDiscovered());
        SharedIndexInformer *informer = fixture.syncedInformer(resource);
        QVERIFY(informer);
        const QList<KubeObject> objects = informer->indexer().list();
        QVERIFY(!objects.isEmpty());
        const KubeObject object = objects.constFirst();
        const QString ns = object.namespaceName();
        Cluster *cluster = fixture.cluster.get();

        // Events at known times, written out of order: a warning with the object's uid and a
        // count, two without a uid.
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const auto event = [&](const QString &name, int minutesAgo, const QString &reason, int count) {
            QJsonObject involved{{u"kind"_s, kind}, {u"namespace"_s, ns}, {u"name"_s, object.name()}, {u"apiVersion"_s, apiVersion}};
            if (reason == u"BackOff"_s) {
                involved.insert(u"uid"_s, object.uid());
            }
            return QJsonObject{{u"metadata"_s, QJsonObject{{u"name"_s, name}}},
                               {u"involvedObject"_s, involved},
                               {u"reason"_s, reason},
                               {u"message"_s, QString(reason + u" message"_s)},
                               {u"type"_s, reason == u"BackOff"_s ? u"Warning"_s : u"Normal"_s},
                               {u"count"_s, count},
                               {u"firstTimestamp"_s, now.addSecs(-60 * (minutesAgo + 10)).toString(Qt::ISODate)},
                               {u"lastTimestamp"_s, now.addSecs(-60 * minutesAgo).toString(Qt::ISODate)},
                               {u"source"_s, QJsonObject{{u"component"_s, u"kubelet"_s}}}};
        };
        const QString path = u"/api/v1/namespaces/%1/events"_s.arg(ns);
        QCOMPARE(send(cluster, "POST", path, event(u"tab.1"_s, 30, u"Pulling"_s, 1)), 201);
        QCOMPARE(send(cluster, "POST", path, event(u"tab.2"_s, 5, u"BackOff"_s, 7)), 201);
        QCOMPARE(send(cluster, "POST", path, event(u"tab.3"_s, 20, u"Pulled"_s, 1)), 201);

        ObjectEvents events(cluster, ns);
        QVERIFY(events.isAvailable());
        ObjectEventsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const ObjectRef ref = ObjectRef::of(object, kind, apiVersion);
        model.setSource(&events);
        model.setObject(ref);
        const auto ours = [&model] {
            QStringList reasons;
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.record(row).event.name().startsWith(u"tab."_s)) {
                    reasons.append(model.index(row, ObjectEventsModel::ReasonColumn).data().toString());
                }
            }
            return reasons;
        };
        QTRY_VERIFY_WITH_TIMEOUT(model.isKnown(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(ours(), (QStringList{u"BackOff"_s, u"Pulled"_s, u"Pulling"_s}), 10000);

        // Row for row what the CLI prints, at the same instant.
        const QDateTime printedAt = QDateTime::currentDateTimeUtc();
        model.setClock([printedAt] { return printedAt; });
        model.refresh();
        QCOMPARE(modelRows(model, printedAt), printedRows(events.eventsFor(ref), printedAt));
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex index = model.index(row, 0);
            if (row > 0) {
                QVERIFY(model.index(row - 1, 0).data(ObjectEventsModel::LastSeenRole).toDateTime() >= index.data(ObjectEventsModel::LastSeenRole).toDateTime());
            }
            const bool warning = model.record(row).type == u"Warning"_s;
            QCOMPARE(index.data(ObjectEventsModel::WarningRole).toBool(), warning);
            QCOMPARE(index.data(Qt::BackgroundRole).isValid(), warning);
        }
        const auto backOff = [&model] {
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.record(row).event.name() == u"tab.2"_s) {
                    return row;
                }
            }
            return -1;
        }();
        QVERIFY(backOff >= 0);
        QCOMPARE(model.index(backOff, ObjectEventsModel::CountColumn).data().toInt(), 7);
        QCOMPARE(model.index(backOff, ObjectEventsModel::FromColumn).data().toString(), u"kubelet"_s);
        QCOMPARE(model.index(backOff, ObjectEventsModel::ObjectColumn).data().toString(), kind.toLower() + u'/' + object.name());

        // Live: a new event on top; an event seen again moves there with its count. No reset.
        model.setClock([] { return QDateTime::currentDateTimeUtc(); });
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy moved(&model, &QAbstractItemModel::rowsMoved);
        QCOMPARE(send(cluster, "POST", path, event(u"tab.4"_s, 0, u"Started"_s, 1)), 201);
        QTRY_COMPARE_WITH_TIMEOUT(model.record(0).event.name(), u"tab.4"_s, 10000);
        QVERIFY(inserted.count() > 0);
        QCOMPARE(send(cluster,
                      "PATCH",
                      path + u"/tab.3"_s,
                      QJsonObject{{u"count"_s, 4}, {u"lastTimestamp"_s, now.addSecs(60).toString(Qt::ISODate)}},
                      "application/merge-patch+json"),
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(model.record(0).event.name(), u"tab.3"_s, 10000);
        QCOMPARE(model.index(0, ObjectEventsModel::CountColumn).data().toInt(), 4);
        QCOMPARE(model.index(1, 0).data(ObjectEventsModel::EventUidRole).toString(), model.record(1).event.uid());
        QVERIFY(moved.count() > 0);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(ours(), (QStringList{u"Pulled"_s, u"Started"_s, u"BackOff"_s, u"Pulling"_s}));
    }
};

CACHESCOPE_TEST_MAIN(TestObjectEventsModel)
#include "tst_objecteventsmodel.moc"
