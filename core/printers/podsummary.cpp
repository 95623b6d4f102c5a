#include "core/printers/podsummary.h"

#include "core/printers/conditions.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// terminatedText() is how a terminated state without a reason shows: its signal or exit code.
QString terminatedText(const QJsonObject &terminated)
{
    const int signal = terminated[u"signal"].toInt();
    return signal != 0 ? u"Signal:"_s + QString::number(signal) : u"ExitCode:"_s + QString::number(terminated[u"exitCode"].toInt());
}

} // namespace

PodSummary PodSummary::fromObject(const KubeObject &pod)
{
    return fromJson(QJsonDocument::fromJson(pod.json()).object());
}

PodSummary PodSummary::fromJson(const QJsonObject &pod)
{
    // kubectl's printPod, reduced to what a table row shows.
    PodSummary summary;
    const QJsonObject status = pod[u"status"].toObject();
    const QJsonObject spec = pod[u"spec"].toObject();
    summary.node = spec[u"nodeName"].toString();
    summary.ip = status[u"podIP"].toString();
    summary.totalContainers = int(spec[u"containers"].toArray().size());
    summary.status = status[u"phase"].toString();
    if (!status[u"reason"].toString().isEmpty()) {
        summary.status = status[u"reason"].toString();
    }

    // Init containers first: a pod stuck initialising says so.
    bool initializing = false;
    const QJsonArray initStatuses = status[u"initContainerStatuses"].toArray();
    const qsizetype initCount = spec[u"initContainers"].toArray().size();
    for (qsizetype i = 0; i < initStatuses.size(); ++i) {
        const QJsonObject container = initStatuses.at(i).toObject();
        summary.restarts += container[u"restartCount"].toInt();
        const QJsonObject state = container[u"state"].toObject();
        const QJsonObject terminated = state[u"terminated"].toObject();
        const QJsonObject waiting = state[u"waiting"].toObject();
        if (!terminated.isEmpty() && terminated[u"exitCode"].toInt() == 0) {
            continue;
        }
        if (!terminated.isEmpty()) {
            const QString reason = terminated[u"reason"].toString();
            summary.status = u"Init:"_s + (reason.isEmpty() ? terminatedText(terminated) : reason);
        } else if (!waiting[u"reason"].toString().isEmpty() && waiting[u"reason"].toString() != u"PodInitializing") {
            summary.status = u"Init:"_s + waiting[u"reason"].toString();
        } else {
            summary.status = u"Init:"_s + QString::number(i) + u'/' + QString::number(initCount);
        }
        initializing = true;
        break;
    }

    if (!initializing) {
        // Once initialised, the init containers' restarts no longer count (kubectl counts only
        // restartable "sidecar" init containers then, which this summary does not model).
        summary.restarts = 0;
        bool hasRunning = false;
        const QJsonArray statuses = status[u"containerStatuses"].toArray();
        // kubectl walks the containers from last to first, so the first container's reason wins.
        for (qsizetype i = statuses.size() - 1; i >= 0; --i) {
            const QJsonObject container = statuses.at(i).toObject();
            summary.restarts += container[u"restartCount"].toInt();
            const QJsonObject state = container[u"state"].toObject();
            const QJsonObject waiting = state[u"waiting"].toObject();
            const QJsonObject terminated = state[u"terminated"].toObject();
            if (!waiting[u"reason"].toString().isEmpty()) {
                summary.status = waiting[u"reason"].toString();
            } else if (!terminated.isEmpty()) {
                const QString reason = terminated[u"reason"].toString();
                summary.status = reason.isEmpty() ? terminatedText(terminated) : reason;
            } else if (container[u"ready"].toBool() && state.contains(u"running")) {
                hasRunning = true;
                ++summary.readyContainers;
            }
        }
        // A pod whose restarting container last completed while another still runs is running.
        if (summary.status == u"Completed" && hasRunning) {
            summary.status = conditionStatus(status[u"conditions"].toArray(), u"Ready") == u"True" ? u"Running"_s : u"NotReady"_s;
        }
    }

    const QJsonObject metadata = pod[u"metadata"].toObject();
    if (metadata.contains(u"deletionTimestamp") && !metadata[u"deletionTimestamp"].isNull()) {
        const QString phase = status[u"phase"].toString();
        if (status[u"reason"].toString() == u"NodeLost") {
            summary.status = u"Unknown"_s;
        } else if (phase != u"Succeeded" && phase != u"Failed") {
            summary.status = u"Terminating"_s; // a finished pod being deleted keeps its reason
        }
    }
    return summary;
}

} // namespace Cachescope
