#include "ui/widgets/resourcetabledelegate.h"

#include "ui/models/resourcetableroles.h"

#include <QDateTime>
#include <QPainter>

namespace Cachescope {

ResourceTableDelegate::ResourceTableDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{
}

ResourceTableDelegate::~ResourceTableDelegate() = default;

double ResourceTableDelegate::flashStrength(qint64 changedAt, qint64 now) const
{
    if (changedAt <= 0 || m_flashMs <= 0) {
        return 0;
    }
    const qint64 elapsed = now - changedAt;
    if (elapsed < 0 || elapsed >= m_flashMs) {
        return 0;
    }
    return 1.0 - double(elapsed) / double(m_flashMs);
}

void ResourceTableDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const double strength = flashStrength(index.data(ResourceTableRoles::ChangedAtRole).toLongLong(), QDateTime::currentMSecsSinceEpoch());
    if (strength > 0) {
        QColor color = option.palette.color(QPalette::Active, QPalette::Highlight);
        // At most 40 % opaque, so the text stays readable over it in both light and dark palettes.
        color.setAlphaF(float(0.4 * strength));
        painter->fillRect(option.rect, color);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace Cachescope
