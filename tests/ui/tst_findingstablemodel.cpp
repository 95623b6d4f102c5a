// FindingsTableModel merges each new state of a FindingsStore into its rows with exact removes,
// inserts and dataChanged: no reset, so persistent indexes (a selection) follow their finding.
#include "ui/models/findingstablemodel.h"

#include "core/controller/findingsstore.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// A store state as text: "key:reason[:E|W|I]" items separated by spaces; the message is the
// reason in lower case.
QHash<QString, QList<Finding>> parseState(const QString &text)
{
    QHash<QString, QList<Finding>> state;
    for (const QString &item : text.split(u' ', Qt::SkipEmptyParts)) {
        const QStringList parts = item.split(u':');
        Finding finding;
        finding.reason = parts.at(1);
        finding.message = parts.at(1).toLower();
        const QString severity = parts.value(2, u"W"_s);
        finding.severity = severity == u"E"_s ? FindingSeverity::Error : severity == u"I"_s ? FindingSeverity::Info : FindingSeverity::Warning;
        finding.time = QDateTime::currentDateTimeUtc();
        state[parts.at(0)].append(finding);
    }
    return state;
}

void apply(FindingsStore &store, const QHash<QString, QList<Finding>> &state)
{
    for (const QString &key : store.all().keys()) {
        if (!state.contains(key)) {
            store.remove(key);
        }
    }
    for (auto it = state.cbegin(); it != state.cend(); ++it) {
        store.setFindings(it.key(), it.value());
    }
}

// The model's rows as "key:reason:S" items, in row order.
QStringList rows(const FindingsTableModel &model)
{
    QStringList result;
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString severity = model.index(row, FindingsTableModel::SeverityColumn).data().toString().left(1);
        result.append(model.index(row, FindingsTableModel::KeyColumn).data().toString() + u':' +
                      model.index(row, FindingsTableModel::ReasonColumn).data().toString() + u':' + severity);
    }
    return result;
}

} // namespace

class TestFindingsTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mergesEachStateExactly_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QStringList>("expected");
        // kept: a finding in both states whose persistent index must survive the merge
        QTest::addColumn<QString>("kept");

        QTest::newRow("first findings") << u""_s << u"b/p:NotReady a/p:Pending"_s << QStringList{u"a/p:Pending:W"_s, u"b/p:NotReady:W"_s} << QString();
        QTest::newRow("one fixed, the other stays") << u"a/p:Pending b/p:NotReady"_s << u"b/p:NotReady"_s << QStringList{u"b/p:NotReady:W"_s}
                                                    << u"b/p:NotReady"_s;
        QTest::newRow("new ones before, between and after")
            << u"b/p:NotReady d/p:NotReady"_s << u"a/p:X b/p:NotReady c/p:Y d/p:NotReady e/p:Z"_s
            << QStringList{u"a/p:X:W"_s, u"b/p:NotReady:W"_s, u"c/p:Y:W"_s, u"d/p:NotReady:W"_s, u"e/p:Z:W"_s} << u"d/p:NotReady"_s;
        QTest::newRow("a severity change is an update in place") << u"a/p:Restarts:W b/p:NotReady"_s << u"a/p:Restarts:E b/p:NotReady"_s
                                                                 << QStringList{u"a/p:Restarts:E"_s, u"b/p:NotReady:W"_s} << u"a/p:Restarts"_s;
        QTest::newRow("a key's second reason") << u"a/p:NotReady"_s << u"a/p:NotReady a/p:Restarts"_s << QStringList{u"a/p:NotReady:W"_s, u"a/p:Restarts:W"_s}
                                               << u"a/p:NotReady"_s;
        QTest::newRow("everything replaced") << u"a/p:X b/p:Y"_s << u"c/p:Z"_s << QStringList{u"c/p:Z:W"_s} << QString();
        QTest::newRow("all fixed") << u"a/p:X b/p:Y"_s << u""_s << QStringList{} << QString();
    }

    void mergesEachStateExactly()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QStringList, expected);
        QFETCH(QString, kept);

        FindingsStore store;
        FindingsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        apply(store, parseState(before));
        model.setStore(&store);
        QCOMPARE(model.rowCount(), parseState(before).isEmpty() ? 0 : int(before.count(u' ') + 1));

        QPersistentModelIndex keptIndex;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex index = model.index(row, FindingsTableModel::KeyColumn);
            if (index.data().toString() + u':' + model.index(row, FindingsTableModel::ReasonColumn).data().toString() == kept) {
                keptIndex = index;
            }
        }
        QCOMPARE(keptIndex.isValid(), !kept.isEmpty());

        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        apply(store, parseState(after));
        model.refresh();
        QCOMPARE(rows(model), expected);
        QCOMPARE(resets.size(), 0);
        if (!kept.isEmpty()) {
            QVERIFY(keptIndex.isValid());
            QCOMPARE(keptIndex.data().toString() + u':' + model.index(keptIndex.row(), FindingsTableModel::ReasonColumn).data().toString(), kept);
        }
    }

    void anUnchangedStoreChangesNoRow()
    {
        FindingsStore store;
        FindingsTableModel model;
        apply(store, parseState(u"a/p:X b/p:Y"_s));
        model.setStore(&store);
        QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy removes(&model, &QAbstractItemModel::rowsRemoved);
        // The same findings again: FindingsStore keeps them (and their times), the revision stays.
        apply(store, parseState(u"a/p:X b/p:Y"_s));
        model.refresh();
        QCOMPARE(inserts.size() + removes.size(), 0);
        QCOMPARE(model.rowCount(), 2);
    }

    void aStoreThatDiesEmptiesTheTable()
    {
        FindingsTableModel model;
        {
            FindingsStore store;
            apply(store, parseState(u"a/p:X"_s));
            model.setStore(&store);
            QCOMPARE(model.rowCount(), 1);
        }
        model.refresh();
        QCOMPARE(model.rowCount(), 0);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestFindingsTableModel)
#include "tst_findingstablemodel.moc"
