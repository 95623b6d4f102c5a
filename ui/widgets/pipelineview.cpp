#include "ui/widgets/pipelineview.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QLineF>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <cmath>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

using Stage = PipelineModel::Stage;
using Health = PipelineModel::Health;

constexpr qreal Margin = 12;
constexpr qreal ColumnGap = 44; // room for an arrow and its rate between two boxes
constexpr qreal RowGap = 56;
constexpr qreal Padding = 8;

// Where each stage sits in the 4×2 grid of the diagram.
QPoint cellOf(Stage stage)
{
    switch (stage) {
    case Stage::ListerWatcher:
        return {0, 0};
    case Stage::Reflector:
        return {1, 0};
    case Stage::Queue:
        return {2, 0};
    case Stage::Informer:
        return {3, 0};
    case Stage::Indexer:
        return {3, 1};
    case Stage::Handlers:
        return {2, 1};
    case Stage::WorkQueue:
        return {1, 1};
    }
    return {0, 0};
}

QColor blend(const QColor &base, const QColor &tint, qreal amount)
{
    return QColor::fromRgbF(base.redF() + (tint.redF() - base.redF()) * amount,
                            base.greenF() + (tint.greenF() - base.greenF()) * amount,
                            base.blueF() + (tint.blueF() - base.blueF()) * amount);
}

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

// healthColor() picks a hue per health, lighter on dark backgrounds so that it keeps its
// contrast against the text and the fill in both themes.
QColor healthColor(Health health, const QPalette &palette)
{
    const bool dark = isDark(palette);
    switch (health) {
    case Health::Idle:
        // Halfway between text and background: visible, and plainly not a state of alarm,
        // whatever the palette's disabled colours (many custom palettes leave them unset).
        return blend(palette.color(QPalette::Window), palette.color(QPalette::WindowText), 0.45);
    case Health::Ok:
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    case Health::Busy:
        return dark ? QColor(0x64, 0xb5, 0xf6) : QColor(0x15, 0x65, 0xc0);
    case Health::Warning:
        return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0xe6, 0x51, 0x00);
    case Health::Error:
        return dark ? QColor(0xef, 0x53, 0x50) : QColor(0xc6, 0x28, 0x28);
    }
    return palette.color(QPalette::WindowText);
}

QString rateText(double perSecond)
{
    if (perSecond <= 0) {
        return {};
    }
    return PipelineView::tr("%1/s").arg(QLocale().toString(perSecond, 'f', perSecond < 10 ? 1 : 0));
}

} // namespace

PipelineView::PipelineView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

PipelineView::~PipelineView() = default;

void PipelineView::setModel(PipelineModel *model)
{
    if (m_model) {
        disconnect(m_model, nullptr, this, nullptr);
    }
    m_model = model;
    if (model) {
        const auto repaint = [this] {
            update();
        };
        connect(model, &PipelineModel::sampled, this, repaint);
        connect(model, &QAbstractItemModel::modelReset, this, repaint);
        connect(model, &QAbstractItemModel::rowsInserted, this, repaint);
        connect(model, &QAbstractItemModel::rowsRemoved, this, repaint);
    }
    update();
}

QSize PipelineView::sizeHint() const
{
    return {4 * 190 + 3 * int(ColumnGap) + 2 * int(Margin), 2 * 130 + int(RowGap) + 2 * int(Margin)};
}

QSize PipelineView::minimumSizeHint() const
{
    return {4 * 110 + 3 * int(ColumnGap) + 2 * int(Margin), 2 * 80 + int(RowGap) + 2 * int(Margin)};
}

QRectF PipelineView::boxRect(Stage stage) const
{
    const qreal width = (qreal(this->width()) - 2 * Margin - 3 * ColumnGap) / 4;
    const qreal height = (qreal(this->height()) - 2 * Margin - RowGap) / 2;
    const QPoint cell = cellOf(stage);
    return {Margin + cell.x() * (width + ColumnGap), Margin + cell.y() * (height + RowGap), std::max<qreal>(width, 1), std::max<qreal>(height, 1)};
}

std::optional<PipelineModel::Stage> PipelineView::stageAt(const QPointF &pos) const
{
    for (const Stage stage : {Stage::ListerWatcher, Stage::Reflector, Stage::Queue, Stage::Informer, Stage::Indexer, Stage::Handlers, Stage::WorkQueue}) {
        if (boxRect(stage).contains(pos)) {
            return stage;
        }
    }
    return std::nullopt;
}

QString PipelineView::toolTipFor(Stage stage) const
{
    if (!m_model) {
        return {};
    }
    if (stage == Stage::WorkQueue && !m_model->hasWorkQueue()) {
        return tr("No controller's work queue is attached to this informer.");
    }
    QStringList lines{m_model->stageTitle(stage) + u": "_s + m_model->stateText(stage)};
    lines += m_model->details(stage);
    const QString rate = rateText(m_model->inputRate(stage));
    if (!rate.isEmpty()) {
        lines.append(tr("in: %1").arg(rate));
    }
    return lines.join(u'\n');
}

bool PipelineView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const std::optional<Stage> stage = stageAt(help->pos());
        if (stage) {
            QToolTip::showText(help->globalPos(), toolTipFor(*stage), this, boxRect(*stage).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void PipelineView::paintEvent(QPaintEvent *)
{
    m_paintedTexts.clear();
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    const auto drawText = [this, &painter](const QRectF &rect, int flags, const QString &text) {
        painter.drawText(rect, flags, text);
        m_paintedTexts.append(text);
    };

    if (!m_model || !m_model->informer()) {
        painter.setPen(healthColor(Health::Idle, pal));
        drawText(QRectF(rect()), Qt::AlignCenter, tr("No informer selected"));
        return;
    }

    // Arrows first, so that boxes sit on top of their ends.
    const QColor idleArrow = healthColor(Health::Idle, pal);
    const QColor flowingArrow = pal.color(QPalette::Highlight);
    QFont rateFont = font();
    rateFont.setPointSizeF(rateFont.pointSizeF() * 0.85);
    const auto drawArrow = [&](const QPointF &from, const QPointF &to, double perSecond, bool dashed) {
        const QString rate = rateText(perSecond);
        const QColor colour = rate.isEmpty() ? idleArrow : flowingArrow;
        QPen pen(colour, 1.5);
        if (dashed) {
            pen.setStyle(Qt::DashLine);
        }
        painter.setPen(pen);
        const QLineF line(from, to);
        painter.drawLine(line);
        // The head: a small triangle pointing along the line.
        const qreal angle = std::atan2(-line.dy(), line.dx());
        const qreal size = 8;
        const QPointF left = to - QPointF(std::cos(angle - M_PI / 7) * size, -std::sin(angle - M_PI / 7) * size);
        const QPointF right = to - QPointF(std::cos(angle + M_PI / 7) * size, -std::sin(angle + M_PI / 7) * size);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colour);
        painter.drawPolygon(QPolygonF{to, left, right});
        painter.setBrush(Qt::NoBrush);
        if (!rate.isEmpty()) {
            painter.setFont(rateFont);
            painter.setPen(pal.color(QPalette::WindowText));
            const QPointF middle = line.center();
            const bool vertical = std::abs(line.dx()) < std::abs(line.dy());
            const QRectF label = vertical ? QRectF(middle.x() + 4, middle.y() - 10, 80, 20) : QRectF(middle.x() - 40, middle.y() - 22, 80, 18);
            drawText(label, (vertical ? Qt::AlignLeft : Qt::AlignHCenter) | Qt::AlignVCenter, rate);
        }
    };
    const auto rightOf = [this](Stage stage) {
        const QRectF box = boxRect(stage);
        return QPointF(box.right(), box.center().y());
    };
    const auto leftOf = [this](Stage stage) {
        const QRectF box = boxRect(stage);
        return QPointF(box.left(), box.center().y());
    };
    drawArrow(rightOf(Stage::ListerWatcher), leftOf(Stage::Reflector), m_model->inputRate(Stage::Reflector), false);
    drawArrow(rightOf(Stage::Reflector), leftOf(Stage::Queue), m_model->inputRate(Stage::Queue), false);
    drawArrow(rightOf(Stage::Queue), leftOf(Stage::Informer), m_model->inputRate(Stage::Informer), false);
    const QRectF informer = boxRect(Stage::Informer);
    const QRectF indexer = boxRect(Stage::Indexer);
    const QRectF handlers = boxRect(Stage::Handlers);
    drawArrow(QPointF(indexer.center().x(), informer.bottom()), QPointF(indexer.center().x(), indexer.top()), m_model->inputRate(Stage::Indexer), false);
    drawArrow(QPointF(informer.left() + informer.width() * 0.2, informer.bottom()),
              QPointF(handlers.right() - handlers.width() * 0.2, handlers.top()),
              m_model->inputRate(Stage::Handlers),
              false);
    drawArrow(leftOf(Stage::Handlers), rightOf(Stage::WorkQueue), m_model->inputRate(Stage::WorkQueue), !m_model->hasWorkQueue());

    // Boxes.
    QFont titleFont = font();
    titleFont.setBold(true);
    QFont detailFont = font();
    detailFont.setPointSizeF(detailFont.pointSizeF() * 0.85);
    const QFontMetricsF titleMetrics(titleFont);
    const QFontMetricsF textMetrics(font());
    const QFontMetricsF detailMetrics(detailFont);
    const QColor base = pal.color(QPalette::Base);
    for (const Stage stage : {Stage::ListerWatcher, Stage::Reflector, Stage::Queue, Stage::Informer, Stage::Indexer, Stage::Handlers, Stage::WorkQueue}) {
        const QRectF box = boxRect(stage);
        const bool absent = stage == Stage::WorkQueue && !m_model->hasWorkQueue();
        const QColor colour = absent ? healthColor(Health::Idle, pal) : healthColor(m_model->health(stage), pal);
        QPen border(colour, absent ? 1.0 : 2.0);
        if (absent) {
            border.setStyle(Qt::DashLine);
        }
        painter.setPen(border);
        painter.setBrush(absent ? base : blend(base, colour, 0.14));
        painter.drawRoundedRect(box.adjusted(1, 1, -1, -1), 6, 6);
        painter.setBrush(Qt::NoBrush);

        const QRectF inner = box.adjusted(Padding, Padding, -Padding, -Padding);
        const qreal width = inner.width();
        qreal y = inner.top();
        painter.setFont(titleFont);
        painter.setPen(pal.color(QPalette::Text));
        const QString title = absent ? u"WorkQueue"_s : m_model->stageTitle(stage);
        drawText(
            QRectF(inner.left(), y, width, titleMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter, titleMetrics.elidedText(title, Qt::ElideRight, width));
        y += titleMetrics.height() + 2;

        painter.setFont(font());
        painter.setPen(colour);
        const QString state = absent ? tr("no controller attached") : m_model->stateText(stage);
        if (y + textMetrics.height() <= inner.bottom() + 1) {
            drawText(
                QRectF(inner.left(), y, width, textMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter, textMetrics.elidedText(state, Qt::ElideRight, width));
            y += textMetrics.height() + 2;
        }

        if (absent) {
            continue;
        }
        painter.setFont(detailFont);
        painter.setPen(pal.color(QPalette::Text));
        const QStringList lines = m_model->details(stage);
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const bool lastThatFits = y + 2 * detailMetrics.height() > inner.bottom() + 1;
            if (y + detailMetrics.height() > inner.bottom() + 1) {
                break;
            }
            // When the rest does not fit, the last line that does says so (the tooltip has all).
            const QString text = lastThatFits && i + 1 < lines.size() ? tr("… %1 more").arg(lines.size() - i) : lines.at(i);
            drawText(QRectF(inner.left(), y, width, detailMetrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     detailMetrics.elidedText(text, Qt::ElideRight, width));
            y += detailMetrics.height();
        }
    }
}

} // namespace Cachescope
