#pragma once

#include "core/kube/apiresource.h"

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace Cachescope {

// NavigationHistory is the explorer's Back and Forward, as a browser's: the places the user has
// been (a context, a namespace, a resource, and an object when one was opened), in order, with
// the current one among them. visit() records a new place after the current one and drops what
// was ahead of it; back() and forward() move along without recording. Bounded: the oldest places
// go first. GUI thread; no widgets (the Explorer gives it places and goes where it says).
class NavigationHistory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NavigationHistory)

public:
    struct Location
    {
        QString context;
        QString namespaceName; // empty: all namespaces
        ApiResource resource;
        QString objectKey; // the object opened in the object view, if any

        // Two locations are the same place when they name the same things (the resource by its
        // group, version and plural).
        [[nodiscard]] bool samePlace(const Location &other) const;
    };

    static constexpr qsizetype MaxLocations = 100;

    explicit NavigationHistory(QObject *parent = nullptr);
    ~NavigationHistory() override;

    // visit() makes location the current one; visiting the current place again records nothing.
    // A location that only adds an object to the current place (the same context, namespace and
    // resource, no object before) takes the current place's step rather than a new one.
    void visit(const Location &location);
    // back() and forward() move one step and say where to; nothing at either end.
    std::optional<Location> back();
    std::optional<Location> forward();

    [[nodiscard]] bool canGoBack() const { return m_current > 0; }
    [[nodiscard]] bool canGoForward() const { return m_current + 1 < m_locations.size(); }
    [[nodiscard]] std::optional<Location> current() const;
    [[nodiscard]] qsizetype size() const { return m_locations.size(); }
    void clear();

Q_SIGNALS:
    // changed(): canGoBack() or canGoForward() may have changed.
    void changed();

private:
    QList<Location> m_locations;
    qsizetype m_current = -1;
};

} // namespace Cachescope
