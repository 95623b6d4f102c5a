#include "core/sim/loghandler.h"

#include "core/sim/apicall.h"
#include "core/sim/apierror.h"
#include "core/sim/httpexchange.h"
#include "core/sim/logsession.h"
#include "core/sim/objectstore.h"
#include "core/util/rfc3339.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <variant>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

std::optional<qint64> timeOf(const QJsonValue &value)
{
    return msecsSinceEpochFromRfc3339(value.toString().toStdString());
}

QJsonObject containerStatus(const QJsonObject &pod, const QString &container)
{
    for (const QJsonValue &status : pod.value(u"status").toObject().value(u"containerStatuses").toArray()) {
        if (status.toObject().value(u"name").toString() == container)
            return status.toObject();
    }
    return {};
}

// The instance of container whose log a request reads, or the 400 the kubelet answers.
std::variant<ContainerLogGenerator::Instance, ApiError>
instanceOf(const QJsonObject &pod, const QString &podName, const QString &container, const QString &image, bool previous)
{
    const QJsonObject status = containerStatus(pod, container);
    const int restarts = status.value(u"restartCount").toInt();
    const QJsonObject state = status.value(u"state").toObject();
    const qint64 created = timeOf(pod.value(u"metadata").toObject().value(u"creationTimestamp")).value_or(QDateTime::currentMSecsSinceEpoch());
    ContainerLogGenerator::Instance instance;
    instance.image = image;
    instance.style = ContainerLogGenerator::styleForImage(image);
    instance.restartCount = restarts;
    // A container waiting after a crash (CrashLoopBackOff) shows its last instance's log, as the
    // kubelet answers with the most recent container.
    const bool waiting = state.contains(u"waiting"_s);
    if (previous || (waiting && restarts > 0)) {
        if (restarts == 0)
            return ApiError::badRequest(u"previous terminated container \"%1\" in pod \"%2\" not found"_s.arg(container, podName));
        const QJsonObject terminated = status.value(u"lastState").toObject().value(u"terminated").toObject();
        const qint64 currentStart = timeOf(state.value(u"running").toObject().value(u"startedAt")).value_or(created);
        instance.endMs = timeOf(terminated.value(u"finishedAt")).value_or(currentStart - 2000);
        // Without a recorded start the instance before ran ten minutes.
        instance.startMs = timeOf(terminated.value(u"startedAt")).value_or(instance.endMs - 10 * 60 * 1000);
        instance.restartCount = restarts - 1;
        instance.exitReason = terminated.value(u"reason").toString(u"OOMKilled"_s);
        return instance;
    }
    if (waiting) {
        return ApiError::badRequest(u"container \"%1\" in pod \"%2\" is waiting to start: %3"_s.arg(
            container, podName, state.value(u"waiting").toObject().value(u"reason").toString(u"ContainerCreating"_s)));
    }
    if (state.contains(u"terminated"_s)) {
        const QJsonObject terminated = state.value(u"terminated").toObject();
        instance.startMs = timeOf(terminated.value(u"startedAt")).value_or(created);
        instance.endMs = qMax(instance.startMs, timeOf(terminated.value(u"finishedAt")).value_or(instance.startMs));
        instance.exitReason = terminated.value(u"reason").toString(u"Completed"_s);
        return instance;
    }
    // Running, or a pod a client created that no kubelet runs: from its creation.
    instance.startMs = timeOf(state.value(u"running").toObject().value(u"startedAt")).value_or(created);
    return instance;
}

// An integer query parameter of at least minimum (0 or 1), nothing when absent, or the 400 of
// the apiserver's PodLogOptions validation.
std::variant<std::optional<qint64>, ApiError> integerParameter(const ApiCall &call, const QString &name, qint64 minimum)
{
    if (!call.request.hasQuery(name))
        return std::optional<qint64>();
    bool ok = false;
    const QString text = call.request.queryValue(name);
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value < minimum) {
        return ApiError::badRequest(u"PodLogOptions \"%1\" is invalid: %2: Invalid value: %3: %4"_s.arg(
            call.route.name, name, text, minimum > 0 ? u"must be greater than 0"_s : u"must be greater than or equal to 0"_s));
    }
    return std::optional<qint64>(value);
}

} // namespace

LogHandler::LogHandler(const ObjectStore *store, quint64 seed, qint64 linePeriodMs, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_seed(seed)
    , m_linePeriodMs(linePeriodMs)
{
}

LogHandler::~LogHandler() = default;

int LogHandler::followCount() const
{
    int count = 0;
    for (const auto &follows : m_follows)
        count += int(follows.size());
    return count;
}

void LogHandler::serve(const ApiCall &call)
{
    const ResourceRoute &route = call.route;
    const ObjectPtr stored = m_store->get(route.type, route.namespaceName, route.name);
    if (!stored) {
        call.sendError(ApiError::notFound(route.type, route.name));
        return;
    }
    const QJsonObject pod = QJsonDocument::fromJson(stored->json).object();
    QStringList names;
    QStringList images;
    for (const QJsonValue &container : pod.value(u"spec").toObject().value(u"containers").toArray()) {
        names.append(container.toObject().value(u"name").toString());
        images.append(container.toObject().value(u"image").toString());
    }
    QString container = call.request.queryValue(u"container"_s);
    if (container.isEmpty()) {
        if (names.size() != 1) {
            call.sendError(ApiError::badRequest(u"a container name must be specified for pod %1, choose one of: [%2]"_s.arg(route.name, names.join(u' '))));
            return;
        }
        container = names.constFirst();
    }
    const qsizetype index = names.indexOf(container);
    if (index < 0) {
        call.sendError(ApiError::badRequest(u"container %1 is not valid for pod %2"_s.arg(container, route.name)));
        return;
    }

    const auto sinceSeconds = integerParameter(call, u"sinceSeconds"_s, 1);
    const auto tailLines = integerParameter(call, u"tailLines"_s, 0);
    const auto limitBytes = integerParameter(call, u"limitBytes"_s, 1);
    for (const auto *parameter : {&sinceSeconds, &tailLines, &limitBytes}) {
        if (const auto *error = std::get_if<ApiError>(parameter)) {
            call.sendError(*error);
            return;
        }
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    std::optional<qint64> since;
    if (const std::optional<qint64> seconds = std::get<std::optional<qint64>>(sinceSeconds))
        since = now - *seconds * 1000;
    if (call.request.hasQuery(u"sinceTime"_s)) {
        if (since) {
            call.sendError(ApiError::badRequest(
                u"PodLogOptions \"\" is invalid: sinceSeconds: Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified"_s));
            return;
        }
        since = msecsSinceEpochFromRfc3339(call.request.queryValue(u"sinceTime"_s).toStdString());
        if (!since) {
            call.sendError(ApiError::badRequest(u"sinceTime: Invalid value: \"%1\": not an RFC 3339 time"_s.arg(call.request.queryValue(u"sinceTime"_s))));
            return;
        }
    }

    auto resolved = instanceOf(pod, route.name, container, images.at(index), call.queryFlag(u"previous"_s));
    if (const auto *error = std::get_if<ApiError>(&resolved)) {
        call.sendError(*error);
        return;
    }
    ContainerLogGenerator::Instance instance = std::get<ContainerLogGenerator::Instance>(resolved);
    instance.periodMs = m_linePeriodMs;
    instance.seed = ContainerLogGenerator::seedFor(m_seed, route.namespaceName, route.name, container, instance.restartCount);

    LogCursor cursor;
    cursor.generator = ContainerLogGenerator(instance);
    cursor.timestamps = call.queryFlag(u"timestamps"_s);
    cursor.bytesLeft = std::get<std::optional<qint64>>(limitBytes).value_or(-1);
    const qint64 end = cursor.generator.lineCountAt(now);
    cursor.next = since ? cursor.generator.firstLineAtOrAfter(*since) : 0;
    if (const std::optional<qint64> tail = std::get<std::optional<qint64>>(tailLines))
        cursor.next = qMax(cursor.next, end - *tail);

    if (!call.queryFlag(u"follow"_s)) {
        // Pulled as the client reads: an old container's log never sits whole in memory.
        call.exchange->streamResponse(200, "text/plain", [cursor, end]() mutable { return cursor.read(end, 64 * 1024); });
        return;
    }
    auto *session = new LogSession(call.exchange, cursor, this);
    const QString key = stored->key();
    m_follows[key].append({session, container, instance.restartCount});
    connect(session, &LogSession::finished, this, [this, key](LogSession *finished) {
        auto it = m_follows.find(key);
        if (it == m_follows.end())
            return;
        it->removeIf([finished](const Follow &follow) { return follow.session == finished; });
        if (it->isEmpty())
            m_follows.erase(it);
    });
    session->start();
}

void LogHandler::deliver(const StoreEventPtr &event)
{
    if (event->resource != u"pods" || event->type == StoreEventType::Added)
        return;
    const auto it = m_follows.constFind(event->object->key());
    if (it == m_follows.cend())
        return;
    // A copy: ending a session edits the list.
    const QList<Follow> follows = *it;
    if (event->type == StoreEventType::Deleted) {
        for (const Follow &follow : follows)
            follow.session->end();
        return;
    }
    // The kubelet's stream ends with the container it reads: a restart starts another log.
    const QJsonObject pod = QJsonDocument::fromJson(event->object->json).object();
    for (const Follow &follow : follows) {
        if (containerStatus(pod, follow.container).value(u"restartCount").toInt() != follow.restartCount)
            follow.session->end();
    }
}

} // namespace Cachescope::Sim
