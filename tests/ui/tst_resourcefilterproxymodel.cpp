// ResourceFilterProxyModel over a ResourceTableModel: text filter (name or namespace substring,
// case-insensitive), label selector, both together, typed sorting, and rows that move or
// leave the filtered view as batches change them.
#include "core/util/backgroundpool.h"
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <functional>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

KubeObject pod(const QString &ns, const QString &name, int restarts, const QString &labels, const QString &rv = u"1"_s)
{
    const QString json = uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%5","labels":{%3},
        "creationTimestamp":"2024-01-01T00:00:00Z"},"spec":{"containers":[{"name":"a"}]},
        "status":{"phase":"%6","containerStatuses":[{"ready":true,"restartCount":%4,"state":{"running":{}}}]}})"_s.arg(name, ns, labels)
                             .arg(restarts)
                             .arg(rv)
                             // Some variety for sorting by status.
                             .arg(restarts % 3 == 1 ? u"Pending"_s : u"Running"_s);
    return *KubeObject::fromJson(json.toUtf8());
}

KubeObject podCreated(const QString &ns, const QString &name, int restarts, const QString &created)
{
    const QString json = uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"1","creationTimestamp":"%3"},
        "spec":{"containers":[{"name":"a"}],"nodeName":"node-%4"},
        "status":{"phase":"Running","containerStatuses":[{"ready":true,"restartCount":%4,"state":{"running":{}}}]}})"_s.arg(name, ns, created)
                             .arg(restarts);
    return *KubeObject::fromJson(json.toUtf8());
}

// plainOrder() is the model's rows in the proxy's promised order, by compareRows() alone.
QStringList plainOrder(const ResourceTableModel &model, int column, Qt::SortOrder order)
{
    QList<int> rows;
    for (int row = 0; row < model.rowCount(); ++row) {
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), [&](int a, int b) {
        const int compared = model.compareRows(a, b, column);
        return order == Qt::AscendingOrder ? compared < 0 : compared > 0;
    });
    QStringList keys;
    for (const int row : std::as_const(rows)) {
        keys.append(model.index(row, 0).data(ResourceTableRoles::KeyRole).toString());
    }
    return keys;
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
    void filtersInSequence_data();
    void filtersInSequence();
    void aFilterOverManyRowsKeepsThosePassingInOrder();
    void sortsByTypedValues();
    void followsChanges();
    void randomBatchesKeepTheOrder_data();
    void randomBatchesKeepTheOrder();
    void aBatchThatMovesNothingIsOneDataChanged();
    void sortAfterChurnEqualsAPlainSort_data();
    void sortAfterChurnEqualsAPlainSort();
    void aLargeSortInHalvesEqualsAPlainSort_data();
    void aLargeSortInHalvesEqualsAPlainSort();
    void sortingByOneColumnAfterAnotherEqualsAPlainSort();
    void agesTickMovesNothing_data();
    void agesTickMovesNothing();
    void aSortByAComputedColumnWaitsForItsCellsOffTheGuiThread();
    void aLargeBatchDefersTheSortToItsCells();
    void aBatchSmallBesideManyRowsIsSortedWithItsCells();
    void newColumnsWhileCellsAreMadeStartOver();
    void aTableDeletedWhileItsCellsAreMadeIsNoProblem();
    void otherSourceModelsWork();
    void aSourceThatDiesFirstEmptiesTheProxy();

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

void TestResourceFilterProxyModel::filtersInSequence_data()
{
    QTest::addColumn<QStringList>("texts"); // applied in turn, each as "text|selector"

    QTest::newRow("narrowing text: typed a letter at a time") << QStringList{u"w|"_s, u"we|"_s, u"web|"_s, u"web-2|"_s};
    QTest::newRow("widening text: deleted a letter at a time") << QStringList{u"web-2|"_s, u"web-|"_s, u"e|"_s, u"|"_s};
    QTest::newRow("another text, neither narrower nor wider") << QStringList{u"web|"_s, u"db|"_s, u"shop|"_s};
    QTest::newRow("requirements added, then one dropped") << QStringList{u"|tier"_s, u"|tier,app=web"_s, u"|app=web"_s, u"|app!=web"_s};
    QTest::newRow("text and selector narrowing each other") << QStringList{u"s|"_s, u"sh|tier"_s, u"sh|tier,!app"_s, u"s|"_s};
}

// Filters typed one after another (narrowing keeps the rows shown, widening sorts again) show
// exactly what the same filter shows when set from scratch, in the same order.
void TestResourceFilterProxyModel::filtersInSequence()
{
    QFETCH(QStringList, texts);

    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_proxy->sort(restarts, Qt::DescendingOrder);
    for (const QString &step : std::as_const(texts)) {
        const QString text = step.section(u'|', 0, 0);
        const LabelSelector selector = std::get<LabelSelector>(LabelSelector::parse(step.section(u'|', 1)));
        m_proxy->setFilterText(text);
        m_proxy->setLabelSelector(selector);
        ResourceFilterProxyModel fresh;
        fresh.setSourceModel(m_model.get());
        fresh.setFilterText(text);
        fresh.setLabelSelector(selector);
        fresh.sort(restarts, Qt::DescendingOrder);
        QCOMPARE(visibleNames(*m_proxy), visibleNames(fresh));
    }
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

void TestResourceFilterProxyModel::randomBatchesKeepTheOrder_data()
{
    QTest::addColumn<QString>("column"); // "restarts", "name" or "none" (the source's order)
    QTest::addColumn<Qt::SortOrder>("order");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<quint32>("seed");

    QTest::newRow("by restarts, ascending") << u"restarts"_s << Qt::AscendingOrder << QString() << 1u;
    QTest::newRow("by restarts, descending") << u"restarts"_s << Qt::DescendingOrder << QString() << 2u;
    QTest::newRow("by name, with a selector") << u"name"_s << Qt::AscendingOrder << u"tier=front"_s << 3u;
    QTest::newRow("by restarts, descending, with a selector") << u"restarts"_s << Qt::DescendingOrder << u"tier!=front"_s << 4u;
    QTest::newRow("unsorted, with a selector") << u"none"_s << Qt::AscendingOrder << u"tier=front"_s << 5u;
    QTest::newRow("by age (a computed time), descending") << u"age"_s << Qt::DescendingOrder << QString() << 6u;
    QTest::newRow("by status (text, case ignored)") << u"status"_s << Qt::AscendingOrder << QString() << 7u;
}

// Random batches of adds, updates (restarts and labels change) and deletes (holes filled from
// the source's tail): after each batch the proxy must show exactly the passing rows in the
// reference order, and a persistent index must still point at the object it was made for.
void TestResourceFilterProxyModel::randomBatchesKeepTheOrder()
{
    QFETCH(QString, column);
    QFETCH(Qt::SortOrder, order);
    QFETCH(QString, selector);
    QFETCH(quint32, seed);

    const int restartsColumn = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    const QHash<QString, int> columns{
        {u"restarts"_s, restartsColumn},
        {u"name"_s, 0},
        {u"age"_s, int(m_model->columns().indexOf(ResourceColumns::Field::Age))},
        {u"status"_s, int(m_model->columns().indexOf(ResourceColumns::Field::PodStatus))},
    };
    const int sortColumn = columns.value(column, -1);
    const LabelSelector labels = std::get<LabelSelector>(LabelSelector::parse(selector));
    m_proxy->setLabelSelector(labels);
    m_proxy->sort(sortColumn, order);

    QRandomGenerator random(seed);
    QHash<QString, int> restartsOf; // the truth beside the model
    for (int row = 0; row < m_model->rowCount(); ++row) {
        restartsOf.insert(m_model->index(row, 0).data(ResourceTableRoles::KeyRole).toString(),
                          m_model->index(row, restartsColumn).data(ResourceTableRoles::SortRole).toInt());
    }
    int serial = 0;
    for (int round = 0; round < 60; ++round) {
        // Follow one visible object with a persistent index, as a selection does.
        QPersistentModelIndex followed;
        QString followedKey;
        if (m_proxy->rowCount() > 0) {
            followed = m_proxy->index(int(random.bounded(m_proxy->rowCount())), 1);
            followedKey = followed.data(ResourceTableRoles::KeyRole).toString();
        }
        QList<Notification> batch;
        QSet<QString> touched;
        const int changes = 1 + int(random.bounded(12));
        for (int i = 0; i < changes; ++i) {
            const int kind = int(random.bounded(3));
            const QStringList keys = restartsOf.keys();
            if (kind == 0 || keys.size() < 4) {
                const QString name = u"pod-%1"_s.arg(serial++);
                const int restarts = int(random.bounded(20));
                const QString tier = random.bounded(2) ? u"front"_s : u"back"_s;
                batch.append(Notification::add(u"ns/"_s + name, pod(u"ns"_s, name, restarts, uR"("tier":"%1")"_s.arg(tier)), false));
                restartsOf.insert(u"ns/"_s + name, restarts);
                touched.insert(u"ns/"_s + name);
                continue;
            }
            const QString key = keys.at(int(random.bounded(int(keys.size()))));
            if (touched.contains(key)) {
                continue; // a batch carries one notification per key
            }
            touched.insert(key);
            const KubeObject old = m_model->objectAt(m_model->rowOfKey(key));
            if (kind == 1) {
                const int restarts = int(random.bounded(20));
                const QString tier = random.bounded(2) ? u"front"_s : u"back"_s;
                batch.append(Notification::update(key, old, pod(old.namespaceName(), old.name(), restarts, uR"("tier":"%1")"_s.arg(tier), u"9"_s)));
                restartsOf.insert(key, restarts);
            } else {
                batch.append(Notification::remove(key, old));
                restartsOf.remove(key);
            }
        }
        m_model->applyBatch(batch);

        // The reference: the passing rows of the model, ordered as the proxy promises.
        QList<int> expectedRows;
        for (int row = 0; row < m_model->rowCount(); ++row) {
            if (labels.matches(m_model->objectAt(row).labels())) {
                expectedRows.append(row);
            }
        }
        std::stable_sort(expectedRows.begin(), expectedRows.end(), [&](int a, int b) {
            if (sortColumn < 0) {
                return a < b;
            }
            const int compared = m_model->compareRows(a, b, sortColumn);
            return order == Qt::AscendingOrder ? compared < 0 : compared > 0;
        });
        QStringList expected;
        for (const int row : std::as_const(expectedRows)) {
            expected.append(m_model->index(row, 0).data(ResourceTableRoles::KeyRole).toString());
        }
        QCOMPARE(visibleNames(*m_proxy), expected);
        // Restart counts shown are the truth's.
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            const QString key = m_proxy->index(row, 0).data(ResourceTableRoles::KeyRole).toString();
            QCOMPARE(m_proxy->index(row, restartsColumn).data(ResourceTableRoles::SortRole).toInt(), restartsOf.value(key));
        }
        if (!followedKey.isEmpty()) {
            const bool stillShown = expected.contains(followedKey);
            QCOMPARE(followed.isValid(), stillShown);
            if (stillShown) {
                QCOMPARE(followed.data(ResourceTableRoles::KeyRole).toString(), followedKey);
                QCOMPARE(followed.column(), 1);
            }
        }
    }
}

void TestResourceFilterProxyModel::aBatchThatMovesNothingIsOneDataChanged()
{
    m_proxy->sort(0, Qt::AscendingOrder); // by name: a new restart count moves nothing
    QSignalSpy layouts(m_proxy.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy changes(m_proxy.get(), &QAbstractItemModel::dataChanged);
    const KubeObject web = m_model->objectAt(m_model->rowOfKey(u"shop/web-1"_s));
    const KubeObject db = m_model->objectAt(m_model->rowOfKey(u"shop/db-0"_s));
    m_model->applyBatch({
        Notification::update(u"shop/web-1"_s, web, pod(u"shop"_s, u"web-1"_s, 11, uR"("app":"web","tier":"front")"_s, u"2"_s)),
        Notification::update(u"shop/db-0"_s, db, pod(u"shop"_s, u"db-0"_s, 1, uR"("app":"db")"_s, u"2"_s)),
    });
    QCOMPARE(layouts.size(), 0);
    QCOMPARE(changes.size(), 1);
    // One range over the rows the batch changed: db-0 (row 2) to web-1 (row 3), all columns.
    QCOMPARE(changes.constFirst().at(0).toModelIndex().row(), 2);
    QCOMPARE(changes.constFirst().at(1).toModelIndex().row(), 3);
    QCOMPARE(changes.constFirst().at(1).toModelIndex().column(), m_proxy->columnCount() - 1);

    // A change of the sort column's value that moves the row: one layout change.
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    layouts.clear();
    const KubeObject api = m_model->objectAt(m_model->rowOfKey(u"billing/api-7"_s));
    m_model->applyBatch({Notification::update(u"billing/api-7"_s, api, pod(u"billing"_s, u"api-7"_s, 99, uR"("app":"api","tier":"back")"_s, u"2"_s))});
    QCOMPARE(layouts.size(), 1);
    QCOMPARE(visibleNames(*m_proxy).constLast(), u"billing/api-7"_s);
}

// Over 20,000 rows the filter is checked in pieces, on the background pool's free threads too:
// the rows shown are exactly those that pass, in the sort's order, as the filter narrows, widens
// and changes kind.
void TestResourceFilterProxyModel::aFilterOverManyRowsKeepsThosePassingInOrder()
{
    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    ResourceFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.sort(0, Qt::DescendingOrder);
    QList<Notification> batch;
    static const QStringList tiers{u"web"_s, u"db"_s, u"cache"_s};
    for (int i = 0; i < 20000; ++i) {
        const QString ns = i % 2 ? u"odd"_s : u"even"_s;
        const QString name = u"pod-%1"_s.arg(i, 5, 10, QChar(u'0'));
        batch.append(Notification::add(ns + u'/' + name, pod(ns, name, 0, uR"("tier":"%1")"_s.arg(tiers.at(i % 3))), true));
    }
    model.applyBatch(batch);
    const QStringList all = plainOrder(model, 0, Qt::DescendingOrder);
    QCOMPARE(visibleNames(proxy), all);
    const auto keep = [&all](const std::function<bool(int)> &passes) {
        QStringList kept;
        for (const QString &key : all) {
            if (passes(key.section(u'-', 1).toInt())) {
                kept.append(key);
            }
        }
        return kept;
    };
    const auto webSelector = std::get<LabelSelector>(LabelSelector::parse(u"tier=web"_s));

    proxy.setFilterText(u"7"_s);
    QCOMPARE(visibleNames(proxy), keep([](int i) { return QString::number(i).contains(u'7'); }));
    proxy.setFilterText(u"77"_s); // narrows: kept from the rows shown
    QCOMPARE(visibleNames(proxy), keep([](int i) { return QString::number(i).contains(u"77"_s); }));
    proxy.setFilterText(u"ODD"_s); // namespaces too, case-insensitive
    QCOMPARE(visibleNames(proxy), keep([](int i) { return i % 2 == 1; }));
    proxy.setLabelSelector(webSelector);
    QCOMPARE(visibleNames(proxy), keep([](int i) { return i % 2 == 1 && i % 3 == 0; }));
    proxy.setFilterText(QString());
    QCOMPARE(visibleNames(proxy), keep([](int i) { return i % 3 == 0; }));
    proxy.setLabelSelector(LabelSelector());
    QCOMPARE(visibleNames(proxy), all);
}

void TestResourceFilterProxyModel::sortAfterChurnEqualsAPlainSort_data()
{
    QTest::addColumn<int>("field"); // ResourceColumns::Field
    QTest::addColumn<Qt::SortOrder>("order");

    QTest::newRow("by name (text)") << int(ResourceColumns::Field::Name) << Qt::AscendingOrder;
    QTest::newRow("by name, descending") << int(ResourceColumns::Field::Name) << Qt::DescendingOrder;
    QTest::newRow("by namespace: long namespaces, the keys break the ties") << int(ResourceColumns::Field::Namespace) << Qt::AscendingOrder;
    QTest::newRow("by namespace, descending") << int(ResourceColumns::Field::Namespace) << Qt::DescendingOrder;
    QTest::newRow("by restarts (a number with many ties)") << int(ResourceColumns::Field::PodRestarts) << Qt::AscendingOrder;
    QTest::newRow("by restarts, descending") << int(ResourceColumns::Field::PodRestarts) << Qt::DescendingOrder;
    QTest::newRow("by age") << int(ResourceColumns::Field::Age) << Qt::AscendingOrder;
    QTest::newRow("by age, descending") << int(ResourceColumns::Field::Age) << Qt::DescendingOrder;
    QTest::newRow("by status (folded text, all equal)") << int(ResourceColumns::Field::PodStatus) << Qt::AscendingOrder;
    QTest::newRow("by node (text, missing first)") << int(ResourceColumns::Field::Node) << Qt::AscendingOrder;
}

// Names and namespaces that share long prefixes, beyond Latin-1 too, so that the sort's packed
// prefixes tie and the keys and texts decide: after churn, and after sorting again from scratch,
// the proxy's order is a plain sort of the rows by compareRows().
void TestResourceFilterProxyModel::sortAfterChurnEqualsAPlainSort()
{
    QFETCH(int, field);
    QFETCH(Qt::SortOrder, order);

    const int column = int(m_model->columns().indexOf(ResourceColumns::Field(field)));
    QVERIFY(column >= 0);
    const QStringList namespaces{u"team-platform-infrastructure"_s, u"team-platform-infra"_s, u"team-platform"_s, u"\u00e9quipe"_s, u"\u65e5\u672c"_s, u"a"_s};
    const QStringList stems{u"checkout-service-7d9f8b6c5d-"_s,
                            u"checkout-service-7d9f8b6c5e-"_s,
                            u"checkout-service-canary-rollout-7d9f8b6c5d-"_s, // past the packed characters
                            u"web-"_s,
                            u"\u00fe-"_s,
                            u"\u4e00-"_s,
                            u"Web-"_s};
    QRandomGenerator random(42);
    QStringList keys;
    const auto makePod = [&](const QString &ns, const QString &name) {
        const QString created = QDateTime::fromSecsSinceEpoch(1700000000 + qint64(random.bounded(50)), Qt::UTC).toString(Qt::ISODate);
        return podCreated(ns, name, int(random.bounded(4)), created);
    };
    QList<Notification> batch;
    for (int i = 0; i < 300; ++i) {
        const QString ns = namespaces.at(int(random.bounded(int(namespaces.size()))));
        const QString name = stems.at(int(random.bounded(int(stems.size())))) + QString::number(random.bounded(40));
        const QString key = ns + u'/' + name;
        if (keys.contains(key)) {
            continue;
        }
        keys.append(key);
        KubeObject object = makePod(ns, name);
        // Some pods not yet scheduled: no node.
        if (random.bounded(5) == 0) {
            object = pod(ns, name, 0, QString());
        }
        batch.append(Notification::add(key, object, true));
    }
    m_model->applyBatch(batch);
    m_proxy->sort(column, order);
    // Over 256 rows: a column whose cells are parsed is sorted once they were made off this thread.
    QTRY_VERIFY(!m_proxy->isSortPending());
    QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, column, order));

    // Churn: updates (new restarts), deletes (holes filled from the tail) and adds.
    for (int round = 0; round < 20; ++round) {
        QList<Notification> changes;
        QSet<QString> touched;
        for (int i = 0; i < 15; ++i) {
            const QString key = keys.at(int(random.bounded(int(keys.size()))));
            if (touched.contains(key)) {
                continue;
            }
            touched.insert(key);
            const int row = m_model->rowOfKey(key);
            const QString ns = key.section(u'/', 0, 0);
            const QString name = key.section(u'/', 1);
            if (row < 0) {
                changes.append(Notification::add(key, makePod(ns, name), false));
            } else if (random.bounded(3) == 0) {
                changes.append(Notification::remove(key, m_model->objectAt(row)));
            } else {
                changes.append(Notification::update(key, m_model->objectAt(row), makePod(ns, name)));
            }
        }
        m_model->applyBatch(changes);
        QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, column, order));
    }
    // Sorted again from scratch, the same order.
    m_proxy->sort(-1);
    m_proxy->sort(column, order);
    QTRY_VERIFY(!m_proxy->isSortPending());
    QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, column, order));
}

void TestResourceFilterProxyModel::aLargeSortInHalvesEqualsAPlainSort_data()
{
    QTest::addColumn<int>("field"); // ResourceColumns::Field
    QTest::addColumn<Qt::SortOrder>("order");

    QTest::newRow("by name") << int(ResourceColumns::Field::Name) << Qt::AscendingOrder;
    QTest::newRow("by name, descending") << int(ResourceColumns::Field::Name) << Qt::DescendingOrder;
    QTest::newRow("by namespace: six values, packed alike past the first") << int(ResourceColumns::Field::Namespace) << Qt::AscendingOrder;
    QTest::newRow("by restarts, descending: four numbers") << int(ResourceColumns::Field::PodRestarts) << Qt::DescendingOrder;
    QTest::newRow("by age") << int(ResourceColumns::Field::Age) << Qt::AscendingOrder;
    QTest::newRow("by node: missing first") << int(ResourceColumns::Field::Node) << Qt::AscendingOrder;
}

// From ResourceFilterProxyModel::ParallelSortRows rows on, a sort splits the rows around a
// sampled value and sorts both halves at once; the order is still a plain sort's, whatever the
// values' spread: many equal values, long shared prefixes, texts beyond Latin-1, rows without
// a value. Then the same after a batch of changes and a sort from scratch.
void TestResourceFilterProxyModel::aLargeSortInHalvesEqualsAPlainSort()
{
    QFETCH(int, field);
    QFETCH(Qt::SortOrder, order);

    // Models of their own, without the item model testers, which check every row at each change.
    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    ResourceFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const int column = int(model.columns().indexOf(ResourceColumns::Field(field)));
    QVERIFY(column >= 0);
    const QStringList namespaces{u"team-platform-infrastructure"_s, u"team-platform-infra"_s, u"team-platform"_s, u"\u00e9quipe"_s, u"\u65e5\u672c"_s, u"a"_s};
    const QStringList stems{
        u"checkout-service-7d9f8b6c5d-"_s, u"checkout-service-canary-rollout-7d9f8b6c5d-"_s, u"web-"_s, u"\u00fe-"_s, u"\u4e00-"_s, u"Web-"_s};
    QRandomGenerator random(7);
    QSet<QString> keys;
    QList<Notification> batch;
    const auto makePod = [&random](const QString &ns, const QString &name) {
        if (random.bounded(5) == 0) {
            return pod(ns, name, 0, QString()); // not scheduled: no node
        }
        const QString created = QDateTime::fromSecsSinceEpoch(1700000000 + qint64(random.bounded(5000)), Qt::UTC).toString(Qt::ISODate);
        return podCreated(ns, name, int(random.bounded(4)), created);
    };
    while (keys.size() < qsizetype(ResourceFilterProxyModel::ParallelSortRows) + 4000) {
        const QString ns = namespaces.at(int(random.bounded(int(namespaces.size()))));
        const QString name = stems.at(int(random.bounded(int(stems.size())))) + QString::number(random.bounded(100000));
        const QString key = ns + u'/' + name;
        if (!keys.contains(key)) {
            keys.insert(key);
            batch.append(Notification::add(key, makePod(ns, name), true));
        }
    }
    model.applyBatch(batch);
    proxy.sort(column, order);
    QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSortPending(), 60000);
    QCOMPARE(visibleNames(proxy), plainOrder(model, column, order));

    // A batch of updates and deletes, then the same sort from scratch.
    QList<Notification> changes;
    for (int row = 0; row < model.rowCount(); row += 7) {
        const QString key = model.index(row, 0).data(ResourceTableRoles::KeyRole).toString();
        if (row % 2) {
            changes.append(Notification::remove(key, model.objectAt(row)));
        } else {
            changes.append(Notification::update(key, model.objectAt(row), makePod(key.section(u'/', 0, 0), key.section(u'/', 1))));
        }
    }
    model.applyBatch(changes);
    QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSortPending(), 60000);
    QCOMPARE(visibleNames(proxy), plainOrder(model, column, order));
    proxy.sort(-1);
    proxy.sort(column, order);
    QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSortPending(), 60000);
    QCOMPARE(visibleNames(proxy), plainOrder(model, column, order));
}

// Sort keys are refreshed in place, keeping the strings that are still the row's: a key made
// for one column and then another (a text after a number, a number after a text, a value after
// a missing one, and back) orders as a fresh one would.
void TestResourceFilterProxyModel::sortingByOneColumnAfterAnotherEqualsAPlainSort()
{
    QList<Notification> batch;
    for (int i = 0; i < 200; ++i) {
        const QString ns = i % 3 ? u"team-platform-infrastructure"_s : u"shop"_s;
        const QString name = u"checkout-service-canary-rollout-%1"_s.arg(i * 37 % 200);
        const KubeObject object = i % 4 ? podCreated(ns, name, i % 5, u"2024-01-01T00:%1:00Z"_s.arg(i % 60, 2, 10, QChar(u'0')))
                                        : pod(ns, name, i % 5, QString()); // no node, no age of its own
        batch.append(Notification::add(ns + u'/' + name, object, true));
    }
    m_model->applyBatch(batch);
    using Field = ResourceColumns::Field;
    const QList<Field> fields{
        Field::Name, Field::PodRestarts, Field::Name, Field::Age, Field::Node, Field::Age, Field::Namespace, Field::PodStatus, Field::Namespace, Field::Node};
    for (const Field field : fields) {
        const int column = int(m_model->columns().indexOf(field));
        QVERIFY(column >= 0);
        m_proxy->sort(column, Qt::AscendingOrder);
        QTRY_VERIFY(!m_proxy->isSortPending());
        QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, column, Qt::AscendingOrder));
    }
}

namespace {
// manyPods() is a batch of count pods in namespace "load", restarts scattered over 0..999.
QList<Notification> manyPods(int first, int count)
{
    QList<Notification> batch;
    for (int i = first; i < first + count; ++i) {
        const QString name = u"pod-%1"_s.arg(i, 4, 10, QChar(u'0'));
        batch.append(Notification::add(u"load/"_s + name, pod(u"load"_s, name, (i * 7919) % 1000, QString()), true));
    }
    return batch;
}
} // namespace

// Sorting 1,005 rows by restarts needs 1,005 documents parsed (~85 µs a pod): the table makes
// them on the thread pool, and the GUI thread sorts once they are in place. Until then the rows
// keep the order they had, and batches go on.
void TestResourceFilterProxyModel::aSortByAComputedColumnWaitsForItsCellsOffTheGuiThread()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_model->applyBatch(manyPods(0, 1000));
    const QStringList byName = visibleNames(*m_proxy);
    const qsizetype missing = m_model->cellsMissing();
    QVERIFY2(missing > ResourceTableModel::AffordableCells, qPrintable(QString::number(missing)));
    QSignalSpy pending(m_proxy.get(), &ResourceFilterProxyModel::sortPendingChanged);

    m_proxy->sort(restarts, Qt::DescendingOrder);
    QVERIFY(m_proxy->isSortPending());
    QCOMPARE(pending.count(), 1);
    QCOMPARE(m_proxy->sortColumn(), restarts);
    QCOMPARE(m_proxy->sortOrder(), Qt::DescendingOrder);
    QCOMPARE(visibleNames(*m_proxy), byName);
    QCOMPARE(m_model->cellsMissing(), missing); // none parsed here
    QVERIFY(m_model->isPreparingCells());
    // Not on Qt's global pool, whose threads the raster paint engine waits for.
    QCOMPARE(QThreadPool::globalInstance()->activeThreadCount(), 0);

    // Meanwhile: one pod restarts 5,000 times, another goes, a new one has 4,999.
    const QString changed = u"load/pod-0000"_s;
    const QString gone = u"load/pod-0001"_s;
    m_model->applyBatch({Notification::update(changed, m_model->objectAt(m_model->rowOfKey(changed)), pod(u"load"_s, u"pod-0000"_s, 5000, QString(), u"2"_s)),
                         Notification::remove(gone, m_model->objectAt(m_model->rowOfKey(gone))),
                         Notification::add(u"load/pod-1000"_s, pod(u"load"_s, u"pod-1000"_s, 4999, QString()), false)});
    QVERIFY(m_proxy->isSortPending());

    QTRY_VERIFY_WITH_TIMEOUT(!m_proxy->isSortPending(), 30000);
    QCOMPARE(pending.count(), 2);
    QCOMPARE(pending.at(1).at(0).toBool(), false);
    QCOMPARE(m_model->cellsMissing(), 0);
    QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, restarts, Qt::DescendingOrder));
    QCOMPARE(visibleNames(*m_proxy).mid(0, 2), (QStringList{changed, u"load/pod-1000"_s}));
    QVERIFY(!visibleNames(*m_proxy).contains(gone));
    // The other way round is the same rows reversed, at once.
    m_proxy->sort(restarts, Qt::AscendingOrder);
    QVERIFY(!m_proxy->isSortPending());
    QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, restarts, Qt::AscendingOrder));
}

// A batch that brings more rows without cells than a batch may parse (a first list, a relist)
// shows every row in the source's order until their cells are made, then sorts again.
void TestResourceFilterProxyModel::aLargeBatchDefersTheSortToItsCells()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    QVERIFY(!m_proxy->isSortPending());
    m_proxy->setFilterText(u"o"_s); // every pod but billing/api-7

    m_model->applyBatch(manyPods(0, 2000));
    QVERIFY(m_proxy->isSortPending());
    QCOMPARE(m_proxy->sortColumn(), restarts);
    QStringList passing = visibleNames(*m_model); // the source's order
    passing.removeIf([](const QString &key) { return !key.section(u'/', 1).contains(u'o') && !key.section(u'/', 0, 0).contains(u'o'); });
    QCOMPARE(visibleNames(*m_proxy), passing);

    QTRY_VERIFY_WITH_TIMEOUT(!m_proxy->isSortPending(), 30000);
    QStringList sorted = plainOrder(*m_model, restarts, Qt::AscendingOrder);
    sorted.removeIf([&passing](const QString &key) { return !passing.contains(key); });
    QCOMPARE(visibleNames(*m_proxy), sorted);
}

// Beside many rows a batch may be larger before it defers the sort (a sort of every row, once
// the cells are made, would cost more than parsing the batch's cells at once): up to
// batchCellLimit() rows it is merged in place with its cells made now; one more, and the sort
// waits for the cells.
void TestResourceFilterProxyModel::aBatchSmallBesideManyRowsIsSortedWithItsCells()
{
    // Models of their own, without the item model testers, which check every row at each change.
    ResourceTableModel model;
    model.setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    ResourceFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    const int restarts = int(model.columns().indexOf(ResourceColumns::Field::PodRestarts));
    const int rows = 70000;
    model.applyBatch(manyPods(0, rows));
    proxy.sort(restarts, Qt::AscendingOrder);
    QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSortPending(), 60000);
    const qsizetype limit = ResourceFilterProxyModel::batchCellLimit(rows);
    QCOMPARE(limit, qsizetype(rows / 64)); // above the fixed limit of four times the affordable cells
    QVERIFY(limit > ResourceTableModel::AffordableCells * 4);
    const auto restartedBatch = [&model](qsizetype count, int restartsNow) {
        QList<Notification> batch;
        for (int i = 0; i < count; ++i) {
            const int row = i * 61 % rows;
            const KubeObject old = model.objectAt(row);
            batch.append(Notification::update(model.index(row, 0).data(ResourceTableRoles::KeyRole).toString(),
                                              old,
                                              pod(old.namespaceName(), old.name(), (i * 13 + restartsNow) % 1000, QString(), u"2"_s)));
        }
        return batch;
    };

    model.applyBatch(restartedBatch(limit, 1));
    QVERIFY(!proxy.isSortPending());
    QCOMPARE(visibleNames(proxy), plainOrder(model, restarts, Qt::AscendingOrder));

    model.applyBatch(restartedBatch(limit + 1, 2));
    QVERIFY(proxy.isSortPending());
    QTRY_VERIFY_WITH_TIMEOUT(!proxy.isSortPending(), 60000);
    QCOMPARE(visibleNames(proxy), plainOrder(model, restarts, Qt::AscendingOrder));
}

// New columns while the cells are made: what was made for the old ones is dropped (the pool
// stops early), and the sort waits again, for the new columns' cells.
void TestResourceFilterProxyModel::newColumnsWhileCellsAreMadeStartOver()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_model->applyBatch(manyPods(0, 1000));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    QVERIFY(m_proxy->isSortPending());
    m_model->setColumns(ResourceColumns::forKind(u"Pod"_s, true));
    QCOMPARE(m_model->cellsMissing(), m_model->rowCount());
    QCOMPARE(m_proxy->sortColumn(), restarts);
    QTRY_VERIFY_WITH_TIMEOUT(!m_proxy->isSortPending(), 30000);
    QCOMPARE(m_model->cellsMissing(), 0);
    QCOMPARE(visibleNames(*m_proxy), plainOrder(*m_model, restarts, Qt::AscendingOrder));
}

// The table may go while the pool still parses its cells: the results go nowhere, and the
// proxy, empty, no longer waits.
void TestResourceFilterProxyModel::aTableDeletedWhileItsCellsAreMadeIsNoProblem()
{
    const int restarts = int(m_model->columns().indexOf(ResourceColumns::Field::PodRestarts));
    m_model->applyBatch(manyPods(0, 1000));
    m_proxy->sort(restarts, Qt::AscendingOrder);
    QVERIFY(m_proxy->isSortPending());
    m_modelTester.reset();
    m_model.reset();
    QVERIFY(!m_proxy->isSortPending());
    QCOMPARE(m_proxy->rowCount(), 0);
    backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
    QCOMPARE(m_proxy->rowCount(), 0);
}

void TestResourceFilterProxyModel::agesTickMovesNothing_data()
{
    QTest::addColumn<int>("field"); // ResourceColumns::Field the proxy sorts by
    QTest::addColumn<Qt::SortOrder>("order");

    QTest::newRow("sorted by age: ages change, their order does not") << int(ResourceColumns::Field::Age) << Qt::AscendingOrder;
    QTest::newRow("sorted by age, descending") << int(ResourceColumns::Field::Age) << Qt::DescendingOrder;
    QTest::newRow("sorted by name") << int(ResourceColumns::Field::Name) << Qt::AscendingOrder;
    QTest::newRow("sorted by restarts") << int(ResourceColumns::Field::PodRestarts) << Qt::DescendingOrder;
}

// The model's age tick (one dataChanged over the Age column, DisplayRole) reaches the views as
// one dataChanged over the proxy's rows, never as a layout change: nothing is re-sorted or
// re-filtered, whatever the sort column, and a table sorted by age stays sorted.
void TestResourceFilterProxyModel::agesTickMovesNothing()
{
    QFETCH(int, field);
    QFETCH(Qt::SortOrder, order);

    QList<Notification> batch;
    for (int i = 0; i < 40; ++i) {
        const QString name = u"pod-%1"_s.arg(i);
        const QString created = QDateTime::fromSecsSinceEpoch(1700000000 + (i * 7919) % 40, Qt::UTC).toString(Qt::ISODate);
        batch.append(Notification::add(u"ns/"_s + name, podCreated(u"ns"_s, name, i % 5, created), true));
    }
    m_model->applyBatch(batch);
    const int column = int(m_model->columns().indexOf(ResourceColumns::Field(field)));
    const int ageColumn = int(m_model->columns().indexOf(ResourceColumns::Field::Age));
    m_proxy->setLabelSelector(std::get<LabelSelector>(LabelSelector::parse(u"!tier"_s)));
    m_proxy->sort(column, order);
    const QStringList before = visibleNames(*m_proxy);
    QCOMPARE(before.size(), 42); // the 40 and db-0 and coredns-1 of init()

    QSignalSpy layoutsAboutToChange(m_proxy.get(), &QAbstractItemModel::layoutAboutToBeChanged);
    QSignalSpy layouts(m_proxy.get(), &QAbstractItemModel::layoutChanged);
    QSignalSpy changes(m_proxy.get(), &QAbstractItemModel::dataChanged);
    m_model->setAgeTickInterval(std::chrono::milliseconds(20));
    QVERIFY(changes.wait(5000));
    QTRY_VERIFY(changes.size() >= 2); // two ticks
    m_model->setAgeTickInterval(std::chrono::milliseconds(0));
    QCOMPARE(layoutsAboutToChange.size(), 0);
    QCOMPARE(layouts.size(), 0);
    for (const QList<QVariant> &change : std::as_const(changes)) {
        QCOMPARE(change.at(0).toModelIndex(), m_proxy->index(0, ageColumn));
        QCOMPARE(change.at(1).toModelIndex(), m_proxy->index(m_proxy->rowCount() - 1, ageColumn));
        QCOMPARE(change.at(2).value<QList<int>>(), QList<int>{Qt::DisplayRole});
    }
    QCOMPARE(visibleNames(*m_proxy), before);
    QStringList expected = plainOrder(*m_model, column, order);
    expected.removeIf([](const QString &key) { return key.startsWith(u"shop/web"_s) || key.startsWith(u"billing/"_s); });
    QCOMPARE(visibleNames(*m_proxy), expected);
}

// Any flat model with SortRole, KeyRole and ObjectRole: rows inserted and removed in the middle.
void TestResourceFilterProxyModel::otherSourceModelsWork()
{
    QStandardItemModel source;
    const auto item = [](const QString &key, int value) {
        auto *cell = new QStandardItem(key);
        cell->setData(key, ResourceTableRoles::KeyRole);
        cell->setData(value, ResourceTableRoles::SortRole);
        return cell;
    };
    source.appendRow(item(u"c"_s, 3));
    source.appendRow(item(u"a"_s, 1));
    ResourceFilterProxyModel proxy;
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.setSourceModel(&source);
    proxy.sort(0, Qt::DescendingOrder);
    QCOMPARE(visibleNames(proxy), (QStringList{u"c"_s, u"a"_s}));
    QPersistentModelIndex a = proxy.index(1, 0);
    source.insertRow(0, item(u"b"_s, 2));
    QCOMPARE(visibleNames(proxy), (QStringList{u"c"_s, u"b"_s, u"a"_s}));
    QCOMPARE(a.data(ResourceTableRoles::KeyRole).toString(), u"a"_s);
    source.removeRow(1); // "c", now in the middle of the source
    QCOMPARE(visibleNames(proxy), (QStringList{u"b"_s, u"a"_s}));
    QCOMPARE(a.row(), 1);
    source.item(0)->setData(0, ResourceTableRoles::SortRole); // "b" sinks below "a"
    QCOMPARE(visibleNames(proxy), (QStringList{u"a"_s, u"b"_s}));
    QCOMPARE(a.row(), 0);
}

void TestResourceFilterProxyModel::aSourceThatDiesFirstEmptiesTheProxy()
{
    QCOMPARE(m_proxy->rowCount(), 5);
    m_modelTester.reset();
    m_model.reset();
    QCOMPARE(m_proxy->rowCount(), 0);
    // Still usable: a new sort or filter over nothing.
    m_proxy->sort(1, Qt::DescendingOrder);
    m_proxy->setFilterText(u"web"_s);
    QCOMPARE(m_proxy->rowCount(), 0);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestResourceFilterProxyModel)
#include "tst_resourcefilterproxymodel.moc"
