#pragma once

#include "core/cache/kubeobject.h"

#include <QJsonObject>
#include <QString>

namespace Cachescope {

// PodSummary is what kubectl's pod table shows of a pod, computed the way kubectl's printer
// does: READY as ready/total containers, STATUS as the most telling reason (the phase, unless
// an init container or a container is waiting or terminated with a reason — CrashLoopBackOff,
// ErrImagePull, Completed, …; "Terminating" once deletionTimestamp is set; the pod's own
// reason such as Evicted), RESTARTS summed over containers, IP and NODE. Parses the object's
// JSON once; a value type. Used by the CLI's tables and the explorer's pod columns (one
// implementation, so that both show what kubectl shows).
struct PodSummary
{
    int readyContainers = 0;
    int totalContainers = 0;
    int restarts = 0;
    QString status;
    QString ip;
    QString node;

    QString ready() const { return QString::number(readyContainers) + QLatin1Char('/') + QString::number(totalContainers); }

    // fromObject() parses the object's JSON once; fromJson() reads an already parsed pod.
    static PodSummary fromObject(const KubeObject &pod);
    static PodSummary fromJson(const QJsonObject &pod);
};

} // namespace Cachescope
