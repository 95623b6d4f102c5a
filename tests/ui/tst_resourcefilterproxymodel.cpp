// ResourceFilterProxyModel over a ResourceTableModel: text filter (name or namespace substring,
// case-insensitive), label selector, both together, typed sorting, and rows that move or
// leave the filtered view as batches change them.
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

KubeObject pod(const QString &ns, const QString &name, int restarts, const QString &labels, const QString &rv = u"1"_s)
{
    const QString json = uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%5","labels":{%3},
        "creationTimestamp":"2024-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"}]},
        "status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":%4,"state":{"running":{}}}]}})"_s.arg(name, ns, labels)
                             .arg(restarts)
                             .arg(rv);
    return *KubeObject::fromJson(json.toUtf8());
}

QStringList visibleNames(const QAbstractItemModel &proxy)
{
    QStringList names;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        names.append(proxy.index(row, 0).data(ResourceTableRoles::KeyRole).toString());
    }
    return names;
}

} // namespace

class TestResourceFilterProxyModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void filters_data();
    void filters();
    void sortsByTypedValues();
    void followsChanges();

private:
    std::unique_ptr<ResourceTableModel> m_model;
    std::unique_ptr<ResourceFilterProxyModel> m_proxy;
    std::unique_ptr<QAbstractItemModelTester> m_modelTester;
    std::unique_ptr<QAbstractItemModelTester> m_proxyTester;
};

void TestResourceFilterProxyModel::init()
{
    m_model = std::make_unique<ResourceTableModel>();
    m_model->setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    m_proxy = std::make_unique<ResourceFilterProxyModel>();
    m_modelTester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_proxyTester = std::make_unique<QAbstractItemModelTester>(m_proxy.get(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    m_proxy->setSourceModel(m_model.get());
    m_proxy->sort(0, Qt::AscendingOrder);
    const QList<KubeObject> pods{
        pod(u"shop"_s, u"web-1"_s, 10, uR"("app":"web","tier":"front")"_s),
        pod(u"shop"_s, u"web-2"_s, 9, uR"("app":"web","tier":"front")"_s),
        pod(u"shop"_s, u"db-0"_s, 0, uR"("app":"db")"_s),
        pod(u"billing"_s, u"api-7"_s, 2, uR"("app":"api","tier":"back")"_s),
        pod(u"kube-system"_s, u"coredns-1"_s, 1, QString()),
    };
    QList<Notification> batch;
    for (const KubeObject &object : pods) {
        batch.append(Notification::add(object.namespaceName() + u'/' + object.name(), object, true));
    }
    m_model->applyBatch(batch);
}

void TestResourceFilterProxyModel::cleanup()
{
    m_proxyTester.reset();
    m_modelTester.reset();
    m_proxy.reset();
    m_model.reset();
}

void TestResourceFilterProxyModel::filters_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QStringList>("expected"); // sorted by name

    QTest::newRow("no filter shows all") << QString() << QString()
                                         << QStringList{u"billing/api-7"_s, u"kube-system/coredns-1"_s, u"shop/db-0"_s, u"shop/web-1"_s, u"shop/web-2"_s};
    QTest::newRow("name substring") << u"web"_s << QString() << QStringList{u"shop/web-1"_s, u"shop/web-2"_s};
    QTest::newRow("case-insensitive") << u"WEB-2"_s << QString() << QStringList{u"shop/web-2"_s};
    QTest::newRow("namespace substring") << u"bill"_s << QString() << QStringList{u"billing/api-7"_s};
    QTest::newRow("no match") << u"nothing"_s << QString() << QStringList{};
    QTest::newRow("selector equals") << QString() << u"app=web"_s << QStringList{u"shop/web-1"_s, u"shop/web-2"_s};
    QTest::newRow("selector exists") << QString() << u"tier"_s << QStringList{u"billing/api-7"_s, u"shop/web-1"_s, u"shop/web-2"_s};
    QTest::newRow("selector does not exist") << QString() << u"!app"_s << QStringList{u"kube-system/coredns-1"_s};
    QTest::newRow("selector notin matches objects without the key")
        << QString() << u"app notin (web,db)"_s << QStringList{u"billing/api-7"_s, u"kube-system/coredns-1"_s};
    QTest::newRow("text and selector together") << u"shop"_s << u"app!=web"_s << QStringList{u"shop/db-0"_s};
}

void TestResourceFilterProxyModel::filters()
{
    QFETCH(QString, text);
    QFETCH(QString, selector);
    QFETCH(QStringList, expected);

    m_proxy->setFilterText(text);
    m_proxy->setLabelSelector(std::get<LabelSelector>(LabelSelector::parse(selector)));
    QCOMPARE(visibleNames(*m_proxy), expected);
    // Clearing brings everything back.
    m_proxy->setFilterText(QString());
    m_proxy->setLabelSelector(LabelSelector());
    QCOMPARE(m_proxy->rowCount(), 5);
}

void TestResourceFilterProxyModel::sortsByTypedValues()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    // As numbers: 0, 1, 2, 9, 10 (as text, "10" would come before "2").
    QCOMPARE(visibleNames(*m_proxy), (QStringList{u"shop/db-0"_s, u"kube-system/coredns-1"_s, u"billing/api-7"_s, u"shop/web-2"_s, u"shop/web-1"_s}));
    m_proxy->sort(restarts, Qt::DescendingOrder);
    QCOMPARE(visibleNames(*m_proxy).constFirst(), u"shop/web-1"_s);
    // Equal values keep the key order: all ages are equal here.
    m_proxy->sort(int(m_model->columns().indexOf(ResourceColumns::Field::Age)), Qt::AscendingOrder);
    QCOMPARE(visibleNames(*m_proxy), (QStringList{u"billing/api-7"_s, u"kube-system/coredns-1"_s, u"shop/db-0"_s, u"shop/web-1"_s, u"shop/web-2"_s}));
}

void TestResourceFilterProxyModel::followsChanges()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    m_proxy->setLabelSelector(std::get<LabelSelector>(LabelSelector::parse(u"tier"_s)));
    QCOMPARE(visibleNames(*m_proxy), (QStringList{u"billing/api-7"_s, u"shop/web-2"_s, u"shop/web-1"_s}));

    // db-0 gains a tier label and 50 restarts: it enters the view, at the end.
    // web-2 loses its tier label: it leaves. A new pod with a tier arrives.
    const KubeObject oldDb = m_model->objectAt(m_model->rowOfKey(u"shop/db-0"_s));
    const KubeObject oldWeb = m_model->objectAt(m_model->rowOfKey(u"shop/web-2"_s));
    m_model->applyBatch({
        Notification::update(u"shop/db-0"_s, oldDb, pod(u"shop"_s, u"db-0"_s, 50, uR"("app":"db","tier":"data")"_s, u"2"_s)),
        Notification::update(u"shop/web-2"_s, oldWeb, pod(u"shop"_s, u"web-2"_s, 9, uR"("app":"web")"_s, u"2"_s)),
        Notification::add(u"shop/cache-0"_s, pod(u"shop"_s, u"cache-0"_s, 3, uR"("tier":"data")"_s), false),
    });
    QCOMPARE(visibleNames(*m_proxy), (QStringList{u"billing/api-7"_s, u"shop/cache-0"_s, u"shop/web-1"_s, u"shop/db-0"_s}));

    // Deleting api-7 (a hole filled from the tail in the source) keeps the view sorted.
    m_model->applyBatch({Notification::remove(u"billing/api-7"_s, m_model->objectAt(m_model->rowOfKey(u"billing/api-7"_s)))});
    QCOMPARE(visibleNames(*m_proxy), (QStringList{u"shop/cache-0"_s, u"shop/web-1"_s, u"shop/db-0"_s}));
}

QTEST_GUILESS_MAIN(TestResourceFilterProxyModel)
#include "tst_resourcefilterproxymodel.moc"
