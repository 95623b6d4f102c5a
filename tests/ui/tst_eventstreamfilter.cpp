#include "ui/models/eventstreamfilter.h"
#include "ui/models/eventstreammodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using Cachescope::EventStreamFilter;
using Cachescope::EventStreamModel;
using Cachescope::KubeObject;
using Cachescope::Notification;

namespace {

KubeObject pod(const QString &ns, const QString &name, int rv, const QString &phase)
{
    return *KubeObject::fromJson(uR"({"kind":"Pod","metadata":{"name":"%1","namespace":"%2","resourceVersion":"%3"},"status":{"phase":"%4"}})"_s
                                     .arg(name, ns, QString::number(rv), phase)
                                     .toUtf8());
}

QStringList visibleKeys(const EventStreamFilter &filter)
{
    QStringList keys;
    for (int row = 0; row < filter.rowCount(); ++row) {
        keys << filter.index(row, EventStreamModel::KeyColumn).data().toString() + u':' + filter.index(row, EventStreamModel::TypeColumn).data().toString();
    }
    return keys;
}

} // namespace

class TestEventStreamFilter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void filters_data();
    void filters();
    void newRowsAreFilteredToo();
};

// The stream every row of filters() starts from: adds, an update, a delete in two namespaces.
static void fill(EventStreamModel &model)
{
    model.setCluster(u"prod-eu"_s);
    model.append(u"pods"_s,
                 {Notification::add(u"shop/web"_s, pod(u"shop"_s, u"web"_s, 1, u"Pending"_s), false),
                  Notification::add(u"billing/db"_s, pod(u"billing"_s, u"db"_s, 2, u"Pending"_s), false),
                  Notification::update(u"shop/web"_s, pod(u"shop"_s, u"web"_s, 1, u"Pending"_s), pod(u"shop"_s, u"web"_s, 3, u"Running"_s)),
                  Notification::remove(u"billing/db"_s, pod(u"billing"_s, u"db"_s, 4, u"Failed"_s))});
}

void TestEventStreamFilter::filters_data()
{
    QTest::addColumn<QList<int>>("hiddenTypes");
    QTest::addColumn<QString>("namespaceName");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");

    const QList<int> none;
    QTest::newRow("no filter shows everything") << none << QString() << QString()
                                                << QStringList{u"shop/web:Added"_s, u"billing/db:Added"_s, u"shop/web:Updated"_s, u"billing/db:Deleted"_s};
    QTest::newRow("hide adds") << QList<int>{static_cast<int>(Notification::Type::Add)} << QString() << QString()
                               << QStringList{u"shop/web:Updated"_s, u"billing/db:Deleted"_s};
    QTest::newRow("only deletes") << QList<int>{static_cast<int>(Notification::Type::Add), static_cast<int>(Notification::Type::Update)} << QString()
                                  << QString() << QStringList{u"billing/db:Deleted"_s};
    QTest::newRow("namespace") << none << u"billing"_s << QString() << QStringList{u"billing/db:Added"_s, u"billing/db:Deleted"_s};
    QTest::newRow("text in the summary, any case") << none << QString() << u"RUNNING"_s << QStringList{u"shop/web:Updated"_s};
    QTest::newRow("text in the key") << none << QString() << u"db"_s << QStringList{u"billing/db:Added"_s, u"billing/db:Deleted"_s};
    QTest::newRow("text in the resourceVersion") << none << QString() << u"3"_s << QStringList{u"shop/web:Updated"_s};
    QTest::newRow("text in the cluster") << none << QString() << u"prod"_s
                                         << QStringList{u"shop/web:Added"_s, u"billing/db:Added"_s, u"shop/web:Updated"_s, u"billing/db:Deleted"_s};
    QTest::newRow("all filters together") << QList<int>{static_cast<int>(Notification::Type::Delete)} << u"shop"_s << u"web"_s
                                          << QStringList{u"shop/web:Added"_s, u"shop/web:Updated"_s};
    QTest::newRow("nothing matches") << none << QString() << u"no such thing"_s << QStringList{};
}

void TestEventStreamFilter::filters()
{
    QFETCH(QList<int>, hiddenTypes);
    QFETCH(QString, namespaceName);
    QFETCH(QString, text);
    QFETCH(QStringList, expected);

    EventStreamModel model;
    EventStreamFilter filter;
    QAbstractItemModelTester modelTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    fill(model);
    for (const int type : std::as_const(hiddenTypes)) {
        filter.setTypeShown(static_cast<Notification::Type>(type), false);
    }
    filter.setNamespace(namespaceName);
    filter.setText(text);
    QCOMPARE(visibleKeys(filter), expected);

    // Clearing every filter shows all rows again.
    for (const int type : std::as_const(hiddenTypes)) {
        filter.setTypeShown(static_cast<Notification::Type>(type), true);
    }
    filter.setNamespace({});
    filter.setText({});
    QCOMPARE(filter.rowCount(), model.rowCount());
}

void TestEventStreamFilter::newRowsAreFilteredToo()
{
    EventStreamModel model;
    EventStreamFilter filter;
    QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
    filter.setSourceModel(&model);
    filter.setNamespace(u"shop"_s);
    model.setCapacity(3);
    fill(model);
    QCOMPARE(visibleKeys(filter), (QStringList{u"shop/web:Updated"_s}));
    model.append(u"pods"_s, {Notification::add(u"shop/api"_s, pod(u"shop"_s, u"api"_s, 5, u"Pending"_s), false)});
    QCOMPARE(visibleKeys(filter), (QStringList{u"shop/web:Updated"_s, u"shop/api:Added"_s}));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestEventStreamFilter)
#include "tst_eventstreamfilter.moc"
