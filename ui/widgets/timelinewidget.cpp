#include "ui/widgets/timelinewidget.h"

#include "ui/models/timelinemodel.h"
#include "ui/widgets/timelineformat.h"

#include <QApplication>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <array>
#include <cmath>

using namespace Qt::Literals::StringLiterals;
using namespace std::chrono_literals;

namespace Cachescope {
namespace {

constexpr Duration DefaultSpan = 10s;
constexpr Duration MinimumSpan = 10us;
constexpr Duration MaximumSpan = std::chrono::hours(24);
// A click within this many pixels of a thin span hits it: at a wide zoom most spans are a pixel.
constexpr qreal HitSlopPixels = 3;

struct Colours
{
    QColor waiting;
    QColor processing;
    QColor backoff;
    QColor failed;
    QColor forgotten;
    QColor mark;
    QColor grid;
    QColor now;
};

// Colours that read on both palettes: the same hues, lighter and more saturated on a dark base
// so they keep their contrast against it.
Colours coloursFor(const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    Colours c;
    c.waiting = dark ? QColor(0xf0, 0xb9, 0x4d) : QColor(0xe3, 0xa2, 0x1a);
    c.processing = dark ? QColor(0x5a, 0xa9, 0xf5) : QColor(0x1f, 0x6f, 0xc4);
    c.backoff = dark ? QColor(0xe0, 0x7b, 0xbd) : QColor(0xb0, 0x3a, 0x80);
    c.failed = dark ? QColor(0xff, 0x6b, 0x5e) : QColor(0xd0, 0x21, 0x14);
    c.forgotten = dark ? QColor(0x5c, 0xcf, 0x7f) : QColor(0x23, 0x8b, 0x45);
    c.mark = palette.color(QPalette::Text);
    c.grid = palette.color(QPalette::Mid);
    c.grid.setAlpha(dark ? 110 : 80);
    c.now = palette.color(QPalette::Highlight);
    return c;
}

// A tick step of 1, 2 or 5 times a power of ten nanoseconds, so that ticks are at least
// minimumPixels apart.
Duration tickStep(Duration span, qreal width, qreal minimumPixels)
{
    const double nsPerPixel = static_cast<double>(span.count()) / std::max<qreal>(width, 1);
    const double wanted = nsPerPixel * minimumPixels;
    double step = 1;
    while (step < wanted) {
        if (step * 2 >= wanted) {
            step *= 2;
            break;
        }
        if (step * 5 >= wanted) {
            step *= 5;
            break;
        }
        step *= 10;
    }
    return Duration(static_cast<Duration::rep>(step));
}

QString spanKindName(TimelineSpan::Kind kind)
{
    switch (kind) {
    case TimelineSpan::Kind::Waiting:
        return TimelineWidget::tr("Waiting in queue");
    case TimelineSpan::Kind::Processing:
        return TimelineWidget::tr("Processing");
    case TimelineSpan::Kind::Backoff:
        return TimelineWidget::tr("Rate-limited backoff");
    }
    return {};
}

} // namespace

TimelineWidget::TimelineWidget(TimelineModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_scrollBar(new QScrollBar(Qt::Vertical, this))
    , m_span(DefaultSpan)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::WheelFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setBackgroundRole(QPalette::Base);
    m_scrollBar->setSingleStep(1);
    connect(m_scrollBar, &QScrollBar::valueChanged, this, [this](int value) { setFirstLane(value); });
    if (m_model) {
        m_start = m_model->now() - m_span;
        connect(m_model, &TimelineModel::changed, this, &TimelineWidget::modelChanged);
        refreshLanes();
    }
}

TimelineWidget::~TimelineWidget() = default;

QSize TimelineWidget::sizeHint() const
{
    return {800, 300};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {240, axisHeight() + 3 * laneHeight()};
}

void TimelineWidget::setLaneMode(LaneMode mode)
{
    if (mode == m_mode) {
        return;
    }
    m_mode = mode;
    m_firstLane = 0;
    refreshLanes();
    update();
    Q_EMIT laneModeChanged(mode);
}

void TimelineWidget::setFollowLive(bool follow)
{
    if (follow == m_follow) {
        return;
    }
    m_follow = follow;
    if (m_follow) {
        followNow();
    }
    Q_EMIT followLiveChanged(follow);
}

void TimelineWidget::setPaused(bool paused)
{
    if (paused == m_paused) {
        return;
    }
    m_paused = paused;
    if (m_paused) {
        m_frozenNow = m_model ? m_model->now() : TimePoint();
    } else {
        refreshLanes();
        if (m_follow) {
            followNow();
        }
    }
    update();
    Q_EMIT pausedChanged(paused);
}

void TimelineWidget::setVisibleRange(TimePoint start, TimePoint end)
{
    if (end <= start) {
        return;
    }
    const Duration span = std::clamp<Duration>(end - start, MinimumSpan, MaximumSpan);
    if (start == m_start && span == m_span) {
        return;
    }
    m_start = start;
    m_span = span;
    update();
    Q_EMIT visibleRangeChanged();
}

void TimelineWidget::zoom(double factor, qreal x)
{
    if (!(factor > 0)) {
        return;
    }
    const Duration span = std::clamp<Duration>(Duration(static_cast<Duration::rep>(static_cast<double>(m_span.count()) * factor)), MinimumSpan, MaximumSpan);
    if (m_follow) {
        const TimePoint end = paintNow();
        setVisibleRange(end - span, end);
        return;
    }
    // Keep the time under the cursor where it is.
    const TimePoint anchor = timeForX(x);
    const QRect plot = plotRect();
    const double fraction = plot.width() > 0 ? std::clamp((x - plot.left()) / plot.width(), 0.0, 1.0) : 0.5;
    const TimePoint start = anchor - Duration(static_cast<Duration::rep>(fraction * static_cast<double>(span.count())));
    setVisibleRange(start, start + span);
}

void TimelineWidget::zoomToFit()
{
    if (!m_model) {
        return;
    }
    const TimePoint end = paintNow();
    const TimePoint start = std::min(m_model->oldest(), end - MinimumSpan);
    // A little room on the left so the oldest span does not touch the labels.
    const Duration margin = (end - start) / 50;
    setVisibleRange(start - margin, end);
}

void TimelineWidget::setFirstLane(int lane)
{
    const int maximum = std::max(0, static_cast<int>(m_lanes.size()) - visibleLaneCount());
    lane = std::clamp(lane, 0, maximum);
    if (lane == m_firstLane) {
        return;
    }
    m_firstLane = lane;
    m_scrollBar->setValue(lane);
    update();
}

void TimelineWidget::modelChanged()
{
    if (m_paused) {
        return;
    }
    refreshLanes();
    if (m_follow) {
        followNow();
    }
    update();
}

void TimelineWidget::refreshLanes()
{
    m_lanes = m_model ? m_model->lanes(m_mode) : QList<TimelineLane>();
    updateScrollBar();
}

void TimelineWidget::followNow()
{
    if (!m_model) {
        return;
    }
    const TimePoint end = paintNow();
    setVisibleRange(end - m_span, end);
}

void TimelineWidget::updateScrollBar()
{
    const int maximum = std::max(0, static_cast<int>(m_lanes.size()) - visibleLaneCount());
    const QSignalBlocker blocker(m_scrollBar);
    m_scrollBar->setRange(0, maximum);
    m_scrollBar->setPageStep(std::max(1, visibleLaneCount()));
    m_firstLane = std::clamp(m_firstLane, 0, maximum);
    m_scrollBar->setValue(m_firstLane);
    m_scrollBar->setVisible(maximum > 0);
}

TimePoint TimelineWidget::paintNow() const
{
    if (m_paused) {
        return m_frozenNow;
    }
    return m_model ? m_model->now() : TimePoint();
}

int TimelineWidget::labelWidth() const
{
    return fontMetrics().horizontalAdvance(u'M') * 14;
}

int TimelineWidget::axisHeight() const
{
    return fontMetrics().height() + 8;
}

int TimelineWidget::laneHeight() const
{
    return fontMetrics().height() + 4;
}

QRect TimelineWidget::plotRect() const
{
    const int scrollWidth = m_scrollBar->isVisible() ? m_scrollBar->sizeHint().width() : 0;
    return QRect(labelWidth(), axisHeight(), std::max(1, width() - labelWidth() - scrollWidth), std::max(1, height() - axisHeight()));
}

int TimelineWidget::visibleLaneCount() const
{
    return std::max(1, (height() - axisHeight()) / laneHeight());
}

QRect TimelineWidget::laneRect(int index) const
{
    const int row = index - m_firstLane;
    if (index < 0 || index >= m_lanes.size() || row < 0 || row >= visibleLaneCount()) {
        return {};
    }
    const QRect plot = plotRect();
    return QRect(plot.left(), plot.top() + row * laneHeight(), plot.width(), laneHeight());
}

int TimelineWidget::laneAt(int y) const
{
    const QRect plot = plotRect();
    if (y < plot.top()) {
        return -1;
    }
    const int index = m_firstLane + (y - plot.top()) / laneHeight();
    return index < m_lanes.size() ? index : -1;
}

qreal TimelineWidget::xForTime(TimePoint t) const
{
    const QRect plot = plotRect();
    return plot.left() + static_cast<qreal>((t - m_start).count()) / static_cast<qreal>(m_span.count()) * plot.width();
}

TimePoint TimelineWidget::timeForX(qreal x) const
{
    const QRect plot = plotRect();
    return m_start + Duration(static_cast<Duration::rep>((x - plot.left()) / plot.width() * static_cast<double>(m_span.count())));
}

std::optional<TimelineSpan> TimelineWidget::spanAt(QPoint pos) const
{
    const int index = laneAt(pos.y());
    if (!m_model || index < 0 || pos.x() < plotRect().left()) {
        return std::nullopt;
    }
    const TimePoint t = timeForX(pos.x());
    if (t > paintNow()) {
        return std::nullopt;
    }
    const Duration slop(static_cast<Duration::rep>(HitSlopPixels * static_cast<double>(m_span.count()) / plotRect().width()));
    return m_model->spanAt(m_lanes.at(index), t, slop);
}

QString TimelineWidget::laneLabel(const TimelineLane &lane) const
{
    if (lane.mode == LaneMode::Key) {
        return lane.key;
    }
    return lane.worker < 0 ? tr("Unknown worker") : tr("Worker %1").arg(lane.worker);
}

QString TimelineWidget::toolTipAt(QPoint pos) const
{
    if (pos.x() < plotRect().left()) {
        const int index = laneAt(pos.y());
        return index >= 0 ? laneLabel(m_lanes.at(index)) : QString();
    }
    const std::optional<TimelineSpan> span = spanAt(pos);
    if (!span) {
        return {};
    }
    const TimePoint now = paintNow();
    QStringList lines;
    lines << u"<b>%1</b>"_s.arg(span->key.toHtmlEscaped());
    lines << spanKindName(span->kind) + (span->open ? tr(" (running)") : QString());
    lines << tr("From %1 to %2 ago, %3")
                 .arg(formatTimelineDuration(now - span->start),
                      formatTimelineDuration(now - std::min(span->end, now)),
                      formatTimelineDuration(span->duration()));
    switch (span->kind) {
    case TimelineSpan::Kind::Processing:
        lines << tr("Attempt %1 on worker %2").arg(span->attempt).arg(span->worker < 0 ? tr("unknown") : QString::number(span->worker));
        if (span->failed) {
            lines << (span->error.isEmpty() ? tr("Failed") : tr("Failed: %1").arg(span->error.toHtmlEscaped()));
        }
        break;
    case TimelineSpan::Kind::Backoff:
        if (span->failed) {
            lines << tr("Retry %1, delay %2").arg(span->attempt).arg(formatTimelineDuration(span->plannedEnd - span->start));
        } else {
            lines << tr("Added after %1").arg(formatTimelineDuration(span->plannedEnd - span->start));
        }
        break;
    case TimelineSpan::Kind::Waiting:
        lines << tr("Attempt %1").arg(span->attempt);
        break;
    }
    return lines.join(u"<br>"_s);
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const int w = m_scrollBar->sizeHint().width();
    m_scrollBar->setGeometry(width() - w, axisHeight(), w, height() - axisHeight());
    updateScrollBar();
}

void TimelineWidget::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateScrollBar();
    }
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        update();
    }
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if ((event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y())) {
        const int steps = (delta.y() != 0 ? delta.y() : delta.x()) / 40;
        setFirstLane(m_firstLane - steps);
    } else if (delta.y() != 0) {
        // One notch (120) zooms by about 20 %.
        zoom(std::pow(2.0, -delta.y() / 480.0), event->position().x());
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position().toPoint();
    m_pressStart = m_start;
    m_pressFirstLane = m_firstLane;
    event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressed) {
        return;
    }
    const QPoint delta = event->position().toPoint() - m_pressPos;
    if (!m_dragging && delta.manhattanLength() < QApplication::startDragDistance()) {
        return;
    }
    if (!m_dragging) {
        m_dragging = true;
        setCursor(Qt::ClosedHandCursor);
    }
    if (delta.x() != 0) {
        // Panning means looking at the past: following would snap the view back at once.
        setFollowLive(false);
        const Duration shift(static_cast<Duration::rep>(static_cast<double>(delta.x()) / plotRect().width() * static_cast<double>(m_span.count())));
        setVisibleRange(m_pressStart - shift, m_pressStart - shift + m_span);
    }
    setFirstLane(m_pressFirstLane - delta.y() / laneHeight());
    event->accept();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        unsetCursor();
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (pos.x() < plotRect().left()) {
        const int index = laneAt(pos.y());
        if (index >= 0 && m_lanes.at(index).mode == LaneMode::Key) {
            Q_EMIT keyActivated(m_lanes.at(index).key);
        }
        return;
    }
    if (const std::optional<TimelineSpan> span = spanAt(pos)) {
        Q_EMIT keyActivated(span->key);
    }
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    const QPalette pal = palette();
    const Colours colours = coloursFor(pal);
    const QRect plot = plotRect();
    const int rowHeight = laneHeight();
    p.fillRect(rect(), pal.color(QPalette::Base));

    // Alternate lane backgrounds, labels.
    const int label = labelWidth();
    const int rows = visibleLaneCount();
    const int last = std::min(static_cast<int>(m_lanes.size()), m_firstLane + rows);
    for (int i = m_firstLane; i < last; ++i) {
        const QRect lane(0, plot.top() + (i - m_firstLane) * rowHeight, plot.right() + 1, rowHeight);
        if (i % 2 == 1) {
            p.fillRect(lane, pal.color(QPalette::AlternateBase));
        }
        p.setPen(pal.color(QPalette::Text));
        const QRect text(lane.left() + 4, lane.top(), label - 8, lane.height());
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(laneLabel(m_lanes.at(i)), Qt::ElideMiddle, text.width()));
    }

    // Time axis: ticks relative to now, so the labels say how long ago.
    const TimePoint now = paintNow();
    const TimePoint t0 = m_start;
    const TimePoint t1 = m_start + m_span;
    p.fillRect(QRect(0, 0, width(), plot.top()), pal.color(QPalette::Window));
    const Duration step = tickStep(m_span, plot.width(), fontMetrics().horizontalAdvance(u"−00.00 ms"_s) + 16);
    {
        // Ticks sit on multiples of step counted back from now.
        const Duration sinceNow = now - t1;
        Duration offset = Duration((sinceNow.count() / step.count()) * step.count());
        for (TimePoint t = now - offset; t >= t0; t -= step) {
            if (t > t1) {
                continue;
            }
            const qreal x = xForTime(t);
            p.setPen(colours.grid);
            p.drawLine(QPointF(x, plot.top()), QPointF(x, height()));
            p.setPen(pal.color(QPalette::WindowText));
            const QString text = t == now ? tr("now") : formatTimelineDuration(t - now);
            p.drawText(QRectF(x - 60, 0, 120, plot.top()), Qt::AlignCenter, text);
        }
    }

    if (m_model) {
        p.save();
        p.setClipRect(plot);
        const qreal pixelsPerNs = plot.width() / static_cast<qreal>(m_span.count());
        const auto xOf = [&](TimePoint t) {
            return plot.left() + static_cast<qreal>((t - t0).count()) * pixelsPerNs;
        };
        for (int i = m_firstLane; i < last; ++i) {
            const TimelineLane &lane = m_lanes.at(i);
            const int top = plot.top() + (i - m_firstLane) * rowHeight;
            // The right edge already painted per kind: spans that fall entirely within a painted
            // pixel add nothing and are skipped, which keeps a zoomed-out frame cheap.
            std::array<qreal, 3> painted{-1e9, -1e9, -1e9};
            m_model->visitSpans(lane, t0, std::min(t1, now), [&](const TimelineSpan &s) {
                const int kind = static_cast<int>(s.kind);
                qreal x0 = xOf(s.start);
                qreal x1 = xOf(std::min(s.end, now));
                if (x1 - x0 < 1) {
                    x1 = x0 + 1;
                }
                if (x1 <= painted[kind] + 0.5) {
                    return;
                }
                x0 = std::max(x0, painted[kind]);
                painted[kind] = x1;
                switch (s.kind) {
                case TimelineSpan::Kind::Waiting:
                    p.fillRect(QRectF(x0, top + 3, x1 - x0, rowHeight - 6), colours.waiting);
                    break;
                case TimelineSpan::Kind::Processing:
                    p.fillRect(QRectF(x0, top + 1, x1 - x0, rowHeight - 2), colours.processing);
                    if (s.failed && !s.open) {
                        p.fillRect(QRectF(x1 - 2, top + 1, 2, rowHeight - 2), colours.failed);
                    }
                    break;
                case TimelineSpan::Kind::Backoff: {
                    // A band at the bottom: a key can wait in backoff while it is processed.
                    const QRectF band(x0, top + rowHeight * 0.6, x1 - x0, rowHeight * 0.4 - 1);
                    p.fillRect(band, colours.backoff);
                    if (s.failed && x1 - x0 > 3) {
                        p.fillRect(QRectF(x0, band.top(), 2, band.height()), colours.failed);
                    }
                    break;
                }
                }
            });
            if (lane.mode == LaneMode::Key) {
                for (const TimelineMark &m : m_model->marksIn(lane, t0, std::min(t1, now))) {
                    const qreal x = xOf(m.time);
                    QColor colour = colours.mark;
                    switch (m.kind) {
                    case TimelineMark::Kind::Forgotten:
                        colour = colours.forgotten;
                        break;
                    case TimelineMark::Kind::GivenUp:
                    case TimelineMark::Kind::Rejected:
                        colour = colours.failed;
                        break;
                    default:
                        break;
                    }
                    QPainterPath triangle;
                    triangle.moveTo(x - 3, top);
                    triangle.lineTo(x + 3, top);
                    triangle.lineTo(x, top + 4);
                    triangle.closeSubpath();
                    p.fillPath(triangle, colour);
                    if (m.kind == TimelineMark::Kind::GivenUp || m.kind == TimelineMark::Kind::Forgotten) {
                        p.fillRect(QRectF(x - 0.5, top, 1.5, rowHeight), colour);
                    }
                }
            }
        }
        if (now >= t0 && now <= t1) {
            p.setPen(QPen(colours.now, 1));
            p.drawLine(QPointF(xOf(now), plot.top()), QPointF(xOf(now), plot.bottom()));
        }
        p.restore();
    }

    if (m_lanes.isEmpty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(plot, Qt::AlignCenter, m_model ? tr("No work yet") : tr("No queue"));
    }
    p.setPen(colours.grid);
    p.drawLine(label - 1, plot.top(), label - 1, height());
}

} // namespace Cachescope
