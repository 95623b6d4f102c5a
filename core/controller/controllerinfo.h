#pragma once

#include <QList>
#include <QString>

namespace Cachescope {

// ControllerInfo describes a built-in process function for the CLI's `control --help` and the
// UI's controller dialog: its registry name, a one-line description, the resource it is meant
// for (empty: any), whether it needs an OwnerLookup, and its parameters with their defaults.
// Descriptions are English source strings marked for translation in the "Cachescope::Controller"
// context; the UI translates them, the CLI prints them as they are. A plain value.
struct ControllerInfo
{
    struct Parameter
    {
        QString name;
        QString description;
        QString defaultValue;
    };

    QString name;
    QString description;
    QString resource;
    bool needsOwnerLookup = false;
    QList<Parameter> parameters;
};

} // namespace Cachescope
