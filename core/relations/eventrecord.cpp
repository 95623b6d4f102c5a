#include "core/relations/eventrecord.h"

#include "core/util/rfc3339.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QDateTime timeOf(const QJsonValue &value)
{
    return value.isString() ? dateTimeFromRfc3339(value.toString()) : QDateTime();
}

QDateTime firstValid(std::initializer_list<QDateTime> times)
{
    for (const QDateTime &time : times) {
        if (time.isValid()) {
            return time;
        }
    }
    return {};
}

} // namespace

EventRecord EventRecord::fromObject(const KubeObject &event)
{
    EventRecord record;
    record.event = event;
    const QJsonObject json = QJsonDocument::fromJson(event.json()).object();
    // events.k8s.io/v1 names the object `regarding`; core/v1 `involvedObject`.
    const bool eventsApi = json.contains(u"regarding"_s) && !json.contains(u"involvedObject"_s);
    const QJsonObject object = json.value(eventsApi ? u"regarding"_s : u"involvedObject"_s).toObject();
    record.objectKind = object.value(u"kind"_s).toString();
    record.objectNamespace = object.value(u"namespace"_s).toString();
    record.objectName = object.value(u"name"_s).toString();
    record.objectUid = object.value(u"uid"_s).toString();
    record.type = json.value(u"type"_s).toString();
    record.reason = json.value(u"reason"_s).toString();
    record.message = json.value(eventsApi ? u"note"_s : u"message"_s).toString();

    const QJsonObject series = json.value(u"series"_s).toObject();
    const int seriesCount = series.value(u"count"_s).toInt();
    const int count = json.value(eventsApi ? u"deprecatedCount"_s : u"count"_s).toInt();
    record.count = seriesCount > 0 ? seriesCount : (count > 0 ? count : 1);

    const QDateTime eventTime = timeOf(json.value(u"eventTime"_s));
    const QDateTime lastTimestamp = timeOf(json.value(eventsApi ? u"deprecatedLastTimestamp"_s : u"lastTimestamp"_s));
    const QDateTime firstTimestamp = timeOf(json.value(eventsApi ? u"deprecatedFirstTimestamp"_s : u"firstTimestamp"_s));
    record.lastSeen = firstValid({timeOf(series.value(u"lastObservedTime"_s)), lastTimestamp, eventTime, event.creationTimestamp()});
    record.firstSeen = firstValid({firstTimestamp, eventTime, event.creationTimestamp(), record.lastSeen});

    if (eventsApi) {
        record.source = json.value(u"reportingController"_s).toString();
    } else {
        const QJsonObject source = json.value(u"source"_s).toObject();
        QStringList parts;
        for (const QString &field : {u"component"_s, u"host"_s}) {
            if (const QString part = source.value(field).toString(); !part.isEmpty()) {
                parts.append(part);
            }
        }
        record.source = parts.isEmpty() ? json.value(u"reportingComponent"_s).toString() : parts.join(u", "_s);
    }
    return record;
}

} // namespace Cachescope
