#include "core/controller/podhealthcheck.h"

#include "core/printers/duration.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

PodHealthCheck::PodHealthCheck(const Settings &settings, Now now)
    : m_settings(settings)
    , m_now(now ? std::move(now) : Now([] { return QDateTime::currentDateTimeUtc(); }))
{
}

QString PodHealthCheck::name() const
{
    return u"pod-health"_s;
}

ProcessResult PodHealthCheck::process(const QString &key, const KubeObject &object, const ProcessContext &context)
{
    Q_UNUSED(key)
    Q_UNUSED(context)
    if (!object.isValid()) {
        return ProcessResult::ok();
    }
    // List items carry their kind (the lister puts it back), so an empty kind is a hand-made
    // object in a test, not a wrong resource.
    if (!object.kind().isEmpty() && object.kind() != u"Pod") {
        return ProcessResult::error(u"pod-health checks Pods, not %1"_s.arg(object.kind()), false);
    }
    const QDateTime now = m_now();
    const QJsonObject status = QJsonDocument::fromJson(object.json()).object().value(u"status").toObject();
    const QString phase = status.value(u"phase").toString();
    QList<Finding> findings;
    const auto add = [&findings, &now](FindingSeverity severity, const QString &reason, const QString &message) {
        findings.append(Finding{severity, reason, message, now});
    };

    if (phase == u"Failed") {
        QString message = u"the pod failed"_s;
        if (const QString reason = status.value(u"reason").toString(); !reason.isEmpty()) {
            message += u": "_s + reason;
        }
        add(FindingSeverity::Error, u"Failed"_s, message);
    }
    if (phase == u"Pending") {
        const QDateTime created = object.creationTimestamp();
        if (created.isValid()) {
            const std::chrono::seconds pending(created.secsTo(now));
            if (pending > m_settings.pendingTimeout) {
                add(FindingSeverity::Warning,
                    u"PendingTooLong"_s,
                    u"pending for %1 (longer than %2)"_s.arg(durationText(pending), durationText(m_settings.pendingTimeout)));
            }
        }
    }

    const QJsonArray containers = status.value(u"containerStatuses").toArray();
    if (phase == u"Running") {
        bool ready = false;
        for (const QJsonValue &condition : status.value(u"conditions").toArray()) {
            if (condition.toObject().value(u"type") == u"Ready"_s) {
                ready = condition.toObject().value(u"status") == u"True"_s;
            }
        }
        if (!ready) {
            QStringList notReady;
            for (const QJsonValue &container : containers) {
                if (!container.toObject().value(u"ready").toBool()) {
                    notReady.append(container.toObject().value(u"name").toString());
                }
            }
            add(FindingSeverity::Warning,
                u"NotReady"_s,
                notReady.isEmpty() ? u"running but not ready"_s : u"running but not ready: containers %1"_s.arg(notReady.join(u", "_s)));
        }
    }
    for (const QJsonValue &value : containers) {
        const QJsonObject container = value.toObject();
        const int restarts = container.value(u"restartCount").toInt();
        if (restarts < m_settings.restartThreshold) {
            continue;
        }
        QString message = u"container %1 restarted %2 times"_s.arg(container.value(u"name").toString()).arg(restarts);
        const QString waiting = container.value(u"state").toObject().value(u"waiting").toObject().value(u"reason").toString();
        if (!waiting.isEmpty()) {
            message += u", now "_s + waiting;
        }
        add(FindingSeverity::Warning, u"Restarting"_s, message);
    }
    return ProcessResult::ok(findings);
}

ControllerInfo PodHealthCheck::info()
{
    ControllerInfo info;
    info.name = u"pod-health"_s;
    info.description = QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "Pods that are not ready, restart often or stay pending too long."));
    info.resource = u"pods"_s;
    info.parameters = {
        {u"restartThreshold"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "restarts of a container from which it is reported")), u"3"_s},
        {u"pendingSeconds"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "how long a pod may stay Pending")), u"300"_s},
    };
    return info;
}

std::unique_ptr<ProcessFunction> PodHealthCheck::create(const ProcessFunctionParameters &parameters, QString *error)
{
    Settings settings;
    const auto threshold = parameters.integer(u"restartThreshold"_s, settings.restartThreshold, 1, 1000000, error);
    const auto pending = threshold ? parameters.integer(u"pendingSeconds"_s, settings.pendingTimeout.count(), 0, 365LL * 24 * 3600, error) : std::nullopt;
    if (!pending) {
        return nullptr;
    }
    settings.restartThreshold = static_cast<int>(*threshold);
    settings.pendingTimeout = std::chrono::seconds(*pending);
    return std::make_unique<PodHealthCheck>(settings);
}

} // namespace Cachescope
