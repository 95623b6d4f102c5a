#pragma once

#include "ui/models/timelinemetrics.h"

#include <QWidget>

class QLabel;

namespace Cachescope {

// QueueMetricsPanel shows a workqueue's metrics as client-go exports them, live: depth, adds
// per second, queue latency and work duration (p50 / p99), retries, keys processing, unfinished
// work and the longest running processor. It only displays what setMetrics() gives it.
// Thread: GUI thread. Cost: a handful of label updates per call.
class QueueMetricsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QueueMetricsPanel)

public:
    // The figures it shows, in order; also the object names of their value labels.
    enum class Field { Depth, AddsPerSecond, QueueLatency, WorkDuration, Retries, Processing, UnfinishedWork, LongestRunning };
    Q_ENUM(Field)

    explicit QueueMetricsPanel(QWidget *parent = nullptr);
    ~QueueMetricsPanel() override;

    void setMetrics(const TimelineMetrics &metrics);
    // The text shown for field, for tests and for copying.
    [[nodiscard]] QString valueText(Field field) const;

private:
    QList<QLabel *> m_values; // owned (children), indexed by Field
};

} // namespace Cachescope
