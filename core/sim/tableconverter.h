#pragma once

#include "core/sim/resourcecatalog.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

namespace Cachescope::Sim {

// TableConverter renders objects as the meta.k8s.io/v1 `Table` that `kubectl get` asks for
// (Accept: application/json;as=Table;v=v1;g=meta.k8s.io): the kind's column definitions
// (pods: Name, Ready, Status, Restarts, Age, IP, Node; deployments: Ready, Up-to-date,
// Available; ...; other kinds Name and Age) and one row per object, each with the object
// embedded as PartialObjectMetadata (default), in full, or not at all (`includeObject`).
// Also renders PartialObjectMetadata for metadata-only clients. Pure functions; each row
// costs a JSON parse of its object, so tables are for humans, not for 100k-object lists.
class TableConverter
{
public:
    enum class IncludeObject { None, Metadata, Object };

    [[nodiscard]] static QJsonArray columnDefinitions(const ResourceType &type);
    [[nodiscard]] static QJsonObject row(const ResourceType &type, const QJsonObject &object, IncludeObject include, const QDateTime &now);
    // A Table of rows; includeColumns false leaves columnDefinitions empty (later watch events).
    [[nodiscard]] static QJsonObject table(const ResourceType &type, const QJsonArray &rows, bool includeColumns, const QJsonObject &listMetadata);

    [[nodiscard]] static QJsonObject partialObjectMetadata(const QJsonObject &object);
};

} // namespace Cachescope::Sim
