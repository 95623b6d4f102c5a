#include "core/sim/jsonpatch.h"

#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

QJsonValue mergeValue(const QJsonValue &target, const QJsonValue &patch);

QJsonObject mergeObjects(const QJsonObject &target, const QJsonObject &patch)
{
    QJsonObject result = target;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        if (it.value().isNull())
            result.remove(it.key());
        else
            result.insert(it.key(), mergeValue(result.value(it.key()), it.value()));
    }
    return result;
}

QJsonValue mergeValue(const QJsonValue &target, const QJsonValue &patch)
{
    if (patch.isObject())
        return mergeObjects(target.isObject() ? target.toObject() : QJsonObject(), patch.toObject());
    return patch;
}

// The merge key of a list, as the Kubernetes type definitions declare with patchMergeKey.
// Lists of objects not named here are replaced wholesale, as for a CRD without schema hints.
QString mergeKeyFor(const QString &field)
{
    static const QStringList byName{u"containers"_s,
                                    u"initContainers"_s,
                                    u"ephemeralContainers"_s,
                                    u"ports"_s,
                                    u"env"_s,
                                    u"volumes"_s,
                                    u"volumeMounts"_s,
                                    u"imagePullSecrets"_s,
                                    u"containerStatuses"_s,
                                    u"ownerReferences"_s};
    if (byName.contains(field))
        return field == u"ownerReferences" ? u"uid"_s : u"name"_s;
    if (field == u"conditions")
        return u"type"_s;
    if (field == u"addresses")
        return u"type"_s;
    return {};
}

QJsonValue strategicValue(const QString &field, const QJsonValue &target, const QJsonValue &patch);

QJsonObject strategicObjects(const QJsonObject &target, const QJsonObject &patch)
{
    if (patch.value(u"$patch").toString() == u"replace") {
        QJsonObject replaced = patch;
        replaced.remove(u"$patch"_s);
        return replaced;
    }
    QJsonObject result = target;
    for (auto it = patch.begin(); it != patch.end(); ++it) {
        const QString &key = it.key();
        if (key.startsWith(u"$setElementOrder/") || key == u"$retainKeys" || key == u"$patch")
            continue;
        if (key.startsWith(u"$deleteFromPrimitiveList/")) {
            const QString list = key.mid(int(qstrlen("$deleteFromPrimitiveList/")));
            QJsonArray kept;
            const QJsonArray removed = it.value().toArray();
            for (const QJsonValue &value : result.value(list).toArray()) {
                if (!removed.contains(value))
                    kept.append(value);
            }
            result.insert(list, kept);
            continue;
        }
        if (it.value().isNull())
            result.remove(key);
        else
            result.insert(key, strategicValue(key, result.value(key), it.value()));
    }
    return result;
}

QJsonValue strategicValue(const QString &field, const QJsonValue &target, const QJsonValue &patch)
{
    if (patch.isObject())
        return strategicObjects(target.isObject() ? target.toObject() : QJsonObject(), patch.toObject());
    const QString mergeKey = mergeKeyFor(field);
    if (!patch.isArray() || !target.isArray() || mergeKey.isEmpty())
        return patch;
    QJsonArray result = target.toArray();
    for (const QJsonValue &element : patch.toArray()) {
        const QJsonObject patchElement = element.toObject();
        const QJsonValue keyValue = patchElement.value(mergeKey);
        qsizetype found = -1;
        for (qsizetype i = 0; i < result.size(); ++i) {
            if (result.at(i).toObject().value(mergeKey) == keyValue) {
                found = i;
                break;
            }
        }
        if (patchElement.value(u"$patch").toString() == u"delete") {
            if (found >= 0)
                result.removeAt(found);
        } else if (found >= 0) {
            result.replace(found, strategicObjects(result.at(found).toObject(), patchElement));
        } else {
            result.append(strategicObjects(QJsonObject(), patchElement));
        }
    }
    return result;
}

// RFC 6901 pointer segments, with ~1 and ~0 unescaped.
QStringList pointerSegments(const QString &pointer)
{
    QStringList segments = pointer.split(u'/');
    segments.removeFirst();
    for (QString &segment : segments)
        segment = segment.replace(u"~1"_s, u"/"_s).replace(u"~0"_s, u"~"_s);
    return segments;
}

// Applies one operation at segments[depth..] of value; returns false when the path is invalid.
bool applyAt(QJsonValue &value, const QStringList &segments, qsizetype depth, const QString &op, const QJsonValue &operand, QString *error)
{
    const QString &segment = segments.at(depth);
    const bool last = depth == segments.size() - 1;
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        if (last) {
            if (op == u"remove") {
                if (!object.contains(segment))
                    return (*error = u"unable to remove nonexistent key: %1"_s.arg(segment)), false;
                object.remove(segment);
            } else if (op == u"test") {
                if (object.value(segment) != operand)
                    return (*error = u"testing value at %1 failed"_s.arg(segment)), false;
            } else if (op == u"replace" && !object.contains(segment)) {
                return (*error = u"replace operation does not apply: doc is missing key: %1"_s.arg(segment)), false;
            } else {
                object.insert(segment, operand);
            }
        } else {
            QJsonValue child = object.value(segment);
            if (!child.isObject() && !child.isArray())
                return (*error = u"doc is missing path: %1"_s.arg(segment)), false;
            if (!applyAt(child, segments, depth + 1, op, operand, error))
                return false;
            object.insert(segment, child);
        }
        value = object;
        return true;
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        bool ok = false;
        const qsizetype index = segment == u"-" ? array.size() : segment.toLongLong(&ok);
        if (segment != u"-" && (!ok || index < 0 || index > array.size()))
            return (*error = u"invalid array index: %1"_s.arg(segment)), false;
        if (last) {
            if (op == u"add") {
                array.insert(index, operand);
            } else if (index >= array.size()) {
                return (*error = u"array index out of range: %1"_s.arg(segment)), false;
            } else if (op == u"remove") {
                array.removeAt(index);
            } else if (op == u"replace") {
                array.replace(index, operand);
            } else if (op == u"test" && array.at(index) != operand) {
                return (*error = u"testing value at %1 failed"_s.arg(segment)), false;
            }
        } else {
            if (index >= array.size())
                return (*error = u"array index out of range: %1"_s.arg(segment)), false;
            QJsonValue child = array.at(index);
            if (!applyAt(child, segments, depth + 1, op, operand, error))
                return false;
            array.replace(index, child);
        }
        value = array;
        return true;
    }
    *error = u"doc is missing path: %1"_s.arg(segment);
    return false;
}

} // namespace

QJsonObject JsonPatch::mergePatch(const QJsonObject &target, const QJsonObject &patch)
{
    return mergeObjects(target, patch);
}

QJsonObject JsonPatch::strategicMergePatch(const QJsonObject &target, const QJsonObject &patch)
{
    return strategicObjects(target, patch);
}

std::optional<QJsonObject> JsonPatch::jsonPatch(const QJsonObject &target, const QJsonArray &operations, QString *error)
{
    QJsonValue document = target;
    for (const QJsonValue &operationValue : operations) {
        const QJsonObject operation = operationValue.toObject();
        const QString op = operation.value(u"op").toString();
        const QString path = operation.value(u"path").toString();
        if (op != u"add" && op != u"remove" && op != u"replace" && op != u"test") {
            *error = u"unsupported JSON patch operation: %1"_s.arg(op);
            return std::nullopt;
        }
        if (path.isEmpty() || !path.startsWith(u'/')) {
            *error = u"invalid JSON patch path: %1"_s.arg(path);
            return std::nullopt;
        }
        if (!applyAt(document, pointerSegments(path), 0, op, operation.value(u"value"), error))
            return std::nullopt;
    }
    return document.toObject();
}

} // namespace Cachescope::Sim
