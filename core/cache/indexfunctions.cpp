#include "core/cache/indexfunctions.h"

#include <QJsonArray>
#include <QJsonValue>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

const QString LabelPrefix = u"label:"_s;
const QString FieldPrefix = u"field:"_s;

void appendScalar(QStringList &values, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        values.append(value.toString());
        break;
    case QJsonValue::Bool:
        values.append(value.toBool() ? u"true"_s : u"false"_s);
        break;
    case QJsonValue::Double: {
        // Integers print without a fraction, as the apiserver writes them.
        const double number = value.toDouble();
        const qint64 integer = value.toInteger();
        values.append(double(integer) == number ? QString::number(integer) : QString::number(number, 'g', 17));
        break;
    }
    default:
        break;
    }
}

} // namespace

QString namespaceIndexName()
{
    return u"namespace"_s;
}

QString labelIndexName(const QString &labelKey)
{
    return LabelPrefix + labelKey;
}

QString ownerUidIndexName()
{
    return u"owner"_s;
}

QString nodeNameIndexName()
{
    return u"node"_s;
}

QString fieldPathIndexName(const QString &fieldPath)
{
    return FieldPrefix + fieldPath;
}

IndexFunction namespaceIndexFunction()
{
    return [](const KubeObject &object) {
        return QStringList{object.namespaceName()};
    };
}

IndexFunction labelIndexFunction(const QString &labelKey)
{
    return [labelKey](const KubeObject &object) {
        const std::optional<QString> value = object.label(labelKey);
        return value ? QStringList{*value} : QStringList();
    };
}

IndexFunction ownerUidIndexFunction()
{
    return [](const KubeObject &object) {
        QStringList uids;
        for (const KubeObject::OwnerReference &reference : object.ownerReferences()) {
            if (!reference.uid.isEmpty() && !uids.contains(reference.uid)) {
                uids.append(reference.uid);
            }
        }
        return uids;
    };
}

IndexFunction nodeNameIndexFunction()
{
    return [](const KubeObject &object) {
        const QString node = object.nodeName();
        return node.isEmpty() ? QStringList() : QStringList{node};
    };
}

IndexFunction fieldPathIndexFunction(const QString &fieldPath)
{
    return [fieldPath](const KubeObject &object) {
        const QJsonValue value = object.value(fieldPath);
        QStringList values;
        if (value.isArray()) {
            const QJsonArray array = value.toArray();
            for (const auto &element : array) {
                appendScalar(values, element);
            }
            values.removeDuplicates();
        } else {
            appendScalar(values, value);
        }
        return values;
    };
}

std::optional<IndexFunction> indexFunctionForName(const QString &indexName)
{
    if (indexName == namespaceIndexName()) {
        return namespaceIndexFunction();
    }
    if (indexName == ownerUidIndexName()) {
        return ownerUidIndexFunction();
    }
    if (indexName == nodeNameIndexName()) {
        return nodeNameIndexFunction();
    }
    if (indexName.startsWith(LabelPrefix) && indexName.size() > LabelPrefix.size()) {
        return labelIndexFunction(indexName.mid(LabelPrefix.size()));
    }
    if (indexName.startsWith(FieldPrefix) && indexName.size() > FieldPrefix.size()) {
        return fieldPathIndexFunction(indexName.mid(FieldPrefix.size()));
    }
    return std::nullopt;
}

} // namespace Cachescope
