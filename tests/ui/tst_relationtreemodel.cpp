// RelationTreeModel against the in-process simulated cluster: its rows are, one for one and in
// order, the lines `cachescope-cli tree` prints for the same object (name and edge, depth,
// READY and REASON, age); it follows a scale-up and a delete with inserts and removes, never a
// reset; a dangling owner is greyed and says why.
#include "core/cli/treecommand.h"
#include "core/relations/relationservice.h"
#include "ui/models/relationtreemodel.h"

#include "simclusterfixture.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QJsonArray>
#include <QPalette>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTextStream>

#include <algorithm>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using CachescopeTest::send;

namespace {

// Twelve pods in two namespaces, the cluster the CLI rows of tst_clirelations print too.
Sim::SimOptions simOptions()
{
    return CachescopeTest::simOptions(12, 2, 0, 15);
}

// Row is one line of the tree: depth, "Kind/name [source: detail]", READY, REASON, AGE.
struct Row
{
    int depth = 0;
    QString name;
    QString ready;
    QString reason;
    QString age;
    friend bool operator==(const Row &a, const Row &b) = default;
};

[[maybe_unused]] char *toString(const Row &row)
{
    return QTest::toString(u"%1|%2|%3|%4|%5"_s.arg(row.depth).arg(row.name, row.ready, row.reason, row.age));
}

// printedRows() reads what `cachescope-cli tree` prints, cutting its columns where the header's
// words start and its NAME into the tree's drawing (two characters a level) and the name.
QList<Row> printedRows(const RelationNode &tree, const QDateTime &now)
{
    QString text;
    QTextStream out(&text);
    TreeCommand::printTree(tree, now, out);
    out.flush();
    QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    QList<qsizetype> starts;
    for (const QRegularExpressionMatch &word : QRegularExpression(u"\\S+"_s).globalMatch(lines.takeFirst())) {
        starts.append(word.capturedStart());
    }
    starts.append(std::numeric_limits<int>::max());
    QList<Row> rows;
    for (const QString &line : std::as_const(lines)) {
        const auto cell = [&](int column) {
            return line.mid(starts.at(column), starts.at(column + 1) - starts.at(column)).trimmed();
        };
        // Not trimmed on the left: the spaces of a finished branch ("  └─") count as a level.
        QString drawn = line.mid(starts.at(1), starts.at(2) - starts.at(1));
        while (!drawn.isEmpty() && drawn.back().isSpace()) {
            drawn.chop(1);
        }
        qsizetype drawing = 0;
        while (drawing < drawn.size() && QStringView(u"│├└─ ").contains(drawn.at(drawing))) {
            ++drawing;
        }
        rows.append({int(drawing / 2), drawn.mid(drawing), cell(2), cell(3), cell(4)});
    }
    return rows;
}

// modelRows() writes the model's rows, depth first, in the CLI's terms.
void modelRows(const RelationTreeModel &model, const QModelIndex &parent, int depth, QList<Row> &rows)
{
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        QString name = index.data().toString();
        const auto source = RelationEdge::Source(index.data(RelationTreeModel::SourceRole).toInt());
        if (source != RelationEdge::Source::OwnerReference) {
            const QString detail = index.data(RelationTreeModel::DetailRole).toString();
            name += u" ["_s + RelationEdge::sourceName(source) + (detail.isEmpty() ? QString() : u": "_s + detail) + u']';
        }
        const ReadyCondition ready = ReadyCondition::of(model.objectAt(index));
        // The Ready/Status column is the same condition, written as one cell.
        if (index.siblingAtColumn(RelationTreeModel::ReadyColumn).data().toString() != RelationTreeModel::readyText(ready)) {
            return;
        }
        rows.append({depth, name, ready.status, ready.reason, index.siblingAtColumn(RelationTreeModel::AgeColumn).data().toString()});
        modelRows(model, index, depth + 1, rows);
    }
}

QList<Row> modelRows(const RelationTreeModel &model)
{
    QList<Row> rows;
    modelRows(model, {}, 0, rows);
    return rows;
}

QList<KubeObject> ownedBy(const SharedIndexInformer *informer, const QString &uid)
{
    QList<KubeObject> owned;
    const QList<KubeObject> all = informer->indexer().list();
    for (const KubeObject &object : all) {
        const auto controller = object.controllerReference();
        if (controller && controller->uid == uid) {
            owned.append(object);
        }
    }
    return owned;
}

} // namespace

class TestRelationTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<CachescopeTest::SimClusterFixture>(simOptions());
        QVERIFY(m_fixture->startDiscovered());
        m_pods = m_fixture->syncedInformer(u"pods"_s);
        m_replicaSets = m_fixture->syncedInformer(u"rs"_s);
        m_deployments = m_fixture->syncedInformer(u"deploy"_s);
        m_services = m_fixture->syncedInformer(u"services"_s);
        QVERIFY(m_pods && m_replicaSets && m_deployments && m_services);
        const QList<KubeObject> deployments = m_deployments->indexer().list();
        const auto withPods = std::find_if(
            deployments.cbegin(), deployments.cend(), [](const KubeObject &deployment) { return deployment.value(u"spec.replicas"_s).toInt() >= 1; });
        QVERIFY(withPods != deployments.cend());
        m_deployment = *withPods;
    }

    void cleanup() { m_fixture.reset(); }

    void rowsAreWhatTheCliTreePrints_data()
    {
        QTest::addColumn<QString>("object");
        QTest::addColumn<QString>("rootKind");
        QTest::newRow("a deployment: its replica sets and their pods") << u"deployment"_s << u"Deployment"_s;
        QTest::newRow("a replica set: its deployment above, its pods below") << u"replicaset"_s << u"Deployment"_s;
        QTest::newRow("a pod: up to its deployment, its node, service account and service") << u"pod"_s << u"Deployment"_s;
        QTest::newRow("a service: the pods it selects") << u"service"_s << u"Service"_s;
    }

    void rowsAreWhatTheCliTreePrints()
    {
        QFETCH(QString, object);
        QFETCH(QString, rootKind);
        const QList<KubeObject> replicaSets = ownedBy(m_replicaSets, m_deployment.uid());
        QVERIFY(!replicaSets.isEmpty());
        const QList<KubeObject> pods = ownedBy(m_pods, replicaSets.constFirst().uid());
        QVERIFY(!pods.isEmpty());
        ObjectRef ref;
        if (object == u"deployment"_s) {
            ref = ObjectRef::of(m_deployment, u"Deployment"_s, u"apps/v1"_s);
        } else if (object == u"replicaset"_s) {
            ref = ObjectRef::of(replicaSets.constFirst(), u"ReplicaSet"_s, u"apps/v1"_s);
        } else if (object == u"pod"_s) {
            ref = ObjectRef::of(pods.constFirst(), u"Pod"_s, u"v1"_s);
        } else {
            const KubeObject service = m_services->indexer().getByKey(m_deployment.namespaceName() + u'/' + m_deployment.name());
            QVERIFY(service.isValid());
            ref = ObjectRef::of(service, u"Service"_s, u"v1"_s);
        }

        RelationService relations(m_fixture->cluster.get(), ref.namespaceName);
        RelationTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        model.setClock([now] { return now; });
        QSignalSpy counted(&model, &RelationTreeModel::countChanged);
        model.setService(&relations);
        model.setObject(ref);
        QTRY_VERIFY_WITH_TIMEOUT(model.isKnown(), 30000);
        // Every informer synced: the node and service account of a pod are found, not pending.
        QTRY_VERIFY_WITH_TIMEOUT(relations.hasSynced(), 10000);
        model.refresh();

        const RelationNode tree = relations.treeOf(ref);
        const QList<Row> printed = printedRows(tree, now);
        QCOMPARE(modelRows(model), printed);
        QVERIFY(printed.size() >= 2);
        QCOMPARE(model.relatedCount(), printed.size() - 1);
        QVERIFY(counted.count() > 0);
        QCOMPARE(model.index(0, 0).data(RelationTreeModel::KindRole).toString(), rootKind);
        // The object itself is marked, in bold.
        const QModelIndex focus = model.focusIndex();
        QVERIFY(focus.isValid());
        QCOMPARE(focus.data(RelationTreeModel::UidRole).toString(), ref.uid);
        QVERIFY(focus.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!model.index(0, 0).data(RelationTreeModel::FocusRole).toBool() || focus == model.index(0, 0));
        if (object == u"pod"_s) {
            // Its owner's edge names the controller; its node is among its relations.
            QCOMPARE(focus.siblingAtColumn(RelationTreeModel::RelationColumn).data().toString(), u"owner reference (controller)"_s);
            QStringList below;
            for (int row = 0; row < model.rowCount(focus); ++row) {
                below.append(model.index(row, RelationTreeModel::RelationColumn, focus).data().toString());
            }
            QVERIFY2(below.contains(u"node: nodeName"_s), qPrintable(below.join(u", "_s)));
        }
    }

    void followsAScaleUpAndADeleteWithoutAReset()
    {
        const ObjectRef deployment = ObjectRef::of(m_deployment, u"Deployment"_s, u"apps/v1"_s);
        RelationService relations(m_fixture->cluster.get(), deployment.namespaceName);
        RelationTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setService(&relations);
        model.setObject(deployment);
        QTRY_VERIFY_WITH_TIMEOUT(model.isKnown() && model.rowCount() == 1 && model.rowCount(model.index(0, 0)) > 0, 30000);
        const QPersistentModelIndex replicaSet = model.index(0, 0, model.index(0, 0));
        const int podsBefore = model.rowCount(replicaSet);
        const int countBefore = model.relatedCount();
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

        const int replicas = m_deployment.value(u"spec.replicas"_s).toInt() + 2;
        QCOMPARE(send(m_fixture->cluster.get(),
                      "PATCH",
                      u"/apis/apps/v1/namespaces/%1/deployments/%2"_s.arg(deployment.namespaceName, deployment.name),
                      QJsonObject{{u"spec"_s, QJsonObject{{u"replicas"_s, replicas}}}},
                      "application/merge-patch+json"),
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(replicaSet), podsBefore + 2, 20000);
        QVERIFY(replicaSet.isValid());
        QTRY_COMPARE_WITH_TIMEOUT(model.relatedCount(), countBefore + 2, 5000);
        QVERIFY(inserted.count() > 0);

        // A pod deleted leaves its row (the replica set makes another, a row of its own).
        const QString victim = model.index(0, 0, replicaSet).data(RelationTreeModel::ObjectNameRole).toString();
        const QString victimUid = model.index(0, 0, replicaSet).data(RelationTreeModel::UidRole).toString();
        QCOMPARE(send(m_fixture->cluster.get(), "DELETE", u"/api/v1/namespaces/%1/pods/%2"_s.arg(deployment.namespaceName, victim)), 200);
        const auto shown = [&] {
            QStringList uids;
            for (int row = 0; row < model.rowCount(replicaSet); ++row) {
                uids.append(model.index(row, 0, replicaSet).data(RelationTreeModel::UidRole).toString());
            }
            return uids;
        };
        QTRY_VERIFY_WITH_TIMEOUT(!shown().contains(victimUid), 20000);
        QVERIFY(removed.count() > 0);
        QCOMPARE(resets.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(modelRows(model), printedRows(relations.treeOf(deployment), QDateTime::currentDateTimeUtc()), 10000);
    }

    void danglingOwnerIsGreyedAndSaysWhy()
    {
        const QString ns = m_deployment.namespaceName();
        const QJsonObject orphan{{u"metadata"_s,
                                  QJsonObject{{u"name"_s, u"orphan"_s},
                                              {u"ownerReferences"_s,
                                               QJsonArray{QJsonObject{{u"apiVersion"_s, u"apps/v1"_s},
                                                                      {u"kind"_s, u"ReplicaSet"_s},
                                                                      {u"name"_s, u"ghost"_s},
                                                                      {u"uid"_s, u"00000000-0000-0000-0000-00000000dead"_s},
                                                                      {u"controller"_s, true}}}}}},
                                 {u"spec"_s, QJsonObject{{u"containers"_s, QJsonArray{QJsonObject{{u"name"_s, u"app"_s}, {u"image"_s, u"nginx"_s}}}}}}};
        QCOMPARE(send(m_fixture->cluster.get(), "POST", u"/api/v1/namespaces/%1/pods"_s.arg(ns), orphan), 201);
        QTRY_VERIFY_WITH_TIMEOUT(m_pods->indexer().getByKey(ns + u"/orphan"_s).isValid(), 10000);
        RelationService relations(m_fixture->cluster.get(), ns);
        RelationTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setService(&relations);
        model.setObject(ObjectRef::of(m_pods->indexer().getByKey(ns + u"/orphan"_s), u"Pod"_s, u"v1"_s));
        QTRY_VERIFY_WITH_TIMEOUT(model.isKnown() && model.rowCount() == 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(model.index(0, 0).data(RelationTreeModel::ResolutionRole).toInt(), int(ObjectRef::Resolution::Dangling), 10000);

        const QModelIndex root = model.index(0, 0);
        QCOMPARE(root.data().toString(), u"ReplicaSet/ghost"_s);
        QCOMPARE(root.data(Qt::ForegroundRole).value<QBrush>(), QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text));
        QVERIFY2(root.data(Qt::ToolTipRole).toString().contains(u"does not exist"_s), qPrintable(root.data(Qt::ToolTipRole).toString()));
        QCOMPARE(root.siblingAtColumn(RelationTreeModel::RelationColumn).data().toString(), u"dangling owner"_s);
        QCOMPARE(root.siblingAtColumn(RelationTreeModel::ReadyColumn).data().toString(), u"Dangling"_s);
        // The pod under it is found: not greyed.
        const QModelIndex pod = model.index(0, 0, root);
        QCOMPARE(pod.data().toString(), u"Pod/orphan"_s);
        QVERIFY(pod.data(RelationTreeModel::FocusRole).toBool());
        QVERIFY(!pod.data(Qt::ForegroundRole).isValid());
    }

private:
    std::unique_ptr<CachescopeTest::SimClusterFixture> m_fixture;
    SharedIndexInformer *m_pods = nullptr;
    SharedIndexInformer *m_replicaSets = nullptr;
    SharedIndexInformer *m_deployments = nullptr;
    SharedIndexInformer *m_services = nullptr;
    KubeObject m_deployment;
};

CACHESCOPE_TEST_MAIN(TestRelationTreeModel)
#include "tst_relationtreemodel.moc"
