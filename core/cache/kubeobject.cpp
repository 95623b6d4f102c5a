#include "core/cache/kubeobject.h"

#include "core/cache/kubeobjectdata_p.h"
#include "core/cache/kubeobjectdecoder_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// What an invalid object's fields refer to: a value, never filled, that outlives every caller.
template<typename T>
const T &absent()
{
    static const T empty;
    return empty;
}

QStringList splitFieldPath(const QString &fieldPath)
{
    QStringList segments;
    QString current;
    for (qsizetype i = 0; i < fieldPath.size(); ++i) {
        const QChar c = fieldPath.at(i);
        if (c == u'\\' && i + 1 < fieldPath.size() && fieldPath.at(i + 1) == u'.') {
            current.append(u'.');
            ++i;
        } else if (c == u'.') {
            segments.append(current);
            current.clear();
        } else {
            current.append(c);
        }
    }
    segments.append(current);
    return segments;
}

} // namespace

KubeObject::KubeObject() = default;
KubeObject::KubeObject(const KubeObject &other) = default;
KubeObject::KubeObject(KubeObject &&other) noexcept = default;
KubeObject &KubeObject::operator=(const KubeObject &other) = default;
KubeObject &KubeObject::operator=(KubeObject &&other) noexcept = default;
KubeObject::~KubeObject() = default;

KubeObject::KubeObject(KubeObjectData *data)
    : d(data)
{
}

std::optional<KubeObject> KubeObject::fromJson(const QByteArray &json, Transform transform, QString *errorMessage)
{
    auto data = std::make_unique<KubeObjectData>();
    if (!KubeObjectDecoder::decode(json, transform, *data, errorMessage)) {
        return std::nullopt;
    }
    return KubeObject(data.release());
}

QByteArray KubeObject::json() const
{
    return d ? d->json() : QByteArray();
}

qsizetype KubeObject::jsonSize() const
{
    return d ? qsizetype(d->jsonSize) : 0;
}

qsizetype KubeObject::storedSize() const
{
    return d ? d->stored.size() + d->spill.size() : 0;
}

const QString &KubeObject::apiVersion() const
{
    return d ? d->apiVersion : absent<QString>();
}

const QString &KubeObject::kind() const
{
    return d ? d->kind : absent<QString>();
}

const QString &KubeObject::namespaceName() const
{
    return d ? d->namespaceName : absent<QString>();
}

const QString &KubeObject::name() const
{
    return d ? d->name : absent<QString>();
}

QString KubeObject::uid() const
{
    return d ? d->text(d->uid) : QString();
}

QString KubeObject::resourceVersion() const
{
    return d ? d->text(d->resourceVersion) : QString();
}

qint64 KubeObject::generation() const
{
    return d ? d->generation : 0;
}

QDateTime KubeObject::creationTimestamp() const
{
    return d && d->creationMs != KubeObjectData::NoTime ? QDateTime::fromMSecsSinceEpoch(d->creationMs, Qt::UTC) : QDateTime();
}

QDateTime KubeObject::deletionTimestamp() const
{
    return d && d->deletionMs != KubeObjectData::NoTime ? QDateTime::fromMSecsSinceEpoch(d->deletionMs, Qt::UTC) : QDateTime();
}

const QList<KubeObject::Label> &KubeObject::labels() const
{
    return d ? d->labels : absent<QList<Label>>();
}

std::optional<QString> KubeObject::label(const QString &key) const
{
    if (!d) {
        return std::nullopt;
    }
    const auto it = std::lower_bound(d->labels.cbegin(), d->labels.cend(), key, [](const Label &label, const QString &k) { return label.first < k; });
    if (it != d->labels.cend() && it->first == key) {
        return it->second;
    }
    return std::nullopt;
}

const QList<KubeObject::OwnerReference> &KubeObject::ownerReferences() const
{
    return d ? d->ownerReferences : absent<QList<OwnerReference>>();
}

std::optional<KubeObject::OwnerReference> KubeObject::controllerReference() const
{
    if (d) {
        for (const OwnerReference &reference : d->ownerReferences) {
            if (reference.controller) {
                return reference;
            }
        }
    }
    return std::nullopt;
}

const QString &KubeObject::nodeName() const
{
    return d ? d->nodeName : absent<QString>();
}

const QString &KubeObject::phase() const
{
    return d ? d->phase : absent<QString>();
}

QJsonValue KubeObject::value(const QString &fieldPath) const
{
    if (!d) {
        return QJsonValue(QJsonValue::Undefined);
    }
    const QStringList segments = splitFieldPath(fieldPath);
    // Answer from the extracted fields where that is exact: these are the paths that indexes
    // and default columns ask for on every object.
    if (segments.size() == 3 && segments.at(0) == u"metadata" && segments.at(1) == u"labels") {
        const std::optional<QString> text = label(segments.at(2));
        return text ? QJsonValue(*text) : QJsonValue(QJsonValue::Undefined);
    }
    if (segments.size() == 2) {
        QString extracted;
        if (segments.at(0) == u"metadata") {
            if (segments.at(1) == u"name") {
                extracted = d->name;
            } else if (segments.at(1) == u"namespace") {
                extracted = d->namespaceName;
            } else if (segments.at(1) == u"uid") {
                extracted = d->text(d->uid);
            } else if (segments.at(1) == u"resourceVersion") {
                extracted = d->text(d->resourceVersion);
            }
        } else if (segments.at(0) == u"spec" && segments.at(1) == u"nodeName") {
            extracted = d->nodeName;
        } else if (segments.at(0) == u"status" && segments.at(1) == u"phase") {
            extracted = d->phase;
        }
        // An empty extracted field may be absent, null or of another type: ask the JSON.
        if (!extracted.isEmpty()) {
            return QJsonValue(extracted);
        }
    }

    QJsonValue current = QJsonDocument::fromJson(d->json()).object();
    for (const QString &segment : segments) {
        if (current.isObject()) {
            const QJsonObject object = current.toObject();
            const auto it = object.constFind(segment);
            if (it == object.constEnd()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = it.value();
        } else if (current.isArray()) {
            bool isIndex = false;
            const qsizetype index = segment.toLongLong(&isIndex);
            const QJsonArray array = current.toArray();
            if (!isIndex || index < 0 || index >= array.size()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = array.at(index);
        } else {
            return QJsonValue(QJsonValue::Undefined);
        }
    }
    return current;
}

bool operator==(const KubeObject &a, const KubeObject &b)
{
    if (a.d == b.d) {
        return true;
    }
    if (!a.d || !b.d) {
        return false;
    }
    // Equal JSON has equal stored bytes: a key's number never changes, and a key is numbered or
    // not by its text alone (once the dictionary is full, a key it lacks stays text for good).
    return a.d->keysNumbered == b.d->keysNumbered && a.d->stored == b.d->stored;
}

} // namespace Cachescope
