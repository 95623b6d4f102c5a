#include "core/record/secretredaction.h"

#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

KubeObject redactedSecret(const KubeObject &object)
{
    if (object.kind() != u"Secret"_s || object.apiVersion() != u"v1"_s) {
        return object;
    }
    QJsonObject json = QJsonDocument::fromJson(object.json()).object();
    bool changed = false;
    for (const QString &field : {u"data"_s, u"stringData"_s}) {
        QJsonObject values = json.value(field).toObject();
        if (values.isEmpty()) {
            continue;
        }
        for (auto it = values.begin(); it != values.end(); ++it) {
            *it = u"<redacted>"_s;
        }
        json.insert(field, values);
        changed = true;
    }
    if (!changed) {
        return object;
    }
    // The bytes were already transformed; decoding them again must not change anything else.
    return KubeObject::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact), KubeObject::Transform::None).value_or(KubeObject());
}

} // namespace Cachescope
