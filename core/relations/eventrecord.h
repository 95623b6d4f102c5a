#pragma once

#include "core/cache/kubeobject.h"

#include <QDateTime>
#include <QString>

namespace Cachescope {

// EventRecord is what the Events of an object show of one Kubernetes Event, read from either
// API: core/v1 Event (involvedObject, source, count, firstTimestamp/lastTimestamp, eventTime,
// series) or events.k8s.io/v1 Event (regarding, reportingController, deprecatedCount,
// deprecatedFirstTimestamp/deprecatedLastTimestamp, note, series). lastSeen follows kubectl:
// the series' lastObservedTime, else lastTimestamp, else eventTime, else the creation time;
// count is the series' count, else count, else 1. Plain value type; fromObject() parses the
// event's JSON once.
struct EventRecord
{
    KubeObject event;
    QString type; // Normal, Warning
    QString reason;
    QString message;
    QString source; // component and host ("kubelet, node-1"), or the reporting controller
    int count = 1;
    QDateTime firstSeen;
    QDateTime lastSeen;
    // The object the event is about.
    QString objectKind;
    QString objectNamespace;
    QString objectName;
    QString objectUid;

    [[nodiscard]] bool isWarning() const { return type == u"Warning"; }
    [[nodiscard]] static EventRecord fromObject(const KubeObject &event);
};

} // namespace Cachescope
