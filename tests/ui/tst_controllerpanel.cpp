// ControllerPanel on a controller over a bare indexer: the form's settings, buttons that follow
// the controller's state (Start / Pause↔Resume / Stop), the counters line, and the findings
// table, whose activated row names its object.
#include "ui/widgets/controllerpanel.h"

#include "core/cache/indexer.h"
#include "core/cache/kubeobject.h"
#include "core/controller/controller.h"
#include "core/controller/processfunction.h"
#include "ui/models/findingstablemodel.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// Finds one problem in every key that starts with "bad/".
class FlaggingFunction final : public ProcessFunction
{
public:
    QString name() const override { return u"flagging"_s; }
    ProcessResult process(const QString &key, const KubeObject &, const ProcessContext &) override
    {
        if (!key.startsWith(u"bad/"_s)) {
            return ProcessResult::ok();
        }
        Finding finding;
        finding.severity = FindingSeverity::Error;
        finding.reason = u"Bad"_s;
        finding.message = u"%1 is bad"_s.arg(key);
        finding.time = QDateTime::currentDateTimeUtc();
        return ProcessResult::ok({finding});
    }
};

QPushButton *button(const ControllerPanel &panel, const QString &name)
{
    return panel.findChild<QPushButton *>(name);
}

} // namespace

class TestControllerPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void settingsRoundTrip()
    {
        ControllerPanel panel;
        ControllerSettings settings;
        settings.workers = 7;
        settings.baseDelay = std::chrono::milliseconds(20);
        settings.maxDelay = std::chrono::seconds(30);
        settings.qps = 2.5;
        settings.burst = 9;
        settings.maxRetries = 3;
        settings.resyncPeriod = std::chrono::seconds(60);
        panel.setSettings(settings);
        const ControllerSettings read = panel.settings();
        QCOMPARE(read.workers, 7);
        QCOMPARE(read.baseDelay, Duration(std::chrono::milliseconds(20)));
        QCOMPARE(read.maxDelay, Duration(std::chrono::seconds(30)));
        QCOMPARE(read.qps, 2.5);
        QCOMPARE(read.burst, 9);
        QCOMPARE(read.maxRetries, 3);
        QCOMPARE(read.resyncPeriod, std::chrono::milliseconds(60000));

        panel.setControllerName(u"simulated-work"_s);
        QCOMPARE(panel.controllerName(), u"simulated-work"_s);
        panel.findChild<QLineEdit *>(u"parameters"_s)->setText(u" durationMs=5 , failureRate=0.5,, "_s);
        QCOMPARE(panel.parameterAssignments(), (QStringList{u"durationMs=5"_s, u"failureRate=0.5"_s}));
        // Every built-in is offered, owner-references too (the explorer gets the owners' informers).
        panel.setControllerName(u"owner-references"_s);
        QCOMPARE(panel.controllerName(), u"owner-references"_s);
    }

    void aWaitingControllerSaysWhyAndCanBeStopped()
    {
        ControllerPanel panel;
        panel.setRunnable(true);
        Indexer indexer;
        Controller controller(&indexer, std::make_shared<FlaggingFunction>(), ControllerSettings{});
        panel.setController(&controller, u"pods of test"_s);
        auto *state = panel.findChild<QLabel *>(u"state"_s);
        QVERIFY(state);
        QVERIFY(state->text().contains(ControllerPanel::tr("starting")));
        QVERIFY(!button(panel, u"stop"_s)->isEnabled());
        panel.setWaitingFor(u"the caches of the owners to sync (ReplicaSet)"_s);
        QVERIFY2(state->text().contains(u"waiting for the caches of the owners to sync (ReplicaSet)"_s), qPrintable(state->text()));
        QVERIFY(button(panel, u"stop"_s)->isEnabled());
        QVERIFY(button(panel, u"start"_s)->isEnabled());
        // Once it runs, the note is gone.
        panel.setWaitingFor({});
        controller.start();
        QTRY_VERIFY(state->text().contains(ControllerPanel::tr("running")));
        controller.stop();
        panel.setController(nullptr);
    }

    void buttonsFollowTheController()
    {
        ControllerPanel panel;
        QSignalSpy starts(&panel, &ControllerPanel::startRequested);
        QSignalSpy pauses(&panel, &ControllerPanel::pauseRequested);
        QSignalSpy resumes(&panel, &ControllerPanel::resumeRequested);
        QSignalSpy stops(&panel, &ControllerPanel::stopRequested);
        QVERIFY(!button(panel, u"start"_s)->isEnabled()); // nothing shown to run on yet
        panel.setRunnable(true);
        QVERIFY(button(panel, u"start"_s)->isEnabled());
        QTest::mouseClick(button(panel, u"start"_s), Qt::LeftButton);
        QCOMPARE(starts.size(), 1);

        Indexer indexer;
        Controller controller(&indexer, std::make_shared<FlaggingFunction>(), ControllerSettings{});
        panel.setController(&controller, u"pods of test"_s);
        controller.start();
        QTRY_VERIFY(!button(panel, u"start"_s)->isEnabled());
        QVERIFY(button(panel, u"pause"_s)->isEnabled());
        QTest::mouseClick(button(panel, u"pause"_s), Qt::LeftButton);
        QCOMPARE(pauses.size(), 1);
        controller.pause();
        QCOMPARE(button(panel, u"pause"_s)->text(), ControllerPanel::tr("Resume"));
        QTest::mouseClick(button(panel, u"pause"_s), Qt::LeftButton);
        QCOMPARE(resumes.size(), 1);
        controller.resume();
        QTest::mouseClick(button(panel, u"stop"_s), Qt::LeftButton);
        QCOMPARE(stops.size(), 1);
        controller.stopAsync();
        QTRY_COMPARE(controller.state(), Controller::State::Stopped);
        QVERIFY(button(panel, u"start"_s)->isEnabled());
        QVERIFY(!button(panel, u"stop"_s)->isEnabled());
        panel.setController(nullptr);
    }

    void countersAndFindings()
    {
        ControllerPanel panel;
        QAbstractItemModelTester tester(panel.findingsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
        Indexer indexer;
        const QStringList keys{u"good/a"_s, u"bad/b"_s, u"bad/c"_s, u"good/d"_s};
        // The objects exist: findings of a key whose object is gone are cleared.
        for (const QString &key : keys) {
            const QStringList parts = key.split(u'/');
            indexer.add(*KubeObject::fromJson(
                uR"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"%1","name":"%2","resourceVersion":"1"}})"_s.arg(parts.at(0), parts.at(1))
                    .toUtf8()));
        }
        Controller controller(&indexer, std::make_shared<FlaggingFunction>(), ControllerSettings{});
        panel.setController(&controller, u"pods of test"_s);
        controller.start();
        for (const QString &key : keys) {
            controller.enqueue(key);
        }
        QTRY_COMPARE(controller.counters().processed, quint64(4));
        QTRY_COMPARE(panel.findingsModel()->rowCount(), 2);
        QTRY_VERIFY2(panel.statusText().contains(u"processed 4"_s) && panel.statusText().contains(u"findings 2"_s), qPrintable(panel.statusText()));

        // Activating a finding names its object.
        QSignalSpy activated(&panel, &ControllerPanel::objectActivated);
        auto *view = panel.findChild<QTableView *>(u"findings"_s);
        QVERIFY(view);
        const QModelIndex first = view->model()->index(0, FindingsTableModel::KeyColumn);
        Q_EMIT view->activated(first);
        QCOMPARE(activated.size(), 1);
        QVERIFY(activated.constFirst().constFirst().toString().startsWith(u"bad/"_s));
        controller.stop();
        panel.setController(nullptr);
        QCOMPARE(panel.findingsModel()->rowCount(), 0);
    }
};

CACHESCOPE_TEST_MAIN(TestControllerPanel)
#include "tst_controllerpanel.moc"
