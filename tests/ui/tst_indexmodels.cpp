// The index models (IndexListModel, IndexValuesModel, IndexKeysModel) fed by a real informer
// against an in-process simulated cluster with churn: while the workload churns they follow the
// indexer through exact inserts, removes and dataChanged (QAbstractItemModelTester checks each);
// once it stops they show exactly what the indexer says. Indexes added at runtime appear with
// their values; malformed or duplicate indexes are refused with a reason.
#include "tst_informersim.h"

#include "ui/models/indexkeysmodel.h"
#include "ui/models/indexlistmodel.h"
#include "ui/models/indexvaluesmodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestIndexModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void valueCountsEqualIndexerAfterChurn_data();
    void valueCountsEqualIndexerAfterChurn();
    void keysUnderValueEqualIndexKeys_data();
    void keysUnderValueEqualIndexKeys();
    void churnMovesRowsWithoutReset();
    void listShowsEveryIndexWithValueCounts();
    void addIndexAtRuntime_data();
    void addIndexAtRuntime();
    void addIndexRefused_data();
    void addIndexRefused();
    void addingTheSameFieldPathTwiceIsRefused();
    void lostInformerEmptiesRows();

private:
    // Sorted, as the models keep their rows.
    static QStringList sorted(QStringList list)
    {
        std::sort(list.begin(), list.end());
        return list;
    }
    static QStringList rowsOf(const IndexRowsModel &model)
    {
        QStringList rows;
        for (int row = 0; row < model.rowCount(); ++row) {
            rows.append(model.textAt(row));
        }
        return rows;
    }

    std::unique_ptr<CachescopeTest::InformerSim> m_sim;
    SharedIndexInformer *m_informer = nullptr;
    // Models that lived through the churn, each watched by a tester and by spies.
    std::unique_ptr<IndexListModel> m_list;
    std::vector<std::unique_ptr<IndexValuesModel>> m_values;
    std::unique_ptr<IndexKeysModel> m_keys; // pods of the first namespace
    std::vector<std::unique_ptr<QAbstractItemModelTester>> m_testers;
    std::vector<std::unique_ptr<QSignalSpy>> m_resets;
    std::unique_ptr<QSignalSpy> m_keysInserted;
    std::unique_ptr<QSignalSpy> m_keysRemoved;
};

void TestIndexModels::initTestCase()
{
    Sim::SimOptions options;
    options.pods = 80;
    options.nodes = 4;
    options.churn = 300;
    options.seed = 11;
    m_sim = std::make_unique<CachescopeTest::InformerSim>(options);
    QString error;
    QVERIFY2(m_sim->start(&error), qPrintable(error));
    m_informer = m_sim->informer(u"pods"_s, u"Pod"_s, CachescopeTest::podIndexers());
    QSignalSpy synced(m_informer, &SharedIndexInformer::synced);
    QVERIFY(synced.wait(30000));

    m_list = std::make_unique<IndexListModel>();
    m_testers.push_back(std::make_unique<QAbstractItemModelTester>(m_list.get(), QAbstractItemModelTester::FailureReportingMode::QtTest));
    m_list->setRefreshInterval(std::chrono::milliseconds(20));
    m_list->setInformer(m_informer);
    m_resets.push_back(std::make_unique<QSignalSpy>(m_list.get(), &QAbstractItemModel::modelReset));
    const QStringList indexNames = sorted(m_informer->indexer().indexers().keys());
    for (const QString &indexName : indexNames) {
        auto model = std::make_unique<IndexValuesModel>();
        m_testers.push_back(std::make_unique<QAbstractItemModelTester>(model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest));
        model->setRefreshInterval(std::chrono::milliseconds(20));
        model->setInformer(m_informer);
        model->setIndexName(indexName);
        m_resets.push_back(std::make_unique<QSignalSpy>(model.get(), &QAbstractItemModel::modelReset));
        m_values.push_back(std::move(model));
    }
    m_keys = std::make_unique<IndexKeysModel>();
    m_testers.push_back(std::make_unique<QAbstractItemModelTester>(m_keys.get(), QAbstractItemModelTester::FailureReportingMode::QtTest));
    m_keys->setRefreshInterval(std::chrono::milliseconds(20));
    m_keys->setInformer(m_informer);
    const QString firstNamespace = sorted(m_informer->indexer().listIndexFuncValues(namespaceIndexName())).value(0);
    QVERIFY(!firstNamespace.isEmpty());
    m_keys->setSelection(namespaceIndexName(), firstNamespace);
    QVERIFY(m_keys->rowCount() > 0);
    m_resets.push_back(std::make_unique<QSignalSpy>(m_keys.get(), &QAbstractItemModel::modelReset));
    m_keysInserted = std::make_unique<QSignalSpy>(m_keys.get(), &QAbstractItemModel::rowsInserted);
    m_keysRemoved = std::make_unique<QSignalSpy>(m_keys.get(), &QAbstractItemModel::rowsRemoved);

    // Let the models follow a good deal of churn: pods die and are replaced, change phase, and
    // deployments scale, so values gain and lose keys and keys come and go.
    const quint64 start = m_informer->counters().deltasProcessed;
    QTRY_VERIFY_WITH_TIMEOUT(m_informer->counters().deltasProcessed >= start + 600, 60000);
    m_sim->sim().setChurn(0);
    QTRY_COMPARE_WITH_TIMEOUT(CachescopeTest::cacheState(*m_informer), m_sim->sim().truth(u"pods"_s), 30000);
    // One more refresh of every model after the cache is final (their timers run meanwhile).
    QSignalSpy refreshed(m_keys.get(), &IndexRowsModel::refreshed);
    QVERIFY(refreshed.wait(5000));
    m_list->refresh();
    for (const auto &model : m_values) {
        model->refresh();
    }
}

void TestIndexModels::cleanupTestCase()
{
    m_resets.clear();
    m_keysInserted.reset();
    m_keysRemoved.reset();
    m_testers.clear();
    m_keys.reset();
    m_values.clear();
    m_list.reset();
    m_sim.reset();
}

void TestIndexModels::valueCountsEqualIndexerAfterChurn_data()
{
    QTest::addColumn<QString>("indexName");
    QTest::newRow("pods by namespace") << namespaceIndexName();
    QTest::newRow("pods by node") << nodeNameIndexName();
    QTest::newRow("pods by owner uid") << ownerUidIndexName();
    QTest::newRow("pods by label app") << labelIndexName(u"app"_s);
}

void TestIndexModels::valueCountsEqualIndexerAfterChurn()
{
    QFETCH(QString, indexName);
    const auto it = std::find_if(m_values.cbegin(), m_values.cend(), [&](const auto &model) { return model->indexName() == indexName; });
    QVERIFY(it != m_values.cend());
    const IndexValuesModel &model = **it;
    const Indexer &indexer = m_informer->indexer();
    const QStringList values = sorted(indexer.listIndexFuncValues(indexName));
    QVERIFY(values.size() > 1);
    QCOMPARE(rowsOf(model), values);
    for (const QString &value : values) {
        const int row = model.rowOf(value);
        QVERIFY(row >= 0);
        QCOMPARE(model.countAt(row), indexer.byIndex(indexName, value).size());
        const QModelIndex countIndex = model.index(row, IndexValuesModel::CountColumn);
        QCOMPARE(countIndex.data(Qt::DisplayRole).toLongLong(), indexer.byIndex(indexName, value).size());
        QCOMPARE(model.index(row, IndexValuesModel::ValueColumn).data(IndexRowsModel::TextRole).toString(), value);
    }
}

void TestIndexModels::keysUnderValueEqualIndexKeys_data()
{
    QTest::addColumn<QString>("indexName");
    QTest::newRow("pods on each node") << nodeNameIndexName();
    QTest::newRow("pods of each app") << labelIndexName(u"app"_s);
    QTest::newRow("pods of each namespace") << namespaceIndexName();
}

void TestIndexModels::keysUnderValueEqualIndexKeys()
{
    QFETCH(QString, indexName);
    IndexKeysModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setInformer(m_informer);
    const QStringList values = m_informer->indexer().listIndexFuncValues(indexName);
    QVERIFY(!values.isEmpty());
    for (const QString &value : values) {
        model.setSelection(indexName, value);
        QCOMPARE(rowsOf(model), sorted(m_informer->indexer().indexKeys(indexName, value)));
    }
    // The model that lived through the churn agrees too.
    QCOMPARE(rowsOf(*m_keys), sorted(m_informer->indexer().indexKeys(m_keys->indexName(), m_keys->value())));
}

// The churn replaced pods, so the keys under a namespace were inserted and removed, never by a
// reset; and no model reset after its setup.
void TestIndexModels::churnMovesRowsWithoutReset()
{
    QVERIFY(m_keysInserted->count() > 0);
    QVERIFY(m_keysRemoved->count() > 0);
    for (const auto &resets : m_resets) {
        QCOMPARE(resets->count(), 0);
    }
}

void TestIndexModels::listShowsEveryIndexWithValueCounts()
{
    const Indexer &indexer = m_informer->indexer();
    QCOMPARE(rowsOf(*m_list), sorted(indexer.indexers().keys()));
    for (int row = 0; row < m_list->rowCount(); ++row) {
        QCOMPARE(m_list->countAt(row), indexer.indexValueCount(m_list->textAt(row)));
    }
}

void TestIndexModels::addIndexAtRuntime_data()
{
    QTest::addColumn<int>("source");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expectedName");
    QTest::addColumn<QString>("sameValuesAs"); // an index that must hold the same values, or ""
    QTest::addColumn<QStringList>("expectedValues"); // or these values, when given
    QTest::newRow("field path spec.nodeName gives the nodes")
        << int(IndexListModel::Source::FieldPath) << u"spec.nodeName"_s << fieldPathIndexName(u"spec.nodeName"_s) << nodeNameIndexName() << QStringList();
    QTest::newRow("field path with blanks around is trimmed") << int(IndexListModel::Source::FieldPath) << u"  metadata.namespace "_s
                                                              << fieldPathIndexName(u"metadata.namespace"_s) << namespaceIndexName() << QStringList();
    QTest::newRow("label key tier gives web and backend")
        << int(IndexListModel::Source::LabelKey) << u"tier"_s << labelIndexName(u"tier"_s) << QString() << QStringList{u"backend"_s, u"web"_s};
    QTest::newRow("field path of a label gives the same as the label index")
        << int(IndexListModel::Source::FieldPath) << u"metadata.labels.app"_s << fieldPathIndexName(u"metadata.labels.app"_s) << labelIndexName(u"app"_s)
        << QStringList();
}

void TestIndexModels::addIndexAtRuntime()
{
    QFETCH(int, source);
    QFETCH(QString, text);
    QFETCH(QString, expectedName);
    QFETCH(QString, sameValuesAs);
    QFETCH(QStringList, expectedValues);

    QVERIFY(m_list->rowOf(expectedName) < 0);
    QString error;
    const std::optional<QString> name = m_list->addIndex(IndexListModel::Source(source), text, &error);
    QVERIFY2(name, qPrintable(error));
    QCOMPARE(*name, expectedName);
    QVERIFY(m_informer->indexer().hasIndex(expectedName));
    QVERIFY(m_list->rowOf(expectedName) >= 0);
    QCOMPARE(m_list->countAt(m_list->rowOf(expectedName)), m_informer->indexer().indexValueCount(expectedName));

    IndexValuesModel values;
    QAbstractItemModelTester tester(&values, QAbstractItemModelTester::FailureReportingMode::QtTest);
    values.setInformer(m_informer);
    values.setIndexName(expectedName);
    if (!sameValuesAs.isEmpty()) {
        QCOMPARE(values.counts(), m_informer->indexer().indexValueSizes(sameValuesAs));
    } else {
        QCOMPARE(rowsOf(values), expectedValues);
    }
    QCOMPARE(values.counts(), m_informer->indexer().indexValueSizes(expectedName));
    QVERIFY(values.rowCount() > 0);
}

void TestIndexModels::addIndexRefused_data()
{
    QTest::addColumn<int>("source");
    QTest::addColumn<QString>("text");
    QTest::newRow("label index that exists (label:app is a default)") << int(IndexListModel::Source::LabelKey) << u"app"_s;
    QTest::newRow("empty field path") << int(IndexListModel::Source::FieldPath) << u"  "_s;
    QTest::newRow("field path with an empty part") << int(IndexListModel::Source::FieldPath) << u"spec..nodeName"_s;
    QTest::newRow("field path ending in a dot") << int(IndexListModel::Source::FieldPath) << u"spec.nodeName."_s;
    QTest::newRow("field path starting with a dot") << int(IndexListModel::Source::FieldPath) << u".spec"_s;
    QTest::newRow("field path with a blank inside") << int(IndexListModel::Source::FieldPath) << u"spec. nodeName"_s;
    QTest::newRow("empty label key") << int(IndexListModel::Source::LabelKey) << QString();
    QTest::newRow("label key starting with a dash") << int(IndexListModel::Source::LabelKey) << u"-app"_s;
    QTest::newRow("label key with two slashes") << int(IndexListModel::Source::LabelKey) << u"a/b/c"_s;
    QTest::newRow("label key with an upper-case prefix") << int(IndexListModel::Source::LabelKey) << u"Example.com/app"_s;
    QTest::newRow("label key name longer than 63") << int(IndexListModel::Source::LabelKey) << QString(64, u'a');
}

void TestIndexModels::addIndexRefused()
{
    QFETCH(int, source);
    QFETCH(QString, text);
    const QStringList before = sorted(m_informer->indexer().indexers().keys());
    QString error;
    const std::optional<QString> name = m_list->addIndex(IndexListModel::Source(source), text, &error);
    QVERIFY2(!name, qPrintable(name.value_or(QString())));
    QVERIFY(!error.isEmpty());
    QCOMPARE(sorted(m_informer->indexer().indexers().keys()), before);
}

// A second add of the same field path is refused as a duplicate, naming the index.
void TestIndexModels::addingTheSameFieldPathTwiceIsRefused()
{
    QString error;
    QVERIFY(m_list->addIndex(IndexListModel::Source::FieldPath, u"status.phase"_s, &error));
    const qsizetype indexes = m_informer->indexer().indexers().size();
    QVERIFY(!m_list->addIndex(IndexListModel::Source::FieldPath, u"status.phase"_s, &error));
    QVERIFY2(error.contains(fieldPathIndexName(u"status.phase"_s)), qPrintable(error));
    QCOMPARE(m_informer->indexer().indexers().size(), indexes);
}

void TestIndexModels::lostInformerEmptiesRows()
{
    QString error;
    // When the informer goes away, the models empty by removing rows, not by a reset.
    QSignalSpy keysReset(m_keys.get(), &QAbstractItemModel::modelReset);
    m_sim->remove(m_informer);
    m_informer = nullptr;
    m_keys->refresh();
    m_list->refresh();
    QCOMPARE(m_keys->rowCount(), 0);
    QCOMPARE(m_list->rowCount(), 0);
    QCOMPARE(keysReset.count(), 0);
    QVERIFY(!m_list->addIndex(IndexListModel::Source::LabelKey, u"tier"_s, &error));
    QVERIFY(!error.isEmpty());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestIndexModels)
#include "tst_indexmodels.moc"
