#pragma once

#include "ui/models/navigationhistory.h"

#include <QHash>
#include <QPointer>
#include <QTabWidget>

class QAction;
class QSettings;

namespace Cachescope {

class ResourceTableModel;
class ResourceTableView;

// ResourceTabs holds the explorer's resource tables: a tab per table, each a ResourceTableView
// with its own ResourceTableModel (a child of the view, so on its own informer), and the place it
// shows (context, namespace, resource, and the object last opened from it). One page is current:
// the one the explorer's other views (object pane, indexes, pipeline, controller) follow. It is
// the current tab, or a table moved out into its own window once the user opens an object from
// it (moving a table out leaves the explorer on the tab the main window shows). A moved-out table goes back among the tabs when its window is closed. There is
// always at least one tab: closing the last one is refused.
//
// The pages' places are kept in QSettings (tables/places, tables/current) whenever they change,
// and read back with savedPlaces(); tables in their own windows are kept as tabs.
// Only the places are kept: the next start opens each table's informer when it is shown.
// GUI thread. A page is owned by the tab widget, or by its window while it is moved out.
class ResourceTabs final : public QTabWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResourceTabs)

public:
    using Place = NavigationHistory::Location;

    explicit ResourceTabs(QWidget *parent = nullptr);
    ~ResourceTabs() override;

    // addPage() opens a table showing `place` (nothing yet: the explorer gives it its informer)
    // as the last tab, and makes it current when asked; pageCreated() comes first.
    ResourceTableView *addPage(const Place &place, bool makeCurrent);
    // closePage() closes a page (its model and informer subscription go with it); false for the
    // last tab.
    bool closePage(ResourceTableView *page);
    // detachPage() moves a tab into a window of its own; false for the last tab.
    bool detachPage(ResourceTableView *page);
    // attachPage() brings a moved-out table back as a tab (its window closes).
    void attachPage(ResourceTableView *page);
    [[nodiscard]] bool isDetached(ResourceTableView *page) const;
    // windowOf() is a moved-out page's window (null for a tab).
    [[nodiscard]] QWidget *windowOf(ResourceTableView *page) const;

    [[nodiscard]] ResourceTableView *currentPage() const { return m_current; }
    // setCurrentPage() makes a page current: a tab is brought forward, a window raised.
    void setCurrentPage(ResourceTableView *page);
    // pages() are the tabs in their order, then the moved-out tables.
    [[nodiscard]] QList<ResourceTableView *> pages() const;
    [[nodiscard]] ResourceTableModel *modelOf(ResourceTableView *page) const;

    [[nodiscard]] Place place(ResourceTableView *page) const { return m_places.value(page); }
    // setPlace() says what a page shows now: its tab's title and tooltip follow, and it is kept.
    void setPlace(ResourceTableView *page, const Place &place);
    // titleOf() is a place as a tab names it: "pods · shop", "nodes", "deployments · all".
    [[nodiscard]] static QString titleOf(const Place &place);

    // savedPlaces() are the places kept by the last run, tabs first; `current` their current one.
    [[nodiscard]] static QList<Place> savedPlaces(QSettings &settings, int *current);
    static void savePlaces(QSettings &settings, const QList<Place> &places, int current);

    // The actions for a menu (they act on the current page): New Tab (Ctrl+T: the current
    // place again), Close Tab (Ctrl+W), Move Table to New Window, Next and Previous Tab.
    [[nodiscard]] QList<QAction *> actions() const { return m_actions; }
    [[nodiscard]] QAction *newTabAction() const { return m_newTab; }
    [[nodiscard]] QAction *closeTabAction() const { return m_closeTab; }
    [[nodiscard]] QAction *detachAction() const { return m_detach; }

Q_SIGNALS:
    // pageCreated(): a new page, before it shows anything; connect to its view here.
    void pageCreated(Cachescope::ResourceTableView *page);
    // pageClosing(): a page is about to go, its model with it.
    void pageClosing(Cachescope::ResourceTableView *page);
    void currentPageChanged(Cachescope::ResourceTableView *page);

private:
    void onCurrentTabChanged(int index);
    void updateTab(ResourceTableView *page);
    void save() const;
    void updateActions();
    void showTabMenu(const QPoint &position);

    QHash<ResourceTableView *, Place> m_places;
    QHash<ResourceTableView *, QWidget *> m_windows; // the moved-out pages' windows (owned, top level)
    QPointer<ResourceTableView> m_current;
    QAction *m_newTab; // owned (child)
    QAction *m_closeTab; // owned (child)
    QAction *m_detach; // owned (child)
    QAction *m_nextTab; // owned (child)
    QAction *m_previousTab; // owned (child)
    QList<QAction *> m_actions;
    bool m_closing = false; // the widget is being destroyed: nothing more is kept
};

} // namespace Cachescope
