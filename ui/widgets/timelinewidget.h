#pragma once

#include "ui/models/timelinemodel.h"
#include "ui/models/timelinespan.h"

#include <QList>
#include <QPointer>
#include <QWidget>

#include <optional>

class QScrollBar;

namespace Cachescope {

// TimelineWidget paints a TimelineModel: time on x, one lane per worker or per key on y, with
// waiting, processing and backoff spans in colours derived from the palette (light or dark) and
// marks for merged adds, requeues, forgets and give-ups.
// Interaction: the wheel zooms around the cursor (Shift+wheel scrolls the lanes); dragging pans
// time and lanes and turns "follow live" off; following keeps the right edge at the model's now;
// pausing freezes the picture while the model keeps reading its feed (so nothing is lost); the
// tooltip describes the span under the cursor; a click on a span emits keyActivated().
// Keyboard: +/- zoom, Left/Right pan (and stop following), Up/Down/Page Up/Page Down scroll the
// lanes, End follows live again.
// Cost: each frame asks the model only for the visible lanes and time range (O(log n + k) each)
// and skips spans that would land on pixels already painted, so a frame's cost follows the
// widget's size, not the history's.
// Thread: GUI thread. The model is not owned; it must outlive the widget or be destroyed first
// (the widget then shows nothing).
class TimelineWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineWidget)

public:
    using LaneMode = TimelineLane::Mode;

    explicit TimelineWidget(TimelineModel *model, QWidget *parent = nullptr);
    ~TimelineWidget() override;

    [[nodiscard]] TimelineModel *model() const { return m_model; }

    void setLaneMode(LaneMode mode);
    [[nodiscard]] LaneMode laneMode() const { return m_mode; }

    void setFollowLive(bool follow);
    [[nodiscard]] bool followLive() const { return m_follow; }

    void setPaused(bool paused);
    [[nodiscard]] bool isPaused() const { return m_paused; }

    // The time range shown across the plot area. An empty or inverted range is ignored.
    void setVisibleRange(TimePoint start, TimePoint end);
    [[nodiscard]] TimePoint visibleStart() const { return m_start; }
    [[nodiscard]] TimePoint visibleEnd() const { return m_start + m_span; }
    // zoom() scales the visible range by factor (< 1 zooms in) around the time under x; while
    // following, the right edge stays at now.
    void zoom(double factor, qreal x);
    // zoomToFit() shows everything the model still holds, from its oldest span to now.
    void zoomToFit();

    // The first lane shown at the top; clamped to the lanes there are.
    void setFirstLane(int lane);
    [[nodiscard]] int firstLane() const { return m_firstLane; }

    // Geometry, for tests and for the view around it.
    [[nodiscard]] QRect plotRect() const;
    [[nodiscard]] int laneHeight() const;
    [[nodiscard]] QList<TimelineLane> lanes() const { return m_lanes; }
    // The rectangle of lanes()[index] across the plot, or an empty rect when it is scrolled out.
    [[nodiscard]] QRect laneRect(int index) const;
    // The index in lanes() of the lane at y, or -1.
    [[nodiscard]] int laneAt(int y) const;
    [[nodiscard]] qreal xForTime(TimePoint t) const;
    [[nodiscard]] TimePoint timeForX(qreal x) const;
    // The span drawn at pos (within a few pixels), if any.
    [[nodiscard]] std::optional<TimelineSpan> spanAt(QPoint pos) const;
    // The tooltip text for pos; empty when nothing is under it.
    [[nodiscard]] QString toolTipAt(QPoint pos) const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

Q_SIGNALS:
    // The user clicked a span (or, per key, a lane's label): select that object elsewhere.
    void keyActivated(const QString &key);
    void visibleRangeChanged();
    void followLiveChanged(bool follow);
    void pausedChanged(bool paused);
    void laneModeChanged(Cachescope::TimelineLane::Mode mode);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void modelChanged();
    void refreshLanes();
    void followNow();
    void updateScrollBar();
    [[nodiscard]] TimePoint paintNow() const;
    [[nodiscard]] int labelWidth() const;
    [[nodiscard]] int axisHeight() const;
    [[nodiscard]] int visibleLaneCount() const;
    [[nodiscard]] QString laneLabel(const TimelineLane &lane) const;

    QPointer<TimelineModel> m_model; // not owned
    QScrollBar *m_scrollBar; // owned (child)
    LaneMode m_mode = LaneMode::Worker;
    bool m_follow = true;
    bool m_paused = false;
    TimePoint m_frozenNow; // paintNow() while paused
    TimePoint m_start;
    Duration m_span;
    int m_firstLane = 0;
    QList<TimelineLane> m_lanes;

    // Dragging
    bool m_pressed = false;
    bool m_dragging = false;
    QPoint m_pressPos;
    TimePoint m_pressStart;
    int m_pressFirstLane = 0;
};

} // namespace Cachescope
