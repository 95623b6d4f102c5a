#pragma once

#include <QWidget>

class QAction;
class QComboBox;
class QPushButton;
class QToolBar;

namespace Cachescope {

class QueueMetricsPanel;
class RateLimitingQueue;
class TimelineModel;
class TimelineWidget;

// TimelineView is the dockable workqueue timeline: a toolbar (follow live, pause, lanes per
// worker or per key, zoom to fit), the TimelineWidget and the QueueMetricsPanel under it, over a
// TimelineModel it owns that polls the queue. Without a queue (no controller runs), a line under
// the toolbar says so and offers "Start a Controller…" (startControllerRequested()).
// Thread: GUI thread. The queue is not owned: it must outlive the view, or be detached first
// with setQueue(nullptr, 0) (a controller that stops does that before deleting its queue).
class TimelineView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TimelineView)

public:
    // workers: the controller's worker count, so every worker has a lane from the start.
    explicit TimelineView(RateLimitingQueue *queue, int workers, QWidget *parent = nullptr);
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // setQueue() clears what was shown and follows queue (nullptr detaches).
    void setQueue(RateLimitingQueue *queue, int workers);

    [[nodiscard]] TimelineModel *model() const { return m_model; }
    [[nodiscard]] TimelineWidget *timeline() const { return m_timeline; }
    [[nodiscard]] QueueMetricsPanel *metricsPanel() const { return m_metrics; }
    [[nodiscard]] QAction *followAction() const { return m_follow; }
    [[nodiscard]] QAction *pauseAction() const { return m_pause; }
    [[nodiscard]] QAction *zoomToFitAction() const { return m_zoomToFit; }
    [[nodiscard]] QComboBox *laneModeBox() const { return m_laneMode; }
    // startButton() is the offer to start a controller; visible while there is no queue.
    [[nodiscard]] QPushButton *startButton() const { return m_start; }

Q_SIGNALS:
    // A span (or a key's lane label) was clicked: select that object in the explorer.
    void keyActivated(const QString &key);
    void startControllerRequested();

private:
    TimelineModel *m_model; // owned (child)
    QToolBar *m_toolBar; // owned (child)
    TimelineWidget *m_timeline; // owned (child)
    QueueMetricsPanel *m_metrics; // owned (child)
    QWidget *m_noQueue; // owned (child): the line offering to start a controller
    QPushButton *m_start; // owned (child of m_noQueue)
    QAction *m_follow; // owned by the toolbar
    QAction *m_pause; // owned by the toolbar
    QAction *m_zoomToFit; // owned by the toolbar
    QComboBox *m_laneMode; // owned by the toolbar
};

} // namespace Cachescope
