#include "ui/widgets/resourcetabs.h"

#include "ui/models/resourcetablemodel.h"
#include "ui/widgets/resourcetableview.h"

#include <QAction>
#include <QCloseEvent>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QTabBar>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

const QString PlacesKey = u"tables/places"_s;
const QString CurrentKey = u"tables/current"_s;

// A moved-out table's window: closing it hands the table back to the tabs.
class DetachedTableWindow final : public QWidget
{
public:
    DetachedTableWindow(ResourceTabs *tabs, ResourceTableView *page)
        : QWidget(tabs->window(), Qt::Window)
        , m_tabs(tabs)
        , m_page(page)
    {
        setAttribute(Qt::WA_DeleteOnClose);
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(page);
        page->show();
    }

protected:
    void closeEvent(QCloseEvent *event) override
    {
        if (m_page) {
            m_tabs->attachPage(m_page); // takes the page out of this window first
        }
        event->accept();
    }

private:
    QPointer<ResourceTabs> m_tabs;
    QPointer<ResourceTableView> m_page;
};

} // namespace

ResourceTabs::ResourceTabs(QWidget *parent)
    : QTabWidget(parent)
{
    setDocumentMode(true);
    setMovable(true);
    setTabsClosable(true);
    setElideMode(Qt::ElideMiddle);
    tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tabBar(), &QTabBar::customContextMenuRequested, this, &ResourceTabs::showTabMenu);
    connect(tabBar(), &QTabBar::tabMoved, this, &ResourceTabs::save);
    connect(this, &QTabWidget::currentChanged, this, &ResourceTabs::onCurrentTabChanged);
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) { closePage(qobject_cast<ResourceTableView *>(widget(index))); });

    m_newTab = new QAction(tr("New &Tab"), this);
    m_newTab->setShortcut(QKeySequence::AddTab);
    connect(m_newTab, &QAction::triggered, this, [this] { addPage(m_current ? place(m_current) : Place(), true); });
    m_closeTab = new QAction(tr("&Close Tab"), this);
    m_closeTab->setShortcut(QKeySequence::Close);
    connect(m_closeTab, &QAction::triggered, this, [this] {
        if (m_current && isDetached(m_current)) {
            windowOf(m_current)->close();
        } else {
            closePage(m_current);
        }
    });
    m_detach = new QAction(tr("&Move Table to New Window"), this);
    connect(m_detach, &QAction::triggered, this, [this] { detachPage(m_current); });
    m_nextTab = new QAction(tr("&Next Tab"), this);
    m_nextTab->setShortcut(QKeySequence::NextChild);
    connect(m_nextTab, &QAction::triggered, this, [this] { setCurrentIndex((currentIndex() + 1) % count()); });
    m_previousTab = new QAction(tr("&Previous Tab"), this);
    m_previousTab->setShortcut(QKeySequence::PreviousChild);
    connect(m_previousTab, &QAction::triggered, this, [this] { setCurrentIndex((currentIndex() + count() - 1) % count()); });
    m_actions = {m_newTab, m_closeTab, m_detach, m_nextTab, m_previousTab};
    for (QAction *action : std::as_const(m_actions)) {
        action->setShortcutContext(Qt::WindowShortcut);
    }
    updateActions();
}

ResourceTabs::~ResourceTabs()
{
    m_closing = true;
    // The moved-out windows are the main window's children; their tables go with this.
    const QList<QWidget *> windows = m_windows.values();
    m_windows.clear();
    qDeleteAll(windows);
}

ResourceTableView *ResourceTabs::addPage(const Place &place, bool makeCurrent)
{
    auto *page = new ResourceTableView(this);
    page->setObjectName(u"table"_s);
    auto *model = new ResourceTableModel(page);
    page->setModel(model);
    m_places.insert(page, place);
    Q_EMIT pageCreated(page);
    const int index = addTab(page, titleOf(place));
    updateTab(page);
    if (m_current == nullptr || makeCurrent) {
        setCurrentIndex(index);
        setCurrentPage(page);
    }
    updateActions();
    save();
    return page;
}

bool ResourceTabs::closePage(ResourceTableView *page)
{
    if (page == nullptr || !m_places.contains(page) || (!isDetached(page) && count() <= 1)) {
        return false;
    }
    Q_EMIT pageClosing(page);
    m_places.remove(page);
    if (QWidget *window = m_windows.take(page)) {
        window->deleteLater();
    } else {
        // Quietly: the page that stays current is decided below.
        const QSignalBlocker quiet(this);
        removeTab(indexOf(page));
    }
    if (m_current == page || m_current == nullptr) {
        m_current = nullptr;
        setCurrentPage(qobject_cast<ResourceTableView *>(currentWidget()));
    }
    page->deleteLater();
    updateActions();
    save();
    return true;
}

bool ResourceTabs::detachPage(ResourceTableView *page)
{
    if (page == nullptr || isDetached(page) || count() <= 1) {
        return false;
    }
    {
        const QSignalBlocker quiet(this);
        removeTab(indexOf(page));
    }
    auto *window = new DetachedTableWindow(this, page);
    m_windows.insert(page, window);
    window->setWindowTitle(tr("%1 — %2 — Cachescope").arg(titleOf(place(page)), place(page).context));
    window->resize(page->size().expandedTo(QSize(800, 500)));
    window->show();
    // The explorer follows the tab the main window shows, until an object is opened in the window.
    if (m_current == page) {
        m_current = nullptr;
    }
    setCurrentPage(qobject_cast<ResourceTableView *>(currentWidget()));
    updateActions();
    save();
    return true;
}

void ResourceTabs::attachPage(ResourceTableView *page)
{
    QWidget *window = m_windows.take(page);
    if (window == nullptr) {
        return;
    }
    const int index = addTab(page, titleOf(place(page)));
    updateTab(page);
    if (!m_closing) {
        window->deleteLater();
        setCurrentIndex(index);
        setCurrentPage(page);
    }
    updateActions();
    save();
}

bool ResourceTabs::isDetached(ResourceTableView *page) const
{
    return m_windows.contains(page);
}

QWidget *ResourceTabs::windowOf(ResourceTableView *page) const
{
    return m_windows.value(page);
}

void ResourceTabs::setCurrentPage(ResourceTableView *page)
{
    if (page == nullptr || !m_places.contains(page)) {
        return;
    }
    if (QWidget *window = m_windows.value(page)) {
        window->raise();
    } else if (currentWidget() != page) {
        setCurrentWidget(page); // comes back here through currentChanged()
        return;
    }
    if (m_current == page) {
        return;
    }
    m_current = page;
    updateActions();
    save();
    Q_EMIT currentPageChanged(page);
}

QList<ResourceTableView *> ResourceTabs::pages() const
{
    QList<ResourceTableView *> result;
    for (int index = 0; index < count(); ++index) {
        result.append(qobject_cast<ResourceTableView *>(widget(index)));
    }
    for (auto it = m_windows.cbegin(); it != m_windows.cend(); ++it) {
        result.append(it.key());
    }
    return result;
}

ResourceTableModel *ResourceTabs::modelOf(ResourceTableView *page) const
{
    return page ? page->model() : nullptr;
}

void ResourceTabs::setPlace(ResourceTableView *page, const Place &place)
{
    if (!m_places.contains(page)) {
        return;
    }
    m_places.insert(page, place);
    updateTab(page);
    save();
}

QString ResourceTabs::titleOf(const Place &place)
{
    if (place.resource.gvr.resource().isEmpty()) {
        return tr("New table");
    }
    if (!place.resource.namespaced) {
        return place.resource.gvr.resource();
    }
    return tr("%1 · %2").arg(place.resource.gvr.resource(), place.namespaceName.isEmpty() ? tr("all") : place.namespaceName);
}

void ResourceTabs::updateTab(ResourceTableView *page)
{
    const Place place = m_places.value(page);
    const QString tip = place.context.isEmpty()
        ? QString()
        : tr("%1 in %2 of %3").arg(place.resource.gvr.toString(), place.namespaceName.isEmpty() ? tr("all namespaces") : place.namespaceName, place.context);
    if (QWidget *window = m_windows.value(page)) {
        window->setWindowTitle(tr("%1 — %2 — Cachescope").arg(titleOf(place), place.context));
        return;
    }
    const int index = indexOf(page);
    if (index >= 0) {
        setTabText(index, titleOf(place));
        setTabToolTip(index, tip);
    }
}

void ResourceTabs::onCurrentTabChanged(int index)
{
    if (auto *page = qobject_cast<ResourceTableView *>(widget(index))) {
        setCurrentPage(page);
    }
}

void ResourceTabs::updateActions()
{
    m_closeTab->setEnabled(m_current && (isDetached(m_current) || count() > 1));
    m_detach->setEnabled(m_current && !isDetached(m_current) && count() > 1);
    m_nextTab->setEnabled(count() > 1);
    m_previousTab->setEnabled(count() > 1);
    tabBar()->setTabsClosable(count() > 1);
}

void ResourceTabs::showTabMenu(const QPoint &position)
{
    const int index = tabBar()->tabAt(position);
    auto *page = qobject_cast<ResourceTableView *>(widget(index));
    QMenu menu(this);
    menu.addAction(m_newTab);
    if (page != nullptr) {
        menu.addAction(tr("Duplicate Tab"), this, [this, page] { addPage(place(page), true); });
        menu.addAction(tr("Move to New Window"), this, [this, page] { detachPage(page); })->setEnabled(count() > 1);
        menu.addSeparator();
        menu.addAction(tr("Close Tab"), this, [this, page] { closePage(page); })->setEnabled(count() > 1);
    }
    menu.exec(tabBar()->mapToGlobal(position));
}

void ResourceTabs::save() const
{
    if (m_closing) {
        return;
    }
    QList<Place> places;
    const QList<ResourceTableView *> all = pages();
    for (ResourceTableView *page : all) {
        places.append(m_places.value(page));
    }
    QSettings settings;
    savePlaces(settings, places, int(all.indexOf(m_current)));
}

void ResourceTabs::savePlaces(QSettings &settings, const QList<Place> &places, int current)
{
    // An array, so that the file says plainly what is kept (tables/places/1/context=…).
    settings.remove(PlacesKey);
    settings.beginWriteArray(PlacesKey);
    int kept = 0;
    int written = 0;
    for (qsizetype index = 0; index < places.size(); ++index) {
        const Place &place = places.at(index);
        if (place.context.isEmpty() || place.resource.gvr.resource().isEmpty()) {
            continue; // nothing to show again
        }
        if (index <= current) {
            kept = written;
        }
        settings.setArrayIndex(written++);
        settings.setValue(u"context"_s, place.context);
        settings.setValue(u"namespace"_s, place.namespaceName);
        settings.setValue(u"group"_s, place.resource.gvr.group());
        settings.setValue(u"version"_s, place.resource.gvr.version());
        settings.setValue(u"resource"_s, place.resource.gvr.resource());
        settings.setValue(u"kind"_s, place.resource.kind);
        settings.setValue(u"namespaced"_s, place.resource.namespaced);
        settings.setValue(u"object"_s, place.objectKey);
    }
    settings.endArray();
    settings.setValue(CurrentKey, kept);
}

QList<ResourceTabs::Place> ResourceTabs::savedPlaces(QSettings &settings, int *current)
{
    QList<Place> places;
    const int size = settings.beginReadArray(PlacesKey);
    for (int index = 0; index < size; ++index) {
        settings.setArrayIndex(index);
        Place place;
        place.context = settings.value(u"context"_s).toString();
        place.namespaceName = settings.value(u"namespace"_s).toString();
        place.resource.gvr =
            GroupVersionResource(settings.value(u"group"_s).toString(), settings.value(u"version"_s).toString(), settings.value(u"resource"_s).toString());
        place.resource.kind = settings.value(u"kind"_s).toString();
        place.resource.namespaced = settings.value(u"namespaced"_s).toBool();
        place.objectKey = settings.value(u"object"_s).toString();
        if (!place.context.isEmpty() && !place.resource.gvr.resource().isEmpty()) {
            places.append(place);
        }
    }
    settings.endArray();
    if (current != nullptr) {
        *current = std::clamp(settings.value(CurrentKey).toInt(), 0, std::max(0, int(places.size()) - 1));
    }
    return places;
}

} // namespace Cachescope
