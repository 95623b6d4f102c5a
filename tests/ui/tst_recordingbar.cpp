// RecordingBar: it shows the instant it is told (offset, length, wall-clock time), asks for a
// seek, play/pause or speed without acting on its own (the served answer sets it), and keeps the
// user's drag while the served position moves on.
#include "testmain.h"
#include "ui/widgets/recordingbar.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QTest>
#include <QToolButton>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestRecordingBar final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsTheInstant_data()
    {
        QTest::addColumn<qint64>("durationMs");
        QTest::addColumn<qint64>("positionMs");
        QTest::addColumn<QString>("text");
        QTest::newRow("the start") << qint64(300000) << qint64(0) << u"00:00 / 05:00 · 2026-12-05 14:03:00 UTC"_s;
        QTest::newRow("mid-recording") << qint64(300000) << qint64(83500) << u"01:23 / 05:00 · 2026-12-05 14:04:23 UTC"_s;
        QTest::newRow("past the end is the end") << qint64(300000) << qint64(900000) << u"05:00 / 05:00 · 2026-12-05 14:08:00 UTC"_s;
        QTest::newRow("from an hour on") << qint64(2 * 3600 * 1000) << qint64(3723000) << u"1:02:03 / 2:00:00 · 2026-12-05 15:05:03 UTC"_s;
    }
    void showsTheInstant()
    {
        QFETCH(qint64, durationMs);
        QFETCH(qint64, positionMs);
        QFETCH(QString, text);
        RecordingBar bar;
        bar.setRecording(u"churn.cachescope"_s, QDateTime(QDate(2026, 12, 5), QTime(14, 3), Qt::UTC), durationMs);
        bar.setPosition(positionMs);
        QCOMPARE(bar.positionText(), text);
        QCOMPARE(bar.position(), std::min(positionMs, durationMs));
    }

    void asksAndShowsOnlyTheAnswer()
    {
        RecordingBar bar;
        bar.setRecording(u"r"_s, QDateTime(), 60000);
        QSignalSpy playing(&bar, &RecordingBar::playingRequested);
        QSignalSpy speed(&bar, &RecordingBar::speedRequested);
        auto *play = bar.findChild<QToolButton *>(u"play"_s);
        QVERIFY(play);
        QVERIFY(!play->isChecked());
        play->click();
        QCOMPARE(playing.size(), 1);
        QCOMPARE(playing.constFirst().at(0).toBool(), true);
        QVERIFY(!play->isChecked()); // not playing until the playback says so
        bar.setPlaying(true);
        QVERIFY(play->isChecked());
        play->click();
        QCOMPARE(playing.size(), 2);
        QCOMPARE(playing.at(1).at(0).toBool(), false);
        QVERIFY(play->isChecked());

        auto *speeds = bar.findChild<QComboBox *>(u"speed"_s);
        QVERIFY(speeds);
        QCOMPARE(speeds->currentData().toDouble(), 1.0);
        const int fast = speeds->findData(10.0);
        QVERIFY(fast >= 0);
        QCOMPARE(speeds->itemText(fast), u"10×"_s);
        speeds->activated(fast);
        QCOMPARE(speed.size(), 1);
        QCOMPARE(speed.constFirst().at(0).toDouble(), 10.0);
        bar.setSpeed(0.5);
        QCOMPARE(speeds->currentData().toDouble(), 0.5);
    }

    void asksForTheSelectedObjectsChanges_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<bool>("next");
        QTest::newRow("previous change") << u"previousChange"_s << false;
        QTest::newRow("next change") << u"nextChange"_s << true;
    }
    void asksForTheSelectedObjectsChanges()
    {
        QFETCH(QString, button);
        QFETCH(bool, next);
        RecordingBar bar;
        bar.setRecording(u"r"_s, QDateTime(), 60000);
        QSignalSpy previousSpy(&bar, &RecordingBar::previousChangeRequested);
        QSignalSpy nextSpy(&bar, &RecordingBar::nextChangeRequested);
        QSignalSpy seek(&bar, &RecordingBar::seekRequested);
        auto *step = bar.findChild<QToolButton *>(button);
        QVERIFY(step);
        QVERIFY(!step->toolTip().isEmpty());
        step->click();
        QCOMPARE(nextSpy.size(), next ? 1 : 0);
        QCOMPARE(previousSpy.size(), next ? 0 : 1);
        QCOMPARE(seek.size(), 0); // the bar asks; the seek is the answer's
    }

    void seeksOnAStepAndOnRelease()
    {
        RecordingBar bar;
        bar.setRecording(u"r"_s, QDateTime(), 60000);
        QSignalSpy seek(&bar, &RecordingBar::seekRequested);
        auto *slider = bar.findChild<QSlider *>(u"position"_s);
        QVERIFY(slider);
        // A page step (a click beside the handle, Page Down) asks at once.
        slider->triggerAction(QAbstractSlider::SliderPageStepAdd);
        QCOMPARE(seek.size(), 1);
        QCOMPARE(seek.constFirst().at(0).toLongLong(), qint64(10000));

        // A drag asks once, on release, and the served position does not move the handle
        // under the user's hand meanwhile.
        slider->setSliderDown(true);
        slider->setSliderPosition(42000);
        bar.setPosition(11000);
        QCOMPARE(slider->sliderPosition(), 42000);
        QCOMPARE(seek.size(), 1);
        slider->setSliderDown(false);
        QCOMPARE(seek.size(), 2);
        QCOMPARE(seek.at(1).at(0).toLongLong(), qint64(42000));
    }
};

CACHESCOPE_TEST_MAIN(TestRecordingBar)
#include "tst_recordingbar.moc"
