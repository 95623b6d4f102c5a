// IndexView on the offscreen platform, over a real informer against an in-process simulated
// cluster: choosing an index shows its values with counts, choosing a value its objects,
// activating an object emits its key, and the "Add index" control adds an index or shows why not.
#include "tst_informersim.h"

#include "ui/models/indexkeysmodel.h"
#include "ui/models/indexvaluesmodel.h"
#include "ui/widgets/indexview.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

#include <algorithm>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestIndexView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void selectingIndexAndValueShowsObjects_data();
    void selectingIndexAndValueShowsObjects();
    void valuesSortByCount();
    void activatingObjectEmitsKey();
    void addIndexControl_data();
    void addIndexControl();

private:
    std::unique_ptr<CachescopeTest::InformerSim> m_sim;
    SharedIndexInformer *m_informer = nullptr;
};

void TestIndexView::initTestCase()
{
    Sim::SimOptions options;
    options.pods = 40;
    options.seed = 5;
    m_sim = std::make_unique<CachescopeTest::InformerSim>(options);
    QString error;
    QVERIFY2(m_sim->start(&error), qPrintable(error));
    m_informer = m_sim->informer(u"pods"_s, u"Pod"_s, CachescopeTest::podIndexers());
    QSignalSpy synced(m_informer, &SharedIndexInformer::synced);
    QVERIFY(synced.wait(30000));
}

void TestIndexView::cleanupTestCase()
{
    m_sim.reset();
}

void TestIndexView::selectingIndexAndValueShowsObjects_data()
{
    QTest::addColumn<QString>("indexName");
    QTest::newRow("pods by node") << nodeNameIndexName();
    QTest::newRow("pods by namespace") << namespaceIndexName();
    QTest::newRow("pods by label app") << labelIndexName(u"app"_s);
}

void TestIndexView::selectingIndexAndValueShowsObjects()
{
    QFETCH(QString, indexName);
    IndexView view;
    QAbstractItemModelTester valuesTester(view.valuesView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester keysTester(view.keysView()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(900, 400);
    view.show();
    view.setInformer(m_informer);
    QVERIFY(view.selectIndex(indexName));
    QCOMPARE(view.selectedIndex(), indexName);
    const Indexer &indexer = m_informer->indexer();
    QCOMPARE(view.valuesView()->model()->rowCount(), indexer.indexValueCount(indexName));

    const QStringList values = indexer.listIndexFuncValues(indexName);
    QVERIFY(!values.isEmpty());
    for (const QString &value : values) {
        QVERIFY(view.selectValue(value));
        QCOMPARE(view.selectedValue(), value);
        QAbstractItemModel *keys = view.keysView()->model();
        QStringList shown;
        for (int row = 0; row < keys->rowCount(); ++row) {
            shown.append(keys->index(row, 0).data(IndexRowsModel::TextRole).toString());
        }
        QStringList expected = indexer.indexKeys(indexName, value);
        std::sort(expected.begin(), expected.end());
        QCOMPARE(shown, expected); // the proxy sorts keys ascending, as the source does
    }
}

void TestIndexView::valuesSortByCount()
{
    IndexView view;
    view.setInformer(m_informer);
    QVERIFY(view.selectIndex(nodeNameIndexName()));
    QAbstractItemModel *values = view.valuesView()->model();
    QVERIFY(values->rowCount() > 1);
    // Most objects first, by default.
    for (int row = 1; row < values->rowCount(); ++row) {
        QVERIFY(values->index(row - 1, IndexValuesModel::CountColumn).data(IndexRowsModel::CountRole).toLongLong() >=
                values->index(row, IndexValuesModel::CountColumn).data(IndexRowsModel::CountRole).toLongLong());
    }
    view.valuesView()->sortByColumn(IndexValuesModel::ValueColumn, Qt::AscendingOrder);
    for (int row = 1; row < values->rowCount(); ++row) {
        QVERIFY(values->index(row - 1, IndexValuesModel::ValueColumn).data(IndexRowsModel::SortRole).toString() <=
                values->index(row, IndexValuesModel::ValueColumn).data(IndexRowsModel::SortRole).toString());
    }
}

void TestIndexView::activatingObjectEmitsKey()
{
    IndexView view;
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setInformer(m_informer);
    QVERIFY(view.selectIndex(namespaceIndexName()));
    const QString value = m_informer->indexer().listIndexFuncValues(namespaceIndexName()).value(0);
    QVERIFY(view.selectValue(value));
    QTreeView *keys = view.keysView();
    QVERIFY(keys->model()->rowCount() > 0);
    QSignalSpy activated(&view, &IndexView::objectActivated);
    const QModelIndex first = keys->model()->index(0, 0);
    keys->setCurrentIndex(first);
    keys->setFocus();
    QTest::keyClick(keys, Qt::Key_Return);
    QCOMPARE(activated.count(), 1);
    const QString key = activated.at(0).at(0).toString();
    QCOMPARE(key, first.data(IndexRowsModel::TextRole).toString());
    QVERIFY(m_informer->indexer().getByKey(key).isValid());
}

void TestIndexView::addIndexControl_data()
{
    QTest::addColumn<int>("sourceRow"); // row of the kind combo box: 0 field path, 1 label key
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expectedIndex"); // "" when the control must refuse
    QTest::newRow("label key tier is added and selected") << 1 << u"tier"_s << labelIndexName(u"tier"_s);
    QTest::newRow("field path status.podIP is added and selected") << 0 << u"status.podIP"_s << fieldPathIndexName(u"status.podIP"_s);
    QTest::newRow("bad field path shows an error") << 0 << u"spec..x"_s << QString();
    QTest::newRow("existing label index shows an error") << 1 << u"app"_s << QString();
}

void TestIndexView::addIndexControl()
{
    QFETCH(int, sourceRow);
    QFETCH(QString, text);
    QFETCH(QString, expectedIndex);
    IndexView view;
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setInformer(m_informer);
    auto *source = view.findChild<QComboBox *>(u"addSource"_s);
    auto *line = view.findChild<QLineEdit *>(u"addText"_s);
    auto *button = view.findChild<QPushButton *>(u"addButton"_s);
    auto *error = view.findChild<QLabel *>(u"addError"_s);
    QVERIFY(source && line && button && error);
    source->setCurrentIndex(sourceRow);
    line->setText(text);
    QTest::mouseClick(button, Qt::LeftButton);
    if (expectedIndex.isEmpty()) {
        QVERIFY(!error->isHidden());
        QVERIFY(!view.errorText().isEmpty());
        QCOMPARE(line->text(), text); // kept, so that it can be corrected
        return;
    }
    QVERIFY2(error->isHidden(), qPrintable(view.errorText()));
    QVERIFY(line->text().isEmpty());
    QVERIFY(m_informer->indexer().hasIndex(expectedIndex));
    QCOMPARE(view.selectedIndex(), expectedIndex);
    QCOMPARE(view.valuesModel()->counts(), m_informer->indexer().indexValueSizes(expectedIndex));
    QVERIFY(view.valuesModel()->rowCount() > 0);
}

CACHESCOPE_TEST_MAIN(TestIndexView)
#include "tst_indexview.moc"
