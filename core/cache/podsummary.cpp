#include "core/cache/podsummary.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// containerReason() is the reason a container state shows in STATUS, or empty when running.
QString containerReason(const QJsonObject &state)
{
    const QJsonObject waiting = state.value(u"waiting"_s).toObject();
    if (!waiting.isEmpty()) {
        return waiting.value(u"reason"_s).toString();
    }
    const QJsonObject terminated = state.value(u"terminated"_s).toObject();
    if (!terminated.isEmpty()) {
        const QString reason = terminated.value(u"reason"_s).toString();
        if (!reason.isEmpty()) {
            return reason;
        }
        const int signal = terminated.value(u"signal"_s).toInt();
        return signal != 0 ? u"Signal:%1"_s.arg(signal) : u"ExitCode:%1"_s.arg(terminated.value(u"exitCode"_s).toInt());
    }
    return {};
}

} // namespace

PodSummary PodSummary::fromObject(const KubeObject &pod)
{
    PodSummary summary;
    const QJsonObject root = QJsonDocument::fromJson(pod.json()).object();
    const QJsonObject metadata = root.value(u"metadata"_s).toObject();
    const QJsonObject spec = root.value(u"spec"_s).toObject();
    const QJsonObject status = root.value(u"status"_s).toObject();

    summary.node = spec.value(u"nodeName"_s).toString();
    summary.ip = status.value(u"podIP"_s).toString();
    summary.totalContainers = int(spec.value(u"containers"_s).toArray().size());
    summary.status = status.value(u"phase"_s).toString();
    if (const QString reason = status.value(u"reason"_s).toString(); !reason.isEmpty()) {
        summary.status = reason;
    }

    // Init containers first, as kubectl: a pod stuck initialising says so.
    const QJsonArray initStatuses = status.value(u"initContainerStatuses"_s).toArray();
    bool initializing = false;
    for (qsizetype i = 0; i < initStatuses.size(); ++i) {
        const QJsonObject container = initStatuses.at(i).toObject();
        summary.restarts += container.value(u"restartCount"_s).toInt();
        const QJsonObject state = container.value(u"state"_s).toObject();
        const QJsonObject terminated = state.value(u"terminated"_s).toObject();
        if (!terminated.isEmpty() && terminated.value(u"exitCode"_s).toInt() == 0) {
            continue;
        }
        const QString reason = containerReason(state);
        if (!reason.isEmpty() && reason != u"PodInitializing"_s) {
            summary.status = u"Init:"_s + reason;
        } else {
            summary.status = u"Init:%1/%2"_s.arg(i).arg(initStatuses.size());
        }
        initializing = true;
        break;
    }

    const QJsonArray statuses = status.value(u"containerStatuses"_s).toArray();
    bool running = false;
    for (qsizetype i = statuses.size() - 1; i >= 0; --i) {
        const QJsonObject container = statuses.at(i).toObject();
        summary.restarts += container.value(u"restartCount"_s).toInt();
        if (container.value(u"ready"_s).toBool()) {
            ++summary.readyContainers;
        }
        if (initializing) {
            continue;
        }
        const QJsonObject state = container.value(u"state"_s).toObject();
        const QString reason = containerReason(state);
        if (!reason.isEmpty()) {
            summary.status = reason;
        } else if (state.contains(u"running"_s)) {
            running = true;
        }
    }
    if (!initializing && running && summary.status == u"Completed"_s) {
        summary.status = u"Running"_s;
    }
    if (metadata.contains(u"deletionTimestamp"_s)) {
        summary.status = status.value(u"reason"_s).toString() == u"NodeLost"_s ? u"Unknown"_s : u"Terminating"_s;
    }
    return summary;
}

} // namespace Cachescope
