#pragma once

#include <QDateTime>
#include <QString>
#include <QUrlQuery>

#include <optional>

namespace Cachescope {

// LogOptions are the query of a pod's log request, core/v1 PodLogOptions as kubectl logs sends
// them: the container (required by the server when the pod has several), follow, the previous
// instance, the kubelet's timestamps, a start (sinceSeconds or sinceTime, not both), the last
// tailLines and a limitBytes cut. A plain value type.
struct LogOptions
{
    QString container;
    bool follow = false;
    bool previous = false;
    bool timestamps = false;
    std::optional<qint64> sinceSeconds;
    QDateTime sinceTime; // invalid: none
    std::optional<qint64> tailLines;
    std::optional<qint64> limitBytes;

    [[nodiscard]] QUrlQuery toQuery() const;
};

} // namespace Cachescope
