// Tests of the rate limiters: client-go's default_rate_limiters_test.go scenarios, and the
// token bucket's x/time/rate reservation semantics (core/util/tokenbucket, through BucketRateLimiter), on a FakeClock.
#include "core/util/fakeclock.h"
#include "core/workqueue/bucketratelimiter.h"
#include "core/workqueue/defaultcontrollerratelimiter.h"
#include "core/workqueue/itemexponentialfailureratelimiter.h"
#include "core/workqueue/itemfastslowratelimiter.h"
#include "core/workqueue/maxofratelimiter.h"
#include "core/workqueue/withmaxwaitratelimiter.h"

#include "testmain.h"

#include <QRegularExpression>
#include <QTest>

#include <memory>
#include <thread>
#include <vector>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace {

// parseDuration() reads "0", "250ns", "5ms", "3s", "2m", "1000h"; std::nullopt otherwise.
std::optional<Duration> parseDuration(const QString &text)
{
    if (text == u"0") {
        return Duration(0);
    }
    if (text == u"max") {
        return Duration::max();
    }
    static const QRegularExpression re(u"^(\\d+)(ns|us|ms|s|m|h)$"_s);
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch()) {
        return std::nullopt;
    }
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    if (unit == u"ns") {
        return Duration(n);
    }
    if (unit == u"us") {
        return std::chrono::microseconds(n);
    }
    if (unit == u"ms") {
        return std::chrono::milliseconds(n);
    }
    if (unit == u"s") {
        return std::chrono::seconds(n);
    }
    if (unit == u"m") {
        return std::chrono::minutes(n);
    }
    return std::chrono::hours(n);
}

Duration duration(const QString &text)
{
    const std::optional<Duration> d = parseDuration(text);
    if (!d) {
        qFatal("bad duration in test data: %s", qPrintable(text));
    }
    return *d;
}

// makeLimiter() builds a limiter from a spec: "exponential:BASE,MAX", "fastslow:FAST,SLOW,N",
// "bucket:QPS,BURST", "maxwait:MAX" (wrapping the rest of the spec) and "A + B" for max-of.
std::unique_ptr<RateLimiter> makeLimiter(const QString &spec, const std::shared_ptr<Clock> &clock)
{
    const QStringList parts = spec.split(u" + "_s);
    if (parts.size() > 1) {
        std::vector<std::unique_ptr<RateLimiter>> limiters;
        for (const QString &part : parts) {
            limiters.push_back(makeLimiter(part, clock));
        }
        return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
    }
    const QString kind = spec.section(u':', 0, 0);
    const QStringList args = spec.section(u':', 1).split(u',');
    if (kind == u"exponential") {
        return std::make_unique<ItemExponentialFailureRateLimiter>(duration(args.at(0)), duration(args.at(1)));
    }
    if (kind == u"fastslow") {
        return std::make_unique<ItemFastSlowRateLimiter>(duration(args.at(0)), duration(args.at(1)), args.at(2).toInt());
    }
    if (kind == u"bucket") {
        return std::make_unique<BucketRateLimiter>(args.at(0).toDouble(), args.at(1).toInt(), clock);
    }
    if (kind == u"default") {
        return defaultControllerRateLimiter(clock);
    }
    if (kind == u"maxwait") {
        // "maxwait:MAX;INNER-SPEC"
        const QString inner = spec.section(u';', 1);
        return std::make_unique<WithMaxWaitRateLimiter>(makeLimiter(inner, clock), duration(spec.section(u':', 1).section(u';', 0, 0)));
    }
    qFatal("bad limiter spec in test data: %s", qPrintable(spec));
}

QString format(Duration d)
{
    return QString::number(d.count()) + u"ns"_s;
}

} // namespace

class TestRateLimiter : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void script_data();
    void script();
    void exponentialDoublesUpToMax_data();
    void exponentialDoublesUpToMax();
    void defaultBucketBurstThenSpacing();
    void bucketIsSharedAcrossThreads();
};

// A script runs these steps against one limiter on a FakeClock:
//   "when K D"       when(K) must return duration D
//   "requeues K N"   numRequeues(K) must be N
//   "forget K"       forget(K)
//   "step D"         the clock moves forward by D
//   "back D"         the clock moves back by D (a real clock that was adjusted)
void TestRateLimiter::script_data()
{
    QTest::addColumn<QString>("limiter");
    QTest::addColumn<QStringList>("script");

    // client-go TestItemExponentialFailureRateLimiter
    QTest::newRow("exponential: per-key delays double from the base, forget resets") << u"exponential:1ms,1s"_s
                                                                                     << QStringList{u"when one 1ms"_s,
                                                                                                    u"when one 2ms"_s,
                                                                                                    u"when one 4ms"_s,
                                                                                                    u"when one 8ms"_s,
                                                                                                    u"when one 16ms"_s,
                                                                                                    u"requeues one 5"_s,
                                                                                                    u"when two 1ms"_s,
                                                                                                    u"when two 2ms"_s,
                                                                                                    u"requeues two 2"_s,
                                                                                                    u"forget one"_s,
                                                                                                    u"requeues one 0"_s,
                                                                                                    u"when one 1ms"_s,
                                                                                                    u"requeues two 2"_s};
    QTest::newRow("exponential: the default starts at 5 ms")
        << u"exponential:5ms,1000s"_s << QStringList{u"when k 5ms"_s, u"when k 10ms"_s, u"when k 20ms"_s, u"when k 40ms"_s, u"when k 80ms"_s};
    QTest::newRow("exponential: capped at the max delay")
        << u"exponential:100ms,1s"_s
        << QStringList{u"when k 100ms"_s, u"when k 200ms"_s, u"when k 400ms"_s, u"when k 800ms"_s, u"when k 1s"_s, u"when k 1s"_s, u"requeues k 6"_s};
    QTest::newRow("exponential: time passing does not reset a key") << u"exponential:1ms,1s"_s << QStringList{u"when k 1ms"_s, u"step 1h"_s, u"when k 2ms"_s};
    QTest::newRow("exponential: forgetting an unknown key is harmless")
        << u"exponential:1ms,1s"_s << QStringList{u"forget nobody"_s, u"requeues nobody 0"_s, u"when k 1ms"_s};

    // client-go TestItemFastSlowRateLimiter
    QTest::newRow("fast-slow: fast for the first attempts, then slow") << u"fastslow:5ms,10s,3"_s
                                                                       << QStringList{u"when one 5ms"_s,
                                                                                      u"when one 5ms"_s,
                                                                                      u"when one 5ms"_s,
                                                                                      u"when one 10s"_s,
                                                                                      u"when one 10s"_s,
                                                                                      u"requeues one 5"_s,
                                                                                      u"when two 5ms"_s,
                                                                                      u"when two 5ms"_s,
                                                                                      u"requeues two 2"_s,
                                                                                      u"forget one"_s,
                                                                                      u"requeues one 0"_s,
                                                                                      u"when one 5ms"_s};
    QTest::newRow("fast-slow: zero fast attempts is slow at once") << u"fastslow:5ms,10s,0"_s << QStringList{u"when k 10s"_s, u"when k 10s"_s};

    // client-go TestMaxOfRateLimiter
    QTest::newRow("max-of: picks the longest delay of its limiters") << u"fastslow:5ms,3s,3 + exponential:1ms,1s"_s
                                                                     << QStringList{u"when one 5ms"_s,
                                                                                    u"when one 5ms"_s,
                                                                                    u"when one 5ms"_s,
                                                                                    u"when one 3s"_s,
                                                                                    u"when one 3s"_s,
                                                                                    u"requeues one 5"_s,
                                                                                    u"when two 5ms"_s,
                                                                                    u"when two 5ms"_s,
                                                                                    u"requeues two 2"_s,
                                                                                    u"forget one"_s,
                                                                                    u"requeues one 0"_s,
                                                                                    u"when one 5ms"_s};
    QTest::newRow("max-of: every limiter counts each failure")
        << u"exponential:1ms,1s + exponential:2ms,1s"_s << QStringList{u"when k 2ms"_s, u"when k 4ms"_s, u"when k 8ms"_s, u"requeues k 3"_s};
    QTest::newRow("max-of: numRequeues is the largest count")
        << u"bucket:10,100 + fastslow:1ms,1s,1"_s << QStringList{u"when k 1ms"_s, u"when k 1s"_s, u"requeues k 2"_s, u"forget k"_s, u"requeues k 0"_s};

    // golang.org/x/time/rate reservation semantics of the bucket.
    QTest::newRow("bucket: the burst is immediate, then one token per 1/qps")
        << u"bucket:10,3"_s
        << QStringList{u"when a 0"_s, u"when b 0"_s, u"when c 0"_s, u"when d 100ms"_s, u"when e 200ms"_s, u"when f 300ms"_s, u"requeues a 0"_s};
    QTest::newRow("bucket: the delay does not depend on the key") << u"bucket:2,1"_s << QStringList{u"when same 0"_s, u"when same 500ms"_s, u"when other 1s"_s};
    QTest::newRow("bucket: debt is paid back at qps")
        << u"bucket:10,1"_s
        << QStringList{u"when k 0"_s, u"when k 100ms"_s, u"when k 200ms"_s, u"step 200ms"_s, u"when k 100ms"_s, u"step 150ms"_s, u"when k 50ms"_s};
    QTest::newRow("bucket: tokens refill with time up to the burst, not beyond")
        << u"bucket:10,2"_s << QStringList{u"when k 0"_s, u"when k 0"_s, u"step 1h"_s, u"when k 0"_s, u"when k 0"_s, u"when k 100ms"_s};
    QTest::newRow("bucket: a partly refilled token waits for the rest") << u"bucket:10,1"_s << QStringList{u"when k 0"_s, u"step 40ms"_s, u"when k 60ms"_s};
    QTest::newRow("bucket: forget and numRequeues are no-ops")
        << u"bucket:10,1"_s << QStringList{u"when k 0"_s, u"forget k"_s, u"requeues k 0"_s, u"when k 100ms"_s};
    QTest::newRow("bucket: a clock that goes back refunds nothing and takes nothing")
        << u"bucket:10,1"_s << QStringList{u"when k 0"_s, u"back 1s"_s, u"when k 100ms"_s, u"when k 200ms"_s, u"step 1s"_s, u"when k 0"_s};
    QTest::newRow("bucket: no refill at 0 qps means never after the burst") << u"bucket:0,1"_s << QStringList{u"when k 0"_s, u"step 1h"_s, u"when k max"_s};

    // client-go TestWithMaxWaitRateLimiter
    QTest::newRow("with-max-wait: caps the delays of its limiter")
        << u"maxwait:500s;exponential:1m,1000h"_s
        << QStringList{u"when k 1m"_s, u"when k 2m"_s, u"when k 4m"_s, u"when k 8m"_s, u"when k 500s"_s, u"when k 500s"_s, u"requeues k 6"_s};

    QTest::newRow("default: exponential per key while the bucket has tokens")
        << u"default"_s << QStringList{u"when k 5ms"_s, u"when k 10ms"_s, u"when other 5ms"_s, u"requeues k 2"_s, u"forget k"_s, u"when k 5ms"_s};
}

void TestRateLimiter::script()
{
    QFETCH(QString, limiter);
    QFETCH(QStringList, script);

    auto clock = std::make_shared<FakeClock>();
    const std::unique_ptr<RateLimiter> l = makeLimiter(limiter, clock);
    for (const QString &step : std::as_const(script)) {
        const QStringList w = step.split(u' ');
        if (w.at(0) == u"when") {
            QCOMPARE(format(l->when(w.at(1))), format(duration(w.at(2))));
        } else if (w.at(0) == u"requeues") {
            QCOMPARE(l->numRequeues(w.at(1)), w.at(2).toInt());
        } else if (w.at(0) == u"forget") {
            l->forget(w.at(1));
        } else if (w.at(0) == u"step") {
            clock->step(duration(w.at(1)));
        } else if (w.at(0) == u"back") {
            clock->step(-duration(w.at(1)));
        } else {
            QFAIL(qPrintable(u"unknown step "_s + step));
        }
    }
}

void TestRateLimiter::exponentialDoublesUpToMax_data()
{
    QTest::addColumn<Duration>("base");
    QTest::addColumn<Duration>("max");
    QTest::addColumn<int>("failures");

    QTest::newRow("5 ms to 1000 s: the default backoff") << Duration(5ms) << Duration(1000s) << 40;
    // client-go TestItemExponentialFailureRateLimiterOverFlow: huge exponents stay at the max.
    QTest::newRow("no overflow after many failures") << Duration(1ns) << Duration(1000h) << 200;
    QTest::newRow("no overflow with a max near the largest duration") << Duration(1ms) << Duration::max() << 100;
}

void TestRateLimiter::exponentialDoublesUpToMax()
{
    QFETCH(Duration, base);
    QFETCH(Duration, max);
    QFETCH(int, failures);

    ItemExponentialFailureRateLimiter limiter(base, max);
    long double expected = static_cast<long double>(base.count());
    for (int i = 0; i < failures; ++i) {
        const Duration d = limiter.when(u"k"_s);
        if (expected >= static_cast<long double>(max.count())) {
            QCOMPARE(format(d), format(max));
        } else {
            QCOMPARE(format(d), format(Duration(static_cast<Duration::rep>(expected))));
        }
        QVERIFY(d >= base);
        expected *= 2;
    }
    QCOMPARE(limiter.numRequeues(u"k"_s), failures);
}

// DefaultControllerRateLimiter: 100 keys failing at one instant use up the burst; from the
// 101st, the bucket (10 qps) outweighs the 5 ms exponential backoff.
void TestRateLimiter::defaultBucketBurstThenSpacing()
{
    auto clock = std::make_shared<FakeClock>();
    const std::unique_ptr<RateLimiter> limiter = defaultControllerRateLimiter(clock);
    for (int i = 0; i < 100; ++i) {
        QCOMPARE(format(limiter->when(QString::number(i))), format(5ms));
    }
    QCOMPARE(format(limiter->when(u"100"_s)), format(100ms));
    QCOMPARE(format(limiter->when(u"101"_s)), format(200ms));
    // Ten seconds later the bucket has refilled 100 tokens; a key's own backoff shows again.
    clock->step(10s + 200ms);
    QCOMPARE(format(limiter->when(u"0"_s)), format(10ms));
}

void TestRateLimiter::bucketIsSharedAcrossThreads()
{
    auto clock = std::make_shared<FakeClock>();
    BucketRateLimiter limiter(10, 100, clock);
    constexpr int threads = 4;
    constexpr int callsPerThread = 100;
    std::vector<std::thread> workers;
    workers.reserve(threads);
    std::array<std::vector<Duration>, threads> results;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            for (int i = 0; i < callsPerThread; ++i) {
                results[static_cast<size_t>(t)].push_back(limiter.when(QString::number(t)));
            }
        });
    }
    for (auto &w : workers) {
        w.join();
    }
    // Whatever the interleaving, the 400 reservations are 100 free ones and 300 at 100 ms steps.
    std::vector<Duration> all;
    for (const auto &r : results) {
        all.insert(all.end(), r.begin(), r.end());
    }
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size(); ++i) {
        const Duration expected = i < 100 ? Duration(0) : Duration(100ms) * static_cast<Duration::rep>(i - 99);
        QCOMPARE(format(all[i]), format(expected));
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestRateLimiter)
#include "tst_ratelimiter.moc"
