#pragma once

#include <QStyledItemDelegate>

namespace Cachescope {

// ResourceTableDelegate paints ResourceTableModel cells and lets a changed row flash: for
// flashDuration() after the row's ChangedAtRole time, the cell is underlaid with the palette's
// highlight colour, fading linearly to nothing. The colour comes from the view's palette, so the
// flash reads in light and dark themes alike. The delegate only paints; the view repaints while
// flashes are running (ResourceTableView does). Thread: GUI.
class ResourceTableDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTableDelegate)

public:
    explicit ResourceTableDelegate(QObject *parent = nullptr);
    ~ResourceTableDelegate() override;

    int flashDuration() const { return m_flashMs; }
    void setFlashDuration(int ms) { m_flashMs = ms; }

    // flashStrength() is the flash's opacity (0 to 1) for a row changed at changedAt, at now.
    [[nodiscard]] double flashStrength(qint64 changedAt, qint64 now) const;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    int m_flashMs = 1000;
};

} // namespace Cachescope
