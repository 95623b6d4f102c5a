// Tests of the simulator's FaultPlan: spec parsing, determinism by seed, forced faults.
#include "core/sim/faultplan.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

using Fault = FaultPlan::Fault;
using Kind = FaultPlan::RequestKind;

class TestSimFaultPlan : public QObject
{
    Q_OBJECT

private:
    static QList<int> decisions(FaultPlan &plan, int count)
    {
        QList<int> result;
        const Kind kinds[] = {Kind::List, Kind::Watch, Kind::Get};
        for (int i = 0; i < count; ++i) {
            const FaultPlan::Decision decision = plan.decide(kinds[i % 3]);
            result.append((decision.fault ? int(*decision.fault) + 1 : 0) * 10 + (decision.latencyMs > 0 ? 1 : 0));
        }
        return result;
    }

private Q_SLOTS:
    void parsesSpecs_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<bool>("valid");
        QTest::newRow("empty") << QString() << true;
        QTest::newRow("every fault") << u"drop=0.1,truncate=0.1,gone=0.1,throttle=0.1:2,error=0.1:503,latency=0.5:20,stall=0.1,restart=30"_s << true;
        QTest::newRow("unknown fault") << u"explode=0.1"_s << false;
        QTest::newRow("probability above one") << u"drop=1.5"_s << false;
        QTest::newRow("not a number") << u"drop=often"_s << false;
        QTest::newRow("missing value") << u"drop"_s << false;
    }
    void parsesSpecs()
    {
        QFETCH(QString, spec);
        QFETCH(bool, valid);
        FaultPlan plan;
        QString error;
        QCOMPARE(plan.setSpec(spec, &error), valid);
        QCOMPARE(error.isEmpty(), valid);
    }

    void specRoundTrips()
    {
        FaultPlan plan;
        QVERIFY(plan.setSpec(u"drop=0.25,throttle=0.5:3,latency=1:40,restart=2"_s));
        QCOMPARE(plan.probability(Fault::Drop), 0.25);
        QCOMPARE(plan.restartIntervalMs(), 2000);
        FaultPlan copy;
        QVERIFY(copy.setSpec(plan.spec()));
        QCOMPARE(copy.spec(), plan.spec());
        const FaultPlan::Decision decision = plan.decide(Kind::List);
        QCOMPARE(decision.latencyMs, 40);
        QCOMPARE(decision.retryAfterSeconds, 3);
    }

    void sameSeedSameFaults()
    {
        const QString spec = u"drop=0.1,truncate=0.1,gone=0.1,throttle=0.1,error=0.1,latency=0.3:5,stall=0.1"_s;
        FaultPlan a(42);
        FaultPlan b(42);
        FaultPlan c(43);
        QVERIFY(a.setSpec(spec) && b.setSpec(spec) && c.setSpec(spec));
        const QList<int> first = decisions(a, 500);
        QCOMPARE(decisions(b, 500), first);
        QVERIFY(decisions(c, 500) != first);
        // Some of each happened: the probabilities are honoured at all.
        for (int fault : {int(Fault::Drop), int(Fault::Truncate), int(Fault::Gone), int(Fault::Throttle), int(Fault::ServerError), int(Fault::Stall)})
            QVERIFY(first.contains((fault + 1) * 10) || first.contains((fault + 1) * 10 + 1));
    }

    void reseedingReplaysTheSequence()
    {
        FaultPlan plan(7);
        QVERIFY(plan.setSpec(u"drop=0.3,throttle=0.3"_s));
        const QList<int> first = decisions(plan, 100);
        plan.reseed(7);
        QCOMPARE(decisions(plan, 100), first);
    }

    void faultsOnlyHitEligibleRequests_data()
    {
        QTest::addColumn<int>("fault");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("applies");
        QTest::newRow("gone hits watches") << int(Fault::Gone) << int(Kind::Watch) << true;
        QTest::newRow("gone spares lists") << int(Fault::Gone) << int(Kind::List) << false;
        QTest::newRow("stall spares gets") << int(Fault::Stall) << int(Kind::Get) << false;
        QTest::newRow("truncate hits lists") << int(Fault::Truncate) << int(Kind::List) << true;
        QTest::newRow("truncate spares gets") << int(Fault::Truncate) << int(Kind::Get) << false;
        QTest::newRow("throttle hits gets") << int(Fault::Throttle) << int(Kind::Get) << true;
        QTest::newRow("drop hits watches") << int(Fault::Drop) << int(Kind::Watch) << true;
    }
    void faultsOnlyHitEligibleRequests()
    {
        QFETCH(int, fault);
        QFETCH(int, kind);
        QFETCH(bool, applies);
        FaultPlan plan;
        plan.injectNext(Fault(fault));
        const FaultPlan::Decision decision = plan.decide(Kind(kind));
        QCOMPARE(decision.fault.has_value() && int(*decision.fault) == fault, applies);
        // A forced fault waits for an eligible request instead of being lost.
        if (!applies) {
            const Kind eligible = Fault(fault) == Fault::Truncate ? Kind::List : Kind::Watch;
            QCOMPARE(int(*plan.decide(eligible).fault), fault);
        }
    }

    void forcedFaultsAreConsumed()
    {
        FaultPlan plan;
        plan.injectNext(Fault::Throttle, 2);
        QCOMPARE(*plan.decide(Kind::List).fault, Fault::Throttle);
        QCOMPARE(*plan.decide(Kind::List).fault, Fault::Throttle);
        QVERIFY(!plan.decide(Kind::List).fault.has_value());
        plan.recordInjected(Fault::Throttle);
        QCOMPARE(plan.injectedCount(Fault::Throttle), 1);
        QCOMPARE(plan.injectedCount(Fault::Drop), 0);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimFaultPlan)
#include "tst_simfaultplan.moc"
