#include "ui/widgets/timelinewidget.h"

#include "core/util/fakeclock.h"
#include "core/workqueue/ratelimitingqueue.h"
#include "ui/models/timelinemodel.h"
#include "ui/widgets/queuemetricspanel.h"
#include "ui/widgets/timelineview.h"

#include "testmain.h"

#include <QAction>
#include <QComboBox>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;
using Cachescope::Duration;
using Cachescope::QueueEvent;
using Cachescope::QueueEventType;
using Cachescope::TimelineLane;
using Cachescope::TimelineModel;
using Cachescope::TimelineSpan;
using Cachescope::TimelineWidget;
using Cachescope::TimePoint;

namespace {

const TimePoint T0 = TimePoint(std::chrono::hours(1));

TimePoint at(qint64 ms)
{
    return T0 + std::chrono::milliseconds(ms);
}

QueueEvent ev(QueueEventType type, const QString &key, qint64 ms, int worker = -1, qint64 delayMs = 0, int requeues = 0)
{
    QueueEvent e;
    e.type = type;
    e.key = key;
    e.time = at(ms);
    e.worker = worker;
    e.delay = std::chrono::milliseconds(delayMs);
    e.requeues = requeues;
    return e;
}

// ns/a fails on worker 0, backs off, and succeeds on worker 1; ns/b runs once on worker 1.
QList<QueueEvent> scriptedFeed()
{
    using T = QueueEventType;
    return {ev(T::Added, u"ns/a"_s, 0),
            ev(T::Added, u"ns/b"_s, 0),
            ev(T::Got, u"ns/b"_s, 500, 1),
            ev(T::Got, u"ns/a"_s, 1000, 0),
            ev(T::Done, u"ns/b"_s, 2000, 1),
            ev(T::RateLimited, u"ns/a"_s, 2500, -1, 1000, 1),
            ev(T::Done, u"ns/a"_s, 3000, 0),
            ev(T::DelayReady, u"ns/a"_s, 3500),
            ev(T::Added, u"ns/a"_s, 3500),
            ev(T::Got, u"ns/a"_s, 3600, 1),
            ev(T::Done, u"ns/a"_s, 4600, 1),
            ev(T::Added, u"ns/c"_s, 5000)};
}

int laneIndex(const TimelineWidget &widget, const TimelineLane &lane)
{
    return static_cast<int>(widget.lanes().indexOf(lane));
}

// The point in the middle of the part of span that is visible in lane index.
QPoint pointOnSpan(const TimelineWidget &widget, int index, TimePoint start, TimePoint end)
{
    const TimePoint middle = start + (end - start) / 2;
    return QPoint(qRound(widget.xForTime(middle)), widget.laneRect(index).center().y());
}

void sendWheel(QWidget *widget, QPoint pos, int delta, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWheelEvent event(QPointF(pos), QPointF(widget->mapToGlobal(pos)), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

} // namespace

class TestTimelineWidget : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void followTracksNow();
    void wheelZoomsAroundCursor_data();
    void wheelZoomsAroundCursor();
    void zoomWhileFollowingKeepsNowAtTheRight();
    void dragPansAndStopsFollowing();
    void pauseFreezesThePicture();
    void keyboardZoomsPansAndFollows();
    void clickEmitsKeyActivated_data();
    void clickEmitsKeyActivated();
    void clickOnNothingEmitsNothing();
    void tooltipDescribesSpan();
    void paintsSpansWhereTheGeometrySays_data();
    void paintsSpansWhereTheGeometrySays();
    void zoomToFitShowsEverything();
    void viewFollowsQueueAndShowsMetrics();

private:
    std::unique_ptr<TimelineModel> m_model;
    std::unique_ptr<TimelineWidget> m_widget;
};

void TestTimelineWidget::init()
{
    m_model = std::make_unique<TimelineModel>();
    m_model->setWorkerCount(2);
    m_widget = std::make_unique<TimelineWidget>(m_model.get());
    m_widget->resize(900, 300);
    m_widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_widget.get()));
    m_model->ingest(scriptedFeed());
}

void TestTimelineWidget::cleanup()
{
    m_widget.reset();
    m_model.reset();
}

void TestTimelineWidget::followTracksNow()
{
    QVERIFY(m_widget->followLive());
    QCOMPARE(m_widget->visibleEnd(), at(5000));
    QSignalSpy rangeChanged(m_widget.get(), &TimelineWidget::visibleRangeChanged);
    m_model->ingest({ev(QueueEventType::Merged, u"ns/c"_s, 7000)});
    QCOMPARE(m_widget->visibleEnd(), at(7000));
    QVERIFY(rangeChanged.count() >= 1);
}

void TestTimelineWidget::wheelZoomsAroundCursor_data()
{
    QTest::addColumn<int>("delta");
    QTest::addColumn<bool>("zoomsIn");
    QTest::newRow("wheel up zooms in around the cursor") << 120 << true;
    QTest::newRow("wheel down zooms out around the cursor") << -240 << false;
}

void TestTimelineWidget::wheelZoomsAroundCursor()
{
    QFETCH(int, delta);
    QFETCH(bool, zoomsIn);
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(0), at(5000));
    const QRect plot = m_widget->plotRect();
    const QPoint cursor(plot.left() + plot.width() / 3, plot.center().y());
    const TimePoint underCursor = m_widget->timeForX(cursor.x());
    const Duration before = m_widget->visibleEnd() - m_widget->visibleStart();
    sendWheel(m_widget.get(), cursor, delta);
    const Duration after = m_widget->visibleEnd() - m_widget->visibleStart();
    QCOMPARE(after < before, zoomsIn);
    QVERIFY(after != before);
    // The time under the cursor stays under it (to within a pixel's worth of rounding).
    const Duration drift = m_widget->timeForX(cursor.x()) - underCursor;
    QVERIFY2(std::chrono::abs(drift) < after / plot.width(), qPrintable(QString::number(drift.count())));
    QVERIFY(!m_widget->followLive());
}

void TestTimelineWidget::zoomWhileFollowingKeepsNowAtTheRight()
{
    const Duration before = m_widget->visibleEnd() - m_widget->visibleStart();
    sendWheel(m_widget.get(), m_widget->plotRect().center(), 120);
    QVERIFY(m_widget->followLive());
    QCOMPARE(m_widget->visibleEnd(), at(5000));
    QVERIFY(m_widget->visibleEnd() - m_widget->visibleStart() < before);
}

void TestTimelineWidget::dragPansAndStopsFollowing()
{
    QSignalSpy followChanged(m_widget.get(), &TimelineWidget::followLiveChanged);
    const QRect plot = m_widget->plotRect();
    const QPoint from = plot.center();
    const QPoint to = from + QPoint(150, 0);
    const TimePoint startBefore = m_widget->visibleStart();
    const TimePoint timeAtFrom = m_widget->timeForX(from.x());
    QTest::mousePress(m_widget.get(), Qt::LeftButton, {}, from);
    QTest::mouseMove(m_widget.get(), from + QPoint(20, 0));
    QTest::mouseMove(m_widget.get(), to);
    QTest::mouseRelease(m_widget.get(), Qt::LeftButton, {}, to);
    QVERIFY(!m_widget->followLive());
    QCOMPARE(followChanged.count(), 1);
    QCOMPARE(followChanged.first().first().toBool(), false);
    // Dragging right shows earlier times: what was under the press is now under the release.
    QVERIFY(m_widget->visibleStart() < startBefore);
    const Duration drift = m_widget->timeForX(to.x()) - timeAtFrom;
    const Duration pixel = (m_widget->visibleEnd() - m_widget->visibleStart()) / plot.width();
    QVERIFY2(std::chrono::abs(drift) <= pixel, qPrintable(QString::number(drift.count())));
    // New work no longer moves the view.
    const TimePoint endAfterPan = m_widget->visibleEnd();
    m_model->ingest({ev(QueueEventType::Merged, u"ns/c"_s, 9000)});
    QCOMPARE(m_widget->visibleEnd(), endAfterPan);
}

void TestTimelineWidget::pauseFreezesThePicture()
{
    m_widget->setLaneMode(TimelineLane::Mode::Key);
    const QList<TimelineLane> lanesBefore = m_widget->lanes();
    m_widget->setPaused(true);
    m_model->ingest({ev(QueueEventType::Added, u"ns/new"_s, 8000)});
    QCOMPARE(m_widget->visibleEnd(), at(5000));
    QCOMPARE(m_widget->lanes().size(), lanesBefore.size());
    // While paused, nothing after the pause is hit either.
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(0), at(10000));
    QVERIFY(!m_widget->spanAt(QPoint(qRound(m_widget->xForTime(at(9000))), m_widget->laneRect(0).center().y())));
    m_widget->setPaused(false);
    m_widget->setFollowLive(true);
    QCOMPARE(m_widget->visibleEnd(), at(8000));
    QCOMPARE(m_widget->lanes().size(), lanesBefore.size() + 1);
    QCOMPARE(m_widget->lanes().first().key, u"ns/new"_s);
}

void TestTimelineWidget::keyboardZoomsPansAndFollows()
{
    const Duration span = m_widget->visibleEnd() - m_widget->visibleStart();
    QTest::keyClick(m_widget.get(), Qt::Key_Plus);
    QCOMPARE(m_widget->visibleEnd() - m_widget->visibleStart(), span / 2);
    QVERIFY(m_widget->followLive());
    const TimePoint start = m_widget->visibleStart();
    QTest::keyClick(m_widget.get(), Qt::Key_Left);
    QVERIFY(!m_widget->followLive());
    QCOMPARE(m_widget->visibleStart(), start - span / 20);
    QTest::keyClick(m_widget.get(), Qt::Key_End);
    QVERIFY(m_widget->followLive());
    QCOMPARE(m_widget->visibleEnd(), at(5000));
}

void TestTimelineWidget::clickEmitsKeyActivated_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("laneKey");
    QTest::addColumn<int>("laneWorker");
    QTest::addColumn<qint64>("from");
    QTest::addColumn<qint64>("to");
    QTest::addColumn<QString>("expected");
    const int worker = static_cast<int>(TimelineLane::Mode::Worker);
    const int key = static_cast<int>(TimelineLane::Mode::Key);
    QTest::newRow("a processing span on worker 0 activates its key") << worker << QString() << 0 << qint64(1000) << qint64(3000) << u"ns/a"_s;
    QTest::newRow("the second span on worker 1 activates the retried key") << worker << QString() << 1 << qint64(3600) << qint64(4600) << u"ns/a"_s;
    QTest::newRow("a processing span on worker 1 activates the other key") << worker << QString() << 1 << qint64(500) << qint64(2000) << u"ns/b"_s;
    QTest::newRow("a waiting span in a key lane activates that key") << key << u"ns/b"_s << -1 << qint64(0) << qint64(500) << u"ns/b"_s;
    QTest::newRow("a backoff in a key lane activates that key") << key << u"ns/a"_s << -1 << qint64(3000) << qint64(3500) << u"ns/a"_s;
}

void TestTimelineWidget::clickEmitsKeyActivated()
{
    QFETCH(int, mode);
    QFETCH(QString, laneKey);
    QFETCH(int, laneWorker);
    QFETCH(qint64, from);
    QFETCH(qint64, to);
    QFETCH(QString, expected);
    const auto laneMode = static_cast<TimelineLane::Mode>(mode);
    m_widget->setLaneMode(laneMode);
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(-200), at(5200));
    const int index = laneIndex(*m_widget, TimelineLane{laneMode, laneKey, laneWorker});
    QVERIFY(index >= 0);
    QVERIFY(!m_widget->laneRect(index).isEmpty());
    QSignalSpy activated(m_widget.get(), &TimelineWidget::keyActivated);
    QTest::mouseClick(m_widget.get(), Qt::LeftButton, {}, pointOnSpan(*m_widget, index, at(from), at(to)));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), expected);
}

void TestTimelineWidget::clickOnNothingEmitsNothing()
{
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(-200), at(5200));
    QSignalSpy activated(m_widget.get(), &TimelineWidget::keyActivated);
    // Worker 0 is idle from 3000 on.
    const int index = laneIndex(*m_widget, TimelineLane{TimelineLane::Mode::Worker, {}, 0});
    QTest::mouseClick(m_widget.get(), Qt::LeftButton, {}, pointOnSpan(*m_widget, index, at(3800), at(4800)));
    QCOMPARE(activated.count(), 0);
}

void TestTimelineWidget::tooltipDescribesSpan()
{
    m_model->noteError(u"ns/a"_s, u"pods \"a\" is forbidden"_s);
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(-200), at(5200));
    const int index = laneIndex(*m_widget, TimelineLane{TimelineLane::Mode::Worker, {}, 1});
    const QString tip = m_widget->toolTipAt(pointOnSpan(*m_widget, index, at(3600), at(4600)));
    QVERIFY2(tip.contains(u"ns/a"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"Attempt 2 on worker 1"_s), qPrintable(tip));
    QVERIFY2(tip.contains(u"is forbidden"_s), qPrintable(tip));
    const QString first =
        m_widget->toolTipAt(pointOnSpan(*m_widget, laneIndex(*m_widget, TimelineLane{TimelineLane::Mode::Worker, {}, 0}), at(1000), at(3000)));
    QVERIFY2(first.contains(u"Attempt 1 on worker 0"_s), qPrintable(first));
    QVERIFY2(first.contains(u"Failed"_s), qPrintable(first));
}

void TestTimelineWidget::paintsSpansWhereTheGeometrySays_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("spans stand out from a light palette's base") << false;
    QTest::newRow("spans stand out from a dark palette's base") << true;
}

void TestTimelineWidget::paintsSpansWhereTheGeometrySays()
{
    QFETCH(bool, dark);
    if (dark) {
        QPalette palette = m_widget->palette();
        palette.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        palette.setColor(QPalette::Text, Qt::white);
        palette.setColor(QPalette::Window, QColor(0x2a, 0x2a, 0x2a));
        palette.setColor(QPalette::WindowText, Qt::white);
        m_widget->setPalette(palette);
    }
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(-200), at(5200));
    const QImage image = m_widget->grab().toImage();
    const qreal dpr = image.devicePixelRatio();
    const QColor base = m_widget->palette().color(QPalette::Base);
    const QColor alternate = m_widget->palette().color(QPalette::AlternateBase);
    const auto pixel = [&](QPoint p) {
        return image.pixelColor(QPoint(qRound(p.x() * dpr), qRound(p.y() * dpr)));
    };
    const int worker0 = laneIndex(*m_widget, TimelineLane{TimelineLane::Mode::Worker, {}, 0});
    const QColor onSpan = pixel(pointOnSpan(*m_widget, worker0, at(1000), at(3000)));
    QVERIFY(onSpan != base && onSpan != alternate);
    // Readable: the span's lightness is far from the background's on either palette.
    QVERIFY2(std::abs(onSpan.lightness() - base.lightness()) > 60, qPrintable(onSpan.name() + u' ' + base.name()));
    const QColor idle = pixel(pointOnSpan(*m_widget, worker0, at(3900), at(4300)));
    QVERIFY2(idle == base || idle == alternate, qPrintable(idle.name()));
}

void TestTimelineWidget::zoomToFitShowsEverything()
{
    m_widget->setFollowLive(false);
    m_widget->setVisibleRange(at(4000), at(4001));
    m_widget->zoomToFit();
    QVERIFY(m_widget->visibleStart() <= at(0));
    QCOMPARE(m_widget->visibleEnd(), at(5000));
}

void TestTimelineWidget::viewFollowsQueueAndShowsMetrics()
{
    auto clock = std::make_shared<Cachescope::FakeClock>(T0);
    Cachescope::RateLimitingQueue queue({}, clock);
    Cachescope::TimelineView view(&queue, 3);
    view.model()->setPollInterval(0ms);
    view.resize(900, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy activated(&view, &Cachescope::TimelineView::keyActivated);

    queue.add(u"ns/x"_s);
    queue.add(u"ns/y"_s);
    clock->step(40ms);
    const std::optional<QString> key = queue.get(2);
    QCOMPARE(*key, u"ns/x"_s);
    clock->step(60ms);
    view.model()->poll();
    using Field = Cachescope::QueueMetricsPanel::Field;
    QCOMPARE(view.metricsPanel()->valueText(Field::Depth), u"1"_s);
    QCOMPARE(view.metricsPanel()->valueText(Field::Processing), u"1"_s);
    QCOMPARE(view.metricsPanel()->valueText(Field::LongestRunning), u"60 ms"_s);
    QCOMPARE(view.metricsPanel()->valueText(Field::QueueLatency), u"40 ms / 40 ms"_s);
    QCOMPARE(view.timeline()->lanes().size(), 3);
    QCOMPARE(view.timeline()->visibleEnd(), at(100));

    // The toolbar and the timeline agree on follow, pause and lane mode.
    view.timeline()->setFollowLive(false);
    QVERIFY(!view.followAction()->isChecked());
    view.pauseAction()->trigger();
    QVERIFY(view.timeline()->isPaused());
    view.pauseAction()->trigger();
    view.laneModeBox()->setCurrentIndex(1);
    QCOMPARE(view.timeline()->laneMode(), TimelineLane::Mode::Key);
    view.followAction()->trigger();
    QVERIFY(view.timeline()->followLive());

    // A click on the running span reaches the view's signal.
    TimelineWidget *timeline = view.timeline();
    const int index = laneIndex(*timeline, TimelineLane{TimelineLane::Mode::Key, u"ns/x"_s, -1});
    QVERIFY(index >= 0);
    QTest::mouseClick(timeline, Qt::LeftButton, {}, pointOnSpan(*timeline, index, at(40), at(100)));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toString(), u"ns/x"_s);

    queue.done(u"ns/x"_s);
    view.setQueue(nullptr, 0);
    QVERIFY(view.model()->lanes(TimelineLane::Mode::Key).isEmpty());
}

CACHESCOPE_TEST_MAIN(TestTimelineWidget)
#include "tst_timelinewidget.moc"
