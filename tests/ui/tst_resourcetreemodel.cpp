// ResourceTreeModel from a DiscoveryResult: groups in order (core first), only listable and
// watchable resources in their preferred version, counts as exact dataChanged, and a changed
// discovery applied as exact insertions and removals.
#include "ui/models/resourcetreemodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

const QStringList ListWatch{u"create"_s, u"delete"_s, u"get"_s, u"list"_s, u"patch"_s, u"update"_s, u"watch"_s};

ApiResource resource(const QString &group,
                     const QString &version,
                     const QString &plural,
                     const QString &kind,
                     bool namespaced = true,
                     const QStringList &verbs = ListWatch,
                     bool preferred = true)
{
    ApiResource r;
    r.gvr = GroupVersionResource(group, version, plural);
    r.kind = kind;
    r.namespaced = namespaced;
    r.verbs = verbs;
    r.preferredVersion = preferred;
    return r;
}

DiscoveryResult discovery(bool withWidgets)
{
    DiscoveryResult result;
    result.resources = {
        resource(QString(), u"v1"_s, u"pods"_s, u"Pod"_s),
        resource(QString(), u"v1"_s, u"pods/status"_s, u"Pod"_s),
        resource(QString(), u"v1"_s, u"bindings"_s, u"Binding"_s, true, {u"create"_s}),
        resource(QString(), u"v1"_s, u"configmaps"_s, u"ConfigMap"_s),
        resource(QString(), u"v1"_s, u"nodes"_s, u"Node"_s, false),
        resource(u"apps"_s, u"v1"_s, u"deployments"_s, u"Deployment"_s),
        resource(u"apps"_s, u"v1beta1"_s, u"deployments"_s, u"Deployment"_s, true, ListWatch, false),
        resource(u"batch"_s, u"v1"_s, u"jobs"_s, u"Job"_s),
        resource(u"authorization.k8s.io"_s, u"v1"_s, u"subjectaccessreviews"_s, u"SubjectAccessReview"_s, false, {u"create"_s}),
    };
    if (withWidgets) {
        result.resources.append(resource(u"demo.cachescope.io"_s, u"v1"_s, u"widgets"_s, u"Widget"_s));
    }
    return result;
}

// "group: Kind Kind" per group, in row order.
QStringList dump(const QAbstractItemModel &model)
{
    QStringList lines;
    for (int g = 0; g < model.rowCount(); ++g) {
        const QModelIndex group = model.index(g, 0);
        QStringList kinds;
        for (int r = 0; r < model.rowCount(group); ++r) {
            kinds.append(model.index(r, 0, group).data().toString());
        }
        lines.append(group.data().toString() + u": "_s + kinds.join(u' '));
    }
    return lines;
}

} // namespace

class TestResourceTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void buildsFromDiscovery();
    void counts();
    void discoveryChangesAreExact();
};

void TestResourceTreeModel::buildsFromDiscovery()
{
    ResourceTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDiscovery(discovery(true));
    QCOMPARE(dump(model), (QStringList{u"v1: ConfigMap Node Pod"_s, u"apps: Deployment"_s, u"batch: Job"_s, u"demo.cachescope.io: Widget"_s}));
    const QModelIndex deployments = model.indexOf(u"deployments.apps"_s);
    QVERIFY(deployments.isValid());
    QCOMPARE(model.resource(deployments).gvr.version(), u"v1"_s); // the preferred version
    QCOMPARE(deployments.data(ResourceTreeModel::GroupVersionRole).toString(), u"apps/v1"_s);
    QCOMPARE(model.indexOf(u"nodes"_s).data(ResourceTreeModel::NamespacedRole).toBool(), false);
    QCOMPARE(model.indexOf(u"pods"_s).data(ResourceTreeModel::VerbsRole).toStringList(), ListWatch);
    QVERIFY(!model.indexOf(u"bindings"_s).isValid());
    QVERIFY(model.index(0, 0).data(ResourceTreeModel::IsGroupRole).toBool());
    QVERIFY(!model.resource(model.index(0, 0)).gvr.isValid());
}

void TestResourceTreeModel::counts()
{
    ResourceTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setCount(u"pods"_s, 7); // before the tree exists: kept
    model.setDiscovery(discovery(false));
    const QModelIndex pods = model.indexOf(u"pods"_s);
    QCOMPARE(pods.siblingAtColumn(ResourceTreeModel::CountColumn).data().toLongLong(), 7);
    QVERIFY(!model.indexOf(u"configmaps"_s).siblingAtColumn(ResourceTreeModel::CountColumn).data().isValid());

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setCount(u"configmaps"_s, 3);
    QCOMPARE(changed.count(), 2); // the resource's count and its group's sum
    QCOMPARE(changed.at(0).at(0).toModelIndex(), model.indexOf(u"configmaps"_s).siblingAtColumn(ResourceTreeModel::CountColumn));
    QCOMPARE(changed.at(1).at(0).toModelIndex(), model.index(0, ResourceTreeModel::CountColumn));
    QCOMPARE(model.index(0, ResourceTreeModel::CountColumn).data().toLongLong(), 10);

    changed.clear();
    model.setCount(u"configmaps"_s, 3); // unchanged: no signal
    QCOMPARE(changed.count(), 0);
    model.setCount(u"deployments.apps"_s, -1); // clearing an unknown count: no signal
    QCOMPARE(changed.count(), 0);
    model.setCount(u"pods"_s, -1);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(model.index(0, ResourceTreeModel::CountColumn).data().toLongLong(), 3);
}

void TestResourceTreeModel::discoveryChangesAreExact()
{
    ResourceTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setDiscovery(discovery(false));
    const QPersistentModelIndex pods = model.indexOf(u"pods"_s);
    const QPersistentModelIndex jobs = model.indexOf(u"jobs.batch"_s);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);

    // A CRD appears; apps and configmaps go; a new core resource appears.
    DiscoveryResult next = discovery(true);
    next.resources.removeIf([](const ApiResource &r) { return r.gvr.group() == u"apps" || r.gvr.resource() == u"configmaps"; });
    next.resources.append(resource(QString(), u"v1"_s, u"secrets"_s, u"Secret"_s));
    model.setDiscovery(next);

    QCOMPARE(dump(model), (QStringList{u"v1: Node Pod Secret"_s, u"batch: Job"_s, u"demo.cachescope.io: Widget"_s}));
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 2); // secrets, the demo group
    QCOMPARE(removed.count(), 2); // the apps group, configmaps
    // Indexes held by views follow their resources.
    QVERIFY(pods.isValid());
    QCOMPARE(pods.data(ResourceTreeModel::ResourceIdRole).toString(), u"pods"_s);
    QCOMPARE(jobs.parent().row(), 1);
    QCOMPARE(jobs.data(ResourceTreeModel::ResourceIdRole).toString(), u"jobs.batch"_s);

    // The same discovery again changes nothing.
    inserted.clear();
    removed.clear();
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setDiscovery(next);
    QCOMPARE(inserted.count() + removed.count() + changed.count(), 0);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestResourceTreeModel)
#include "tst_resourcetreemodel.moc"
