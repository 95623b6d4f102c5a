#include "core/cache/backoff.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace std::chrono_literals;

class TestBackoff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sequence_data();
    void sequence();
    void jitterStaysWithinFactor();
    void resetsAfterHealthyPeriod();
};

void TestBackoff::sequence_data()
{
    QTest::addColumn<QList<qint64>>("expected");
    QTest::newRow("doubles from 800 ms and caps at 30 s") << QList<qint64>{800, 1600, 3200, 6400, 12800, 25600, 30000, 30000};
}

void TestBackoff::sequence()
{
    QFETCH(QList<qint64>, expected);
    Backoff::Parameters parameters;
    parameters.jitter = 0;
    std::chrono::milliseconds now{0};
    Backoff backoff(parameters, [&now] { return now; });
    for (qint64 ms : expected) {
        QCOMPARE(backoff.next().count(), ms);
        now += 1s;
    }
}

void TestBackoff::jitterStaysWithinFactor()
{
    std::chrono::milliseconds now{0};
    Backoff backoff(
        Backoff::Parameters(), [&now] { return now; }, 7);
    bool sawJitter = false;
    for (qint64 base : {800, 1600, 3200}) {
        const qint64 d = backoff.next().count();
        QVERIFY2(d >= base && d <= 2 * base, qPrintable(QString::number(d)));
        sawJitter = sawJitter || d != base;
    }
    QVERIFY(sawJitter);
}

void TestBackoff::resetsAfterHealthyPeriod()
{
    Backoff::Parameters parameters;
    parameters.jitter = 0;
    std::chrono::milliseconds now{0};
    Backoff backoff(parameters, [&now] { return now; });
    QCOMPARE(backoff.next().count(), 800);
    QCOMPARE(backoff.next().count(), 1600);
    now += 119s;
    QCOMPARE(backoff.next().count(), 3200);
    now += 120s;
    QCOMPARE(backoff.next().count(), 800);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
