#include "ui/widgets/queuemetricspanel.h"

#include "ui/widgets/timelineformat.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QMetaEnum>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QueueMetricsPanel::QueueMetricsPanel(QWidget *parent)
    : QWidget(parent)
{
    const QStringList names{
        tr("Depth"),
        tr("Adds/s"),
        tr("Queue latency p50 / p99"),
        tr("Work duration p50 / p99"),
        tr("Retries"),
        tr("Processing"),
        tr("Unfinished work"),
        tr("Longest running"),
    };
    const QStringList help{
        tr("Keys added and not yet handed to a worker (workqueue_depth)"),
        tr("Adds per second over the last two seconds, merged adds excluded (workqueue_adds_total)"),
        tr("Time from add to get (workqueue_queue_duration_seconds)"),
        tr("Time from get to done (workqueue_work_duration_seconds)"),
        tr("Rate-limited and delayed re-adds, total and per second (workqueue_retries_total)"),
        tr("Keys a worker is processing now"),
        tr("Sum of the time keys in processing have run so far (workqueue_unfinished_work_seconds)"),
        tr("The longest time one key has been processing (workqueue_longest_running_processor_seconds)"),
    };
    const QMetaEnum fields = QMetaEnum::fromType<Field>();
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setHorizontalSpacing(12);
    layout->setVerticalSpacing(2);
    // Two rows of four: the panel sits under the timeline and should stay short.
    constexpr int Columns = 4;
    for (int i = 0; i < names.size(); ++i) {
        auto *name = new QLabel(names.at(i), this);
        name->setToolTip(help.at(i));
        name->setForegroundRole(QPalette::PlaceholderText);
        auto *value = new QLabel(u"–"_s, this);
        value->setObjectName(QLatin1String(fields.valueToKey(i)));
        value->setToolTip(help.at(i));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        const int row = i / Columns;
        const int column = (i % Columns) * 2;
        layout->addWidget(name, row, column, Qt::AlignRight);
        layout->addWidget(value, row, column + 1, Qt::AlignLeft);
        m_values.append(value);
    }
    for (int c = 1; c < Columns * 2; c += 2) {
        layout->setColumnStretch(c, 1);
    }
}

QueueMetricsPanel::~QueueMetricsPanel() = default;

void QueueMetricsPanel::setMetrics(const TimelineMetrics &metrics)
{
    if (!metrics.valid) {
        for (QLabel *label : std::as_const(m_values)) {
            label->setText(u"–"_s);
        }
        return;
    }
    const QLocale locale;
    const QueueMetrics &q = metrics.queue;
    const auto set = [this](Field field, const QString &text) {
        m_values.at(static_cast<int>(field))->setText(text);
    };
    const auto quantiles = [](const DurationHistogram &h) -> QString {
        if (h.count() == 0) {
            return u"–"_s;
        }
        return formatTimelineDuration(h.quantile(0.5)) + u" / "_s + formatTimelineDuration(h.quantile(0.99));
    };
    set(Field::Depth, locale.toString(q.depth));
    set(Field::AddsPerSecond, locale.toString(metrics.addsPerSecond, 'f', 1));
    set(Field::QueueLatency, quantiles(q.queueLatency));
    set(Field::WorkDuration, quantiles(q.workDuration));
    set(Field::Retries, tr("%1 (%2/s)").arg(locale.toString(q.retries), locale.toString(metrics.retriesPerSecond, 'f', 1)));
    set(Field::Processing, locale.toString(q.processing));
    set(Field::UnfinishedWork, formatTimelineDuration(q.unfinishedWork));
    set(Field::LongestRunning, formatTimelineDuration(q.longestRunningProcessor));
}

QString QueueMetricsPanel::valueText(Field field) const
{
    return m_values.at(static_cast<int>(field))->text();
}

} // namespace Cachescope
