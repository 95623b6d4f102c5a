#include "ui/models/navigationhistory.h"

namespace Cachescope {

bool NavigationHistory::Location::samePlace(const Location &other) const
{
    return context == other.context && namespaceName == other.namespaceName && resource.gvr == other.resource.gvr && objectKey == other.objectKey;
}

NavigationHistory::NavigationHistory(QObject *parent)
    : QObject(parent)
{
}

NavigationHistory::~NavigationHistory() = default;

void NavigationHistory::visit(const Location &location)
{
    if (const std::optional<Location> here = current()) {
        if (here->samePlace(location)) {
            return;
        }
        // Opening an object in the table just shown is that table's step: Back then leaves the
        // table, rather than only forgetting which object was open. Like any visit, it ends
        // what was ahead.
        Location table = location;
        table.objectKey.clear();
        if (here->objectKey.isEmpty() && here->samePlace(table)) {
            m_locations.resize(m_current + 1);
            m_locations[m_current] = location;
            Q_EMIT changed();
            return;
        }
    }
    m_locations.resize(m_current + 1);
    m_locations.append(location);
    if (m_locations.size() > MaxLocations) {
        m_locations.removeFirst();
    }
    m_current = m_locations.size() - 1;
    Q_EMIT changed();
}

std::optional<NavigationHistory::Location> NavigationHistory::back()
{
    if (!canGoBack()) {
        return std::nullopt;
    }
    --m_current;
    Q_EMIT changed();
    return m_locations.at(m_current);
}

std::optional<NavigationHistory::Location> NavigationHistory::forward()
{
    if (!canGoForward()) {
        return std::nullopt;
    }
    ++m_current;
    Q_EMIT changed();
    return m_locations.at(m_current);
}

std::optional<NavigationHistory::Location> NavigationHistory::current() const
{
    if (m_current < 0) {
        return std::nullopt;
    }
    return m_locations.at(m_current);
}

void NavigationHistory::clear()
{
    m_locations.clear();
    m_current = -1;
    Q_EMIT changed();
}

} // namespace Cachescope
