// ContainerLogGenerator: lines and times are pure functions of the seed and the index, in time
// order; lineCountAt() and firstLineAtOrAfter() agree with timeOf(); a restart and a crash show
// in the lines; the timestamp prefix is the kubelet's RFC 3339 with nine digits.
#include "core/sim/containerloggenerator.h"

#include "testmain.h"

#include <QRegularExpression>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope::Sim;

namespace {
constexpr qint64 Start = 1764940000000; // 2025-12-05T13:06:40Z

ContainerLogGenerator generator(ContainerLogGenerator::Style style, qint64 endMs = -1, int restarts = 0, const QString &reason = {})
{
    ContainerLogGenerator::Instance instance;
    instance.seed = ContainerLogGenerator::seedFor(1, u"shop"_s, u"web-abc"_s, u"app"_s, restarts);
    instance.style = style;
    instance.image = u"registry.example.com/shop/web:1.14.2"_s;
    instance.startMs = Start;
    instance.endMs = endMs;
    instance.restartCount = restarts;
    instance.exitReason = reason;
    return ContainerLogGenerator(instance);
}
} // namespace

class TestContainerLogGenerator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void styleFollowsTheImage_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<bool>("web");
        QTest::newRow("nginx is a web server") << u"docker.io/library/nginx:1.27"_s << true;
        QTest::newRow("a web image is a web server") << u"registry.example.com/shop/web:1.14.2"_s << true;
        QTest::newRow("an api image is a web server") << u"registry.example.com/shop/api:2.3.0"_s << true;
        QTest::newRow("redis is a worker") << u"docker.io/library/redis:7.2"_s << false;
        QTest::newRow("a worker image is a worker") << u"ghcr.io/example/worker:0.9.1"_s << false;
    }
    void styleFollowsTheImage()
    {
        QFETCH(QString, image);
        QFETCH(bool, web);
        QCOMPARE(ContainerLogGenerator::styleForImage(image) == ContainerLogGenerator::Style::WebServer, web);
    }

    void linesAreDeterministicAndOrdered_data()
    {
        QTest::addColumn<bool>("webServer");
        QTest::addColumn<qint64>("periodMs");
        QTest::newRow("web server") << true << qint64(0);
        QTest::newRow("worker") << false << qint64(0);
        QTest::newRow("web server at 50 lines a second") << true << qint64(20);
        QTest::newRow("worker at the fastest pace, 500 lines a second") << false << qint64(2);
    }
    void linesAreDeterministicAndOrdered()
    {
        QFETCH(bool, webServer);
        QFETCH(qint64, periodMs);
        const auto style = webServer ? ContainerLogGenerator::Style::WebServer : ContainerLogGenerator::Style::Worker;
        ContainerLogGenerator::Instance instance = generator(style).instance();
        instance.periodMs = periodMs;
        const ContainerLogGenerator a(instance);
        const ContainerLogGenerator b(instance);
        // An hour at the image's pace; 3000 periods (and the startup) at a set one.
        const qint64 spanMs = periodMs > 0 ? 1000 + 3000 * periodMs : 3600 * 1000;
        const qint64 count = a.lineCountAt(Start + spanMs);
        QVERIFY2(count > 1000, qPrintable(QString::number(count)));
        if (periodMs > 0) {
            // A set pace is the pace: after the startup burst, a line a period (give or take the
            // one jittered past either end).
            const qint64 steady = a.lineCountAt(Start + 1000 + 2000 * periodMs) - a.lineCountAt(Start + 1000);
            QVERIFY2(qAbs(steady - 2000) <= 1, qPrintable(QString::number(steady)));
        }
        for (qint64 i = 0; i < count; ++i) {
            QCOMPARE(a.line(i), b.line(i));
            QVERIFY(!a.line(i).isEmpty() && !a.line(i).contains('\n'));
            if (i > 0)
                QVERIFY2(a.timeOf(i) > a.timeOf(i - 1), qPrintable(u"line %1"_s.arg(i)));
            // The count at a line's time includes it, one millisecond before it does not.
            QCOMPARE(a.lineCountAt(a.timeOf(i)), i + 1);
            QCOMPARE(a.lineCountAt(a.timeOf(i) - 1), i);
            QCOMPARE(a.firstLineAtOrAfter(a.timeOf(i)), i);
        }
        QCOMPARE(a.lineCountAt(Start - 1), 0);
        // Another container's log is another log.
        ContainerLogGenerator::Instance other = a.instance();
        other.seed = ContainerLogGenerator::seedFor(1, u"shop"_s, u"web-abd"_s, u"app"_s, 0);
        const ContainerLogGenerator c(other);
        int same = 0;
        for (qint64 i = 10; i < 110; ++i)
            same += c.line(i) == a.line(i) ? 1 : 0;
        QVERIFY2(same < 50, qPrintable(QString::number(same)));
    }

    void startsWithAStartupBurst()
    {
        const ContainerLogGenerator fresh = generator(ContainerLogGenerator::Style::WebServer);
        QVERIFY(fresh.line(0).startsWith("Starting web server 1.14.2"));
        // The burst is there within the first second: a tail has lines at once.
        QVERIFY(fresh.lineCountAt(Start + 1000) >= 4);
        const ContainerLogGenerator restarted = generator(ContainerLogGenerator::Style::WebServer, -1, 3);
        bool said = false;
        for (qint64 i = 0; i < 5; ++i)
            said = said || restarted.line(i).contains("restart 3");
        QVERIFY(said);
    }

    void aTerminatedInstanceEndsWithItsCrash_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QByteArray>("last");
        QTest::newRow("OOMKilled runs out of memory") << u"OOMKilled"_s << QByteArray("fatal error: runtime: out of memory");
        QTest::newRow("Error panics") << u"Error"_s << QByteArray("[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2f1c]");
        QTest::newRow("Completed says goodbye") << u"Completed"_s << QByteArray("bye");
    }
    void aTerminatedInstanceEndsWithItsCrash()
    {
        QFETCH(QString, reason);
        QFETCH(QByteArray, last);
        const qint64 end = Start + 10 * 60 * 1000;
        const ContainerLogGenerator log = generator(ContainerLogGenerator::Style::Worker, end, 1, reason);
        QVERIFY(log.isTerminated());
        const qint64 count = log.lineCountAt(end);
        QVERIFY(count > 100);
        // Nothing after the end, however late one asks.
        QCOMPARE(log.lineCountAt(end + 3600 * 1000), count);
        QCOMPARE(log.line(count - 1), last);
        QVERIFY(log.timeOf(count - 1) <= end);
    }

    void timestampsAreRfc3339WithNanoseconds()
    {
        const ContainerLogGenerator log = generator(ContainerLogGenerator::Style::WebServer);
        const QByteArray prefix = log.timestampPrefix(0);
        QVERIFY2(QRegularExpression(u"^2025-12-05T13:06:40\\.000\\d{6}Z $"_s).match(QString::fromLatin1(prefix)).hasMatch(), prefix.constData());
        QVERIFY(log.timestampPrefix(20).startsWith(QDateTime::fromMSecsSinceEpoch(log.timeOf(20), Qt::UTC).toString(u"yyyy-MM-ddTHH:mm:ss.zzz"_s).toLatin1()));
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestContainerLogGenerator)
#include "tst_containerloggenerator.moc"
