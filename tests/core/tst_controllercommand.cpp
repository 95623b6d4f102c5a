// ControlCommand (`cachescope-cli control`) on an informer fed by a FakeListerWatcher: it runs
// the controller for its duration, then prints the findings table and the queue metrics.
#include "core/cache/sharedindexinformer.h"
#include "core/cli/controlcommand.h"
#include "core/controller/controller.h"
#include "core/controller/processfunctionregistry.h"
#include "fakelisterwatcher.h"

#include "testmain.h"

#include <QSignalSpy>
#include <QTest>
#include <QTextStream>
#include <QThread>

using namespace Cachescope;
using namespace CachescopeTest;
using namespace Qt::Literals::StringLiterals;

namespace {
ObjectListPage podsPage()
{
    ObjectListPage page;
    for (int i = 0; i < 3; ++i) {
        page.items.append(CachescopeTest::pod(u"web-%1"_s.arg(i), QString::number(i + 1), u"shop"_s));
    }
    page.resourceVersion = u"10"_s;
    return page;
}

std::unique_ptr<SharedIndexInformer> makeInformer()
{
    auto lw = std::make_unique<FakeListerWatcher>();
    lw->onList = [](const ListOptions &) {
        return podsPage();
    };
    SharedIndexInformer::Options options;
    options.name = u"pods"_s;
    options.reflector.useWatchList = false; // the fake serves paged lists
    return std::make_unique<SharedIndexInformer>(std::move(lw), QThread::currentThread(), options);
}
} // namespace

class TestControllerCommand : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printsFindingsAndMetrics_data();
    void printsFindingsAndMetrics();
    void refusesWhatItCannotRun_data();
    void refusesWhatItCannotRun();
    void helpListsEveryController();
};

void TestControllerCommand::printsFindingsAndMetrics_data()
{
    QTest::addColumn<QString>("controller");
    QTest::addColumn<QStringList>("parameters");
    QTest::addColumn<QStringList>("expectedLines");

    QTest::newRow("label-policy reports each pod without the label") << u"label-policy"_s << QStringList{u"required=team"_s}
                                                                     << QStringList{u"KEY          SEVERITY   REASON         MESSAGE"_s,
                                                                                    u"shop/web-0   Warning    MissingLabel   label \"team\" is missing"_s,
                                                                                    u"shop/web-1   Warning    MissingLabel   label \"team\" is missing"_s,
                                                                                    u"shop/web-2   Warning    MissingLabel   label \"team\" is missing"_s,
                                                                                    u"Processed 3: 3 succeeded, 0 retried, 0 gave up, 0 dropped"_s};
    QTest::newRow("simulated-work that always fails retries, then gives up")
        << u"simulated-work"_s << QStringList{u"durationMs=0"_s, u"failureRate=1"_s}
        << QStringList{u"No findings."_s, u"retries           6"_s, u"Processed 9: 0 succeeded, 6 retried, 3 gave up, 0 dropped"_s};
}

void TestControllerCommand::printsFindingsAndMetrics()
{
    QFETCH(QString, controller);
    QFETCH(QStringList, parameters);
    QFETCH(QStringList, expectedLines);

    auto informer = makeInformer();
    QSignalSpy synced(informer.get(), &SharedIndexInformer::synced);
    informer->run();
    QVERIFY(synced.wait());

    QString out;
    QString err;
    QTextStream outStream(&out);
    QTextStream errStream(&err);
    ControlCommand::Options options;
    options.controller = controller;
    options.parameters = parameters;
    options.settings.workers = 2;
    options.settings.maxRetries = 2;
    options.settings.baseDelay = std::chrono::milliseconds(1);
    options.duration = std::chrono::milliseconds(300);
    ControlCommand command(informer.get(), options, outStream, errStream);
    QSignalSpy finished(&command, &ControlCommand::finished);
    command.start();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toInt(), 0);
    const QStringList lines = out.split(u'\n');
    for (const QString &expected : expectedLines) {
        QVERIFY2(lines.contains(expected), qPrintable(u"missing line: "_s + expected + u"\n--- output:\n"_s + out));
    }
    for (const QString &metric : {u"depth "_s, u"adds "_s, u"queue latency "_s, u"work duration "_s, u"unfinished work "_s, u"longest running "_s}) {
        QVERIFY2(std::any_of(lines.cbegin(), lines.cend(), [&metric](const QString &line) { return line.startsWith(metric); }), qPrintable(metric));
    }
    QVERIFY(out.contains(u"p50 "_s));
    if (controller == u"simulated-work") {
        QCOMPARE(err.count(u"warning: gave up on shop/web-"_s), 3);
    }
    informer->stop();
}

void TestControllerCommand::refusesWhatItCannotRun_data()
{
    QTest::addColumn<QString>("controller");
    QTest::addColumn<QStringList>("parameters");
    QTest::addColumn<QString>("expectedError");

    QTest::newRow("an unknown controller") << u"pod-doctor"_s << QStringList{} << u"error: unknown controller \"pod-doctor\""_s;
    QTest::newRow("a parameter without a value") << u"label-policy"_s << QStringList{u"required"_s} << u"is not of the form name=value"_s;
    QTest::newRow("a parameter the controller does not take") << u"label-policy"_s << QStringList{u"seed=1"_s} << u"takes no parameter \"seed\""_s;
    QTest::newRow("owner-references without owner informers") << u"owner-references"_s << QStringList{} << u"needs the informers"_s;
}

void TestControllerCommand::refusesWhatItCannotRun()
{
    QFETCH(QString, controller);
    QFETCH(QStringList, parameters);
    QFETCH(QString, expectedError);

    auto informer = makeInformer();
    QString out;
    QString err;
    QTextStream outStream(&out);
    QTextStream errStream(&err);
    ControlCommand::Options options;
    options.controller = controller;
    options.parameters = parameters;
    ControlCommand command(informer.get(), options, outStream, errStream);
    QSignalSpy finished(&command, &ControlCommand::finished);
    command.start();
    QVERIFY(finished.wait(5000));
    QCOMPARE(finished.at(0).at(0).toInt(), 1);
    QVERIFY2(err.contains(expectedError), qPrintable(err));
    QVERIFY(out.isEmpty());
    QVERIFY(!command.controller());
}

void TestControllerCommand::helpListsEveryController()
{
    const QString help = ControlCommand::controllersHelp();
    const QStringList lines = help.split(u'\n');
    for (const QString &name : controllerNames()) {
        const QString description = controllerInfo(name)->description;
        QVERIFY2(std::any_of(lines.cbegin(), lines.cend(), [&](const QString &line) { return line.trimmed().startsWith(name) && line.endsWith(description); }),
                 qPrintable(name));
    }
    QVERIFY(help.contains(u"simulated-work failureRate"_s));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestControllerCommand)
#include "tst_controllercommand.moc"
