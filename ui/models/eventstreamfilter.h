#pragma once

#include "core/cache/notification.h"

#include <QSortFilterProxyModel>
#include <QString>

namespace Cachescope {

// EventStreamFilter filters an EventStreamModel by notification type, namespace and free text.
// Text matches, case-insensitively, anywhere in the key, resource, cluster, resourceVersion or
// summary. An empty namespace or text matches every row; all types are shown initially.
// Thread: GUI thread. Cost: each setter refilters every row (O(rows)); debounce typed text.
class EventStreamFilter final : public QSortFilterProxyModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventStreamFilter)

public:
    explicit EventStreamFilter(QObject *parent = nullptr);
    ~EventStreamFilter() override;

    void setTypeShown(Notification::Type type, bool shown);
    [[nodiscard]] bool isTypeShown(Notification::Type type) const;
    void setNamespace(const QString &namespaceName);
    [[nodiscard]] QString namespaceName() const { return m_namespace; }
    void setText(const QString &text);
    [[nodiscard]] QString text() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    static int typeBit(Notification::Type type) { return 1 << static_cast<int>(type); }

    QString m_namespace;
    QString m_text;
    int m_types = 0b111;
};

} // namespace Cachescope
