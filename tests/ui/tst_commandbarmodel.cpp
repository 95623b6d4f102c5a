// CommandBarModel: what the command bar finds for what is typed — kinds resolved as kubectl
// resolves them (short names, kinds, plural.group), actions, contexts, namespaces and objects,
// ranked; k9s' ":kind [-n NS]" asking for a kind only; objects capped.
#include "ui/models/commandbarmodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

ApiResource resource(const QString &group, const QString &plural, const QString &kind, const QStringList &shortNames)
{
    ApiResource resource;
    resource.gvr = GroupVersionResource(group, u"v1"_s, plural);
    resource.kind = kind;
    resource.singularName = kind.toLower();
    resource.namespaced = true;
    resource.verbs = {u"list"_s, u"watch"_s, u"get"_s};
    resource.shortNames = shortNames;
    resource.preferredVersion = true;
    return resource;
}

DiscoveryResult discovery()
{
    DiscoveryResult result;
    result.resources = {
        resource({}, u"pods"_s, u"Pod"_s, {u"po"_s}),
        resource({}, u"podtemplates"_s, u"PodTemplate"_s, {}),
        resource({}, u"configmaps"_s, u"ConfigMap"_s, {u"cm"_s}),
        resource(u"apps"_s, u"deployments"_s, u"Deployment"_s, {u"deploy"_s}),
        resource(u"policy"_s, u"poddisruptionbudgets"_s, u"PodDisruptionBudget"_s, {u"pdb"_s}),
    };
    return result;
}

} // namespace

class TestCommandBarModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void finds_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QStringList>("rows"); // "kind:text", best first
        QTest::newRow("a short name resolves first") << u"po"_s
                                                     << QStringList{u"Resource:pods"_s, u"Resource:podtemplates"_s, u"Resource:poddisruptionbudgets.policy"_s};
        QTest::newRow("deploy") << u"deploy"_s << QStringList{u"Resource:deployments.apps"_s};
        QTest::newRow("cm") << u"cm"_s << QStringList{u"Resource:configmaps"_s};
        QTest::newRow("a kind, any case") << u"configmap"_s << QStringList{u"Resource:configmaps"_s};
        QTest::newRow("plural.group") << u"deployments.apps"_s << QStringList{u"Resource:deployments.apps"_s};
        QTest::newRow("a context") << u"prod"_s << QStringList{u"Context:prod"_s};
        QTest::newRow("a namespace, then objects in none") << u"bill"_s << QStringList{u"Namespace:billing"_s};
        QTest::newRow("an action, shortcut in its detail") << u"open"_s << QStringList{u"Action:Open Kubeconfig…"_s};
        QTest::newRow("objects by name, prefix before contains")
            << u"web"_s << QStringList{u"Object:shop/web-1"_s, u"Object:shop/web-2"_s, u"Object:shop/old-web"_s};
        QTest::newRow("a namespace is not an object's name") << u"shop"_s << QStringList{u"Namespace:shop"_s};
        QTest::newRow(":kind asks for a kind only") << u":deploy"_s << QStringList{u"Resource:deployments.apps"_s};
        QTest::newRow(":kind -n NS") << u":po -n shop"_s
                                     << QStringList{u"Resource:pods"_s, u"Resource:podtemplates"_s, u"Resource:poddisruptionbudgets.policy"_s};
        QTest::newRow(": alone finds nothing") << u":"_s << QStringList{};
        QTest::newRow("nothing matches") << u"zzz"_s << QStringList{};
        QTest::newRow("empty") << QString() << QStringList{};
    }

    void finds()
    {
        QFETCH(QString, query);
        QFETCH(QStringList, rows);
        CommandBarModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAction open(u"&Open Kubeconfig…"_s);
        open.setShortcut(QKeySequence(u"Ctrl+O"_s));
        QAction quit(u"&Quit"_s);
        QAction disabled(u"Open nothing"_s);
        disabled.setEnabled(false);
        model.setActions({&open, &quit, &disabled});
        model.setDiscovery(discovery());
        model.setContexts({u"kind-dev"_s, u"prod"_s});
        model.setNamespaces({u"billing"_s, u"shop"_s});
        model.setObjectKeys({u"shop/old-web"_s, u"shop/web-2"_s, u"shop/web-1"_s, u"billing/api-7"_s});
        model.setQuery(query);
        QStringList found;
        for (int row = 0; row < model.rowCount(); ++row) {
            const CommandBarModel::Entry &entry = model.entry(row);
            found.append(QString::fromLatin1(QMetaEnum::fromType<CommandBarModel::Kind>().valueToKey(int(entry.kind))) + u':' + entry.text);
        }
        QCOMPARE(found, rows);
        if (!rows.isEmpty() && rows.constFirst() == u"Action:Open Kubeconfig…"_s) {
            QVERIFY2(model.data(model.index(0, 0), CommandBarModel::DetailRole).toString().contains(u"Ctrl+O"_s), "the shortcut is shown");
            QCOMPARE(model.entry(0).action.data(), &open);
        }
        if (query.contains(u"-n shop"_s)) {
            QCOMPARE(model.entry(0).namespaceName, u"shop"_s);
        }
    }

    void objectsAreCapped()
    {
        CommandBarModel model;
        QStringList keys;
        for (int i = 0; i < 500; ++i) {
            keys.append(u"shop/web-%1"_s.arg(i));
        }
        model.setObjectKeys(keys);
        model.setQuery(u"web"_s);
        QCOMPARE(model.rowCount(), CommandBarModel::MaxObjects);
        model.setQuery(u"web-499"_s);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.entry(0).name, u"shop/web-499"_s);
    }
};

CACHESCOPE_TEST_MAIN(TestCommandBarModel)
#include "tst_commandbarmodel.moc"
