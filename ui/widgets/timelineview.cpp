#include "ui/widgets/timelineview.h"

#include "core/workqueue/ratelimitingqueue.h"
#include "ui/models/timelinemodel.h"
#include "ui/widgets/queuemetricspanel.h"
#include "ui/widgets/timelinewidget.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QToolBar>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

TimelineView::TimelineView(RateLimitingQueue *queue, int workers, QWidget *parent)
    : TimelineView(parent)
{
    setQueue(queue, workers);
}

TimelineView::TimelineView(QWidget *parent)
    : QWidget(parent)
    , m_model(new TimelineModel(this))
    , m_toolBar(new QToolBar(this))
    , m_timeline(new TimelineWidget(m_model, this))
    , m_metrics(new QueueMetricsPanel(this))
    , m_noQueue(new QWidget(this))
    , m_start(new QPushButton(tr("Start a Controller…"), m_noQueue))
{
    auto *noQueueLabel =
        new QLabel(tr("No controller runs, so no queue is drawn. A controller on the shown resource queues its objects' keys here."), m_noQueue);
    noQueueLabel->setWordWrap(true);
    m_start->setObjectName(u"startController"_s);
    connect(m_start, &QPushButton::clicked, this, &TimelineView::startControllerRequested);
    auto *noQueueLayout = new QHBoxLayout(m_noQueue);
    noQueueLayout->addWidget(noQueueLabel, 1);
    noQueueLayout->addWidget(m_start);

    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setIconSize(QSize(16, 16));

    m_follow = m_toolBar->addAction(QIcon::fromTheme(u"go-last"_s), tr("Follow live"));
    m_follow->setCheckable(true);
    m_follow->setChecked(m_timeline->followLive());
    m_follow->setToolTip(tr("Keep the newest work in view (turns off when you drag the timeline)"));
    connect(m_follow, &QAction::toggled, m_timeline, &TimelineWidget::setFollowLive);
    connect(m_timeline, &TimelineWidget::followLiveChanged, m_follow, &QAction::setChecked);

    m_pause = m_toolBar->addAction(QIcon::fromTheme(u"media-playback-pause"_s), tr("Pause"));
    m_pause->setCheckable(true);
    m_pause->setToolTip(tr("Freeze the picture; the queue's events are still recorded"));
    connect(m_pause, &QAction::toggled, m_timeline, &TimelineWidget::setPaused);
    connect(m_timeline, &TimelineWidget::pausedChanged, m_pause, &QAction::setChecked);

    m_zoomToFit = m_toolBar->addAction(QIcon::fromTheme(u"zoom-fit-best"_s), tr("Zoom to fit"));
    m_zoomToFit->setToolTip(tr("Show all the work still kept"));
    connect(m_zoomToFit, &QAction::triggered, this, [this] {
        m_timeline->setFollowLive(false);
        m_timeline->zoomToFit();
    });

    m_toolBar->addSeparator();
    m_toolBar->addWidget(new QLabel(tr("Lanes:"), m_toolBar));
    m_laneMode = new QComboBox(m_toolBar);
    m_laneMode->addItem(tr("Per worker"), QVariant::fromValue(static_cast<int>(TimelineLane::Mode::Worker)));
    m_laneMode->addItem(tr("Per key"), QVariant::fromValue(static_cast<int>(TimelineLane::Mode::Key)));
    m_laneMode->setCurrentIndex(m_timeline->laneMode() == TimelineLane::Mode::Worker ? 0 : 1);
    m_toolBar->addWidget(m_laneMode);
    connect(m_laneMode, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_timeline->setLaneMode(static_cast<TimelineLane::Mode>(m_laneMode->itemData(index).toInt()));
    });
    connect(m_timeline, &TimelineWidget::laneModeChanged, this, [this](TimelineLane::Mode mode) {
        m_laneMode->setCurrentIndex(m_laneMode->findData(static_cast<int>(mode)));
    });

    connect(m_timeline, &TimelineWidget::keyActivated, this, &TimelineView::keyActivated);
    connect(m_model, &TimelineModel::changed, this, [this] {
        if (!m_timeline->isPaused()) {
            m_metrics->setMetrics(m_model->metrics());
        }
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar);
    layout->addWidget(m_noQueue);
    layout->addWidget(m_timeline, 1);
    layout->addWidget(m_metrics);
}

TimelineView::~TimelineView() = default;

void TimelineView::setQueue(RateLimitingQueue *queue, int workers)
{
    m_model->setQueue(nullptr);
    m_model->clear();
    m_model->setWorkerCount(workers);
    m_model->setQueue(queue);
    m_metrics->setMetrics(m_model->metrics());
    m_noQueue->setVisible(queue == nullptr);
}

} // namespace Cachescope
