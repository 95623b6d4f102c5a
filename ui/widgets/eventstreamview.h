#pragma once

#include "ui/models/eventstreammodel.h"
#include <QPointer>
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace Cachescope {

class EventStreamFilter;

// EventStreamView is the event stream's window: the table of an EventStreamModel behind an
// EventStreamFilter, with checkable types, a namespace choice, a free-text filter (debounced),
// pause, follow-tail and the events-per-second rate.
// Thread: GUI thread. Ownership: the model is not owned (QPointer); the filter is a child.
class EventStreamView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EventStreamView)

public:
    explicit EventStreamView(QWidget *parent = nullptr);
    ~EventStreamView() override;

    void setModel(EventStreamModel *model);
    [[nodiscard]] EventStreamModel *model() const { return m_model; }

    [[nodiscard]] EventStreamFilter *filter() const { return m_filter; }
    [[nodiscard]] QTableView *table() const { return m_table; }
    [[nodiscard]] QLineEdit *searchLine() const { return m_search; }
    [[nodiscard]] QComboBox *namespaceBox() const { return m_namespaces; }
    [[nodiscard]] QLabel *rateLabel() const { return m_rate; }
    [[nodiscard]] QAction *addedAction() const { return m_addedAction; }
    [[nodiscard]] QAction *updatedAction() const { return m_updatedAction; }
    [[nodiscard]] QAction *deletedAction() const { return m_deletedAction; }
    [[nodiscard]] QAction *pauseAction() const { return m_pauseAction; }
    [[nodiscard]] QAction *followAction() const { return m_followAction; }

    // updateRate() refreshes the rate label now (a timer does it every second).
    void updateRate();

private:
    void refreshNamespaces();

    QPointer<EventStreamModel> m_model; // not owned
    EventStreamFilter *m_filter; // owned (child)
    QTableView *m_table; // owned (child)
    QLineEdit *m_search; // owned (child)
    QComboBox *m_namespaces; // owned (child)
    QLabel *m_rate; // owned (child)
    QTimer *m_searchDebounce; // owned (child)
    QTimer *m_rateTimer; // owned (child)
    QAction *m_addedAction; // owned (child)
    QAction *m_updatedAction; // owned (child)
    QAction *m_deletedAction; // owned (child)
    QAction *m_pauseAction; // owned (child)
    QAction *m_followAction; // owned (child)
};

} // namespace Cachescope
