#pragma once

#include "core/kube/groupversionresource.h"

#include <QString>
#include <QStringList>

namespace Cachescope {

// ApiResource is one resource the server offers, as discovery describes it: where it lives
// (gvr), its kind, singular name, whether it is namespaced, its verbs, short names and
// categories, and whether its version is the group's preferred one. Plain value type.
struct ApiResource
{
    GroupVersionResource gvr;
    QString kind;
    QString singularName;
    bool namespaced = false;
    QStringList verbs;
    QStringList shortNames;
    QStringList categories;
    bool preferredVersion = false;

    bool supports(const QString &verb) const { return verbs.contains(verb); }
};

} // namespace Cachescope
