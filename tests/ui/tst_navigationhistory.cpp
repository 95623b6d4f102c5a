// NavigationHistory, the explorer's Back and Forward: visits in order, back and forward along
// them without recording, a visit after going back drops what was ahead, the same place is not
// recorded twice, opening an object in the table just shown is that table's step, and the
// oldest places go once the bound is reached.
#include "ui/models/navigationhistory.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

NavigationHistory::Location place(const QString &context, const QString &namespaceName, const QString &resource, const QString &object = {})
{
    NavigationHistory::Location location;
    location.context = context;
    location.namespaceName = namespaceName;
    location.resource.gvr = GroupVersionResource(resource == u"deployments"_s ? u"apps"_s : QString(), u"v1"_s, resource);
    location.objectKey = object;
    return location;
}

// Where a step went, as "context namespace resource object".
QString where(const std::optional<NavigationHistory::Location> &location)
{
    if (!location) {
        return u"(nowhere)"_s;
    }
    return QStringList{
        location->context, location->namespaceName.isEmpty() ? u"-"_s : location->namespaceName, location->resource.gvr.resource(), location->objectKey}
        .join(u' ')
        .trimmed();
}

} // namespace

class TestNavigationHistory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void backAndForward_data()
    {
        // Each step: "visit C NS RESOURCE [OBJECT]", "back" or "forward"; after the steps, where
        // back() and forward() lead one by one from the end, and the size.
        QTest::addColumn<QStringList>("steps");
        QTest::addColumn<QString>("current");
        QTest::addColumn<bool>("canGoBack");
        QTest::addColumn<bool>("canGoForward");
        QTest::addColumn<int>("size");

        QTest::newRow("nothing visited") << QStringList{u"back"_s, u"forward"_s} << u"(nowhere)"_s << false << false << 0;
        QTest::newRow("one place") << QStringList{u"visit kind shop pods"_s} << u"kind shop pods"_s << false << false << 1;
        QTest::newRow("back to the first") << QStringList{u"visit kind shop pods"_s, u"visit kind shop deployments"_s, u"back"_s} << u"kind shop pods"_s
                                           << false << true << 2;
        QTest::newRow("back at the start goes nowhere")
            << QStringList{u"visit kind shop pods"_s, u"back"_s, u"back"_s} << u"kind shop pods"_s << false << false << 1;
        QTest::newRow("back then forward")
            << QStringList{u"visit kind shop pods"_s, u"visit kind - pods"_s, u"visit prod - pods"_s, u"back"_s, u"back"_s, u"forward"_s} << u"kind - pods"_s
            << true << true << 3;
        QTest::newRow("a visit after back drops what was ahead")
            << QStringList{u"visit kind shop pods"_s, u"visit kind shop deployments"_s, u"back"_s, u"visit kind shop services"_s} << u"kind shop services"_s
            << true << false << 2;
        QTest::newRow("the same place twice is one step")
            << QStringList{u"visit kind shop pods"_s, u"visit kind shop pods"_s, u"visit kind shop pods"_s} << u"kind shop pods"_s << false << false << 1;
        QTest::newRow("an object opened in the table is the table's step")
            << QStringList{u"visit kind shop pods"_s, u"visit kind shop pods shop/web-1"_s} << u"kind shop pods shop/web-1"_s << false << false << 1;
        QTest::newRow("another object is a step of its own")
            << QStringList{u"visit kind shop pods"_s, u"visit kind shop pods shop/web-1"_s, u"visit kind shop pods shop/web-2"_s, u"back"_s}
            << u"kind shop pods shop/web-1"_s << false << true << 2;
        QTest::newRow("back returns to the table with its object")
            << QStringList{u"visit kind shop pods"_s, u"visit kind shop pods shop/web-1"_s, u"visit kind shop deployments"_s, u"back"_s}
            << u"kind shop pods shop/web-1"_s << false << true << 2;
        QTest::newRow("a namespace is a place") << QStringList{u"visit kind shop pods"_s, u"visit kind billing pods"_s, u"back"_s} << u"kind shop pods"_s
                                                << false << true << 2;
    }

    void backAndForward()
    {
        QFETCH(QStringList, steps);
        QFETCH(QString, current);
        QFETCH(bool, canGoBack);
        QFETCH(bool, canGoForward);
        QFETCH(int, size);

        NavigationHistory history;
        for (const QString &step : std::as_const(steps)) {
            const QStringList words = step.split(u' ');
            if (words.constFirst() == u"visit"_s) {
                history.visit(place(words.at(1), words.at(2) == u"-"_s ? QString() : words.at(2), words.at(3), words.value(4)));
            } else if (step == u"back"_s) {
                const std::optional<NavigationHistory::Location> before = history.current();
                const bool could = history.canGoBack();
                const auto went = history.back();
                QCOMPARE(went.has_value(), could);
                if (!could) {
                    QCOMPARE(where(history.current()), where(before));
                }
            } else {
                const bool could = history.canGoForward();
                QCOMPARE(history.forward().has_value(), could);
            }
        }
        QCOMPARE(where(history.current()), current);
        QCOMPARE(history.canGoBack(), canGoBack);
        QCOMPARE(history.canGoForward(), canGoForward);
        QCOMPARE(history.size(), qsizetype(size));
    }

    void backSaysWhereTo()
    {
        NavigationHistory history;
        QSignalSpy changed(&history, &NavigationHistory::changed);
        history.visit(place(u"kind"_s, u"shop"_s, u"pods"_s));
        history.visit(place(u"kind"_s, u"shop"_s, u"deployments"_s));
        QCOMPARE(changed.count(), 2);
        QCOMPARE(where(history.back()), u"kind shop pods"_s);
        QCOMPARE(where(history.forward()), u"kind shop deployments"_s);
        QCOMPARE(changed.count(), 4);
        history.clear();
        QVERIFY(!history.current());
        QVERIFY(!history.canGoBack());
    }

    void theOldestPlacesGo()
    {
        NavigationHistory history;
        for (int i = 0; i < NavigationHistory::MaxLocations + 20; ++i) {
            history.visit(place(u"kind"_s, u"ns-%1"_s.arg(i), u"pods"_s));
        }
        QCOMPARE(history.size(), NavigationHistory::MaxLocations);
        std::optional<NavigationHistory::Location> oldest;
        while (history.canGoBack()) {
            oldest = history.back();
        }
        QCOMPARE(where(oldest), u"kind ns-20 pods"_s);
    }
};

CACHESCOPE_TEST_MAIN(TestNavigationHistory)
#include "tst_navigationhistory.moc"
