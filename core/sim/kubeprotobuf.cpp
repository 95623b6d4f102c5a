#include "core/sim/kubeprotobuf.h"

#include "core/sim/proto/apps_v1.pb.h"
#include "core/sim/proto/autoscaling_v1.pb.h"
#include "core/sim/proto/batch_v1.pb.h"
#include "core/sim/proto/core_v1.pb.h"
#include "core/sim/proto/meta_v1.pb.h"
#include "core/sim/proto/options.pb.h"
#include "core/sim/proto/runtime.pb.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

namespace pb = google::protobuf;
namespace corev1 = k8s::io::api::core::v1;
namespace appsv1 = k8s::io::api::apps::v1;
namespace batchv1 = k8s::io::api::batch::v1;
namespace metav1 = k8s::io::apimachinery::pkg::apis::meta::v1;

constexpr QByteArrayView Magic("k8s\0", 4);

struct Kind
{
    const char *apiVersion;
    const char *kind;
    const pb::Message *prototype;
};

// The kinds of ResourceCatalog with a protobuf form (CRDs and custom resources have none: a
// real apiserver refuses protobuf for them too), the Scale of their scale subresource, and the
// options a typed delete may carry. Naming each default instance also keeps the generated
// descriptors linked into the binary.
const QList<Kind> &kinds()
{
    static const QList<Kind> table{
        {"v1", "Namespace", &corev1::Namespace::default_instance()},
        {"v1", "Node", &corev1::Node::default_instance()},
        {"v1", "Pod", &corev1::Pod::default_instance()},
        {"v1", "Service", &corev1::Service::default_instance()},
        {"v1", "Endpoints", &corev1::Endpoints::default_instance()},
        {"v1", "ConfigMap", &corev1::ConfigMap::default_instance()},
        {"v1", "Secret", &corev1::Secret::default_instance()},
        {"v1", "Event", &corev1::Event::default_instance()},
        {"v1", "ServiceAccount", &corev1::ServiceAccount::default_instance()},
        {"apps/v1", "Deployment", &appsv1::Deployment::default_instance()},
        {"apps/v1", "ReplicaSet", &appsv1::ReplicaSet::default_instance()},
        {"apps/v1", "StatefulSet", &appsv1::StatefulSet::default_instance()},
        {"apps/v1", "DaemonSet", &appsv1::DaemonSet::default_instance()},
        {"batch/v1", "Job", &batchv1::Job::default_instance()},
        {"batch/v1", "CronJob", &batchv1::CronJob::default_instance()},
        {"autoscaling/v1", "Scale", &k8s::io::api::autoscaling::v1::Scale::default_instance()},
        // client-go writes DeleteOptions with the group version of the resource it deletes.
        {nullptr, "DeleteOptions", &metav1::DeleteOptions::default_instance()},
    };
    return table;
}

const pb::Message *prototypeFor(const QString &apiVersion, const QString &kind)
{
    for (const Kind &entry : kinds()) {
        if (kind == QLatin1StringView(entry.kind) && (!entry.apiVersion || apiVersion == QLatin1StringView(entry.apiVersion)))
            return entry.prototype;
    }
    return nullptr;
}

QString fromStd(const std::string &text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QByteArray bytesOf(const std::string &text)
{
    return QByteArray(text.data(), qsizetype(text.size()));
}

// Walks a decoded message into JSON, stopping at the first field it cannot represent.
class JsonWriter
{
public:
    QString error;

    QJsonValue message(const pb::Message &message)
    {
        const pb::Descriptor *descriptor = message.GetDescriptor();
        const pb::Reflection *reflection = message.GetReflection();
        if (!reflection->GetUnknownFields(message).empty()) {
            const pb::UnknownFieldSet &unknown = reflection->GetUnknownFields(message);
            fail(u"field %1 of %2 is not known to the simulator"_s.arg(unknown.field(0).number()).arg(fromStd(descriptor->full_name())));
            return {};
        }
        if (const std::optional<QJsonValue> special = specialType(message))
            return *special;
        std::vector<const pb::FieldDescriptor *> fields;
        reflection->ListFields(message, &fields);
        QJsonObject object;
        for (const pb::FieldDescriptor *field : fields) {
            const QString name = fromStd(field->name());
            if (field->is_map()) {
                QJsonObject map;
                for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
                    const pb::Message &entry = reflection->GetRepeatedMessage(message, field, i);
                    const pb::Descriptor *entryType = entry.GetDescriptor();
                    const QJsonValue key = singular(entry, entryType->map_key());
                    map.insert(key.isString() ? key.toString() : QString::number(key.toInteger()), singular(entry, entryType->map_value()));
                }
                if (!map.isEmpty())
                    object.insert(name, map);
            } else if (field->is_repeated()) {
                QJsonArray array;
                for (int i = 0; i < reflection->FieldSize(message, field); ++i)
                    array.append(element(message, field, i));
                if (!array.isEmpty())
                    object.insert(name, array);
            } else if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
                const QJsonValue value = this->message(reflection->GetMessage(message, field));
                if (field->options().GetExtension(cachescope::k8s::inline_)) {
                    const QJsonObject members = value.toObject();
                    for (auto it = members.begin(); it != members.end(); ++it)
                        object.insert(it.key(), it.value());
                } else {
                    object.insert(name, value);
                }
            } else if (field->options().GetExtension(cachescope::k8s::pointer) || !isZero(message, field)) {
                object.insert(name, singular(message, field));
            }
            if (!error.isEmpty())
                return {};
        }
        return object;
    }

private:
    void fail(const QString &why)
    {
        if (error.isEmpty())
            error = why;
    }

    static bool isZero(const pb::Message &message, const pb::FieldDescriptor *field)
    {
        const pb::Reflection *reflection = message.GetReflection();
        switch (field->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_STRING:
            return reflection->GetString(message, field).empty();
        case pb::FieldDescriptor::CPPTYPE_INT32:
            return reflection->GetInt32(message, field) == 0;
        case pb::FieldDescriptor::CPPTYPE_INT64:
            return reflection->GetInt64(message, field) == 0;
        case pb::FieldDescriptor::CPPTYPE_UINT32:
            return reflection->GetUInt32(message, field) == 0;
        case pb::FieldDescriptor::CPPTYPE_UINT64:
            return reflection->GetUInt64(message, field) == 0;
        case pb::FieldDescriptor::CPPTYPE_BOOL:
            return !reflection->GetBool(message, field);
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
            return reflection->GetDouble(message, field) == 0;
        case pb::FieldDescriptor::CPPTYPE_FLOAT:
            return reflection->GetFloat(message, field) == 0;
        default:
            return false;
        }
    }

    QJsonValue singular(const pb::Message &message, const pb::FieldDescriptor *field)
    {
        const pb::Reflection *reflection = message.GetReflection();
        switch (field->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_STRING:
            if (field->type() == pb::FieldDescriptor::TYPE_BYTES)
                return QString::fromLatin1(bytesOf(reflection->GetString(message, field)).toBase64());
            return fromStd(reflection->GetString(message, field));
        case pb::FieldDescriptor::CPPTYPE_INT32:
            return reflection->GetInt32(message, field);
        case pb::FieldDescriptor::CPPTYPE_INT64:
            return qint64(reflection->GetInt64(message, field));
        case pb::FieldDescriptor::CPPTYPE_UINT32:
            return qint64(reflection->GetUInt32(message, field));
        case pb::FieldDescriptor::CPPTYPE_UINT64:
            return double(reflection->GetUInt64(message, field));
        case pb::FieldDescriptor::CPPTYPE_BOOL:
            return reflection->GetBool(message, field);
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
            return reflection->GetDouble(message, field);
        case pb::FieldDescriptor::CPPTYPE_FLOAT:
            return double(reflection->GetFloat(message, field));
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
            return this->message(reflection->GetMessage(message, field));
        case pb::FieldDescriptor::CPPTYPE_ENUM:
            break;
        }
        fail(u"field %1 has a type the simulator does not decode"_s.arg(fromStd(field->full_name())));
        return {};
    }

    QJsonValue element(const pb::Message &message, const pb::FieldDescriptor *field, int index)
    {
        const pb::Reflection *reflection = message.GetReflection();
        switch (field->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_STRING:
            if (field->type() == pb::FieldDescriptor::TYPE_BYTES)
                return QString::fromLatin1(bytesOf(reflection->GetRepeatedString(message, field, index)).toBase64());
            return fromStd(reflection->GetRepeatedString(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_INT32:
            return reflection->GetRepeatedInt32(message, field, index);
        case pb::FieldDescriptor::CPPTYPE_INT64:
            return qint64(reflection->GetRepeatedInt64(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_UINT32:
            return qint64(reflection->GetRepeatedUInt32(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_UINT64:
            return double(reflection->GetRepeatedUInt64(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_BOOL:
            return reflection->GetRepeatedBool(message, field, index);
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
            return reflection->GetRepeatedDouble(message, field, index);
        case pb::FieldDescriptor::CPPTYPE_FLOAT:
            return double(reflection->GetRepeatedFloat(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
            return this->message(reflection->GetRepeatedMessage(message, field, index));
        case pb::FieldDescriptor::CPPTYPE_ENUM:
            break;
        }
        fail(u"field %1 has a type the simulator does not decode"_s.arg(fromStd(field->full_name())));
        return {};
    }

    // The types whose Go form marshals itself to JSON rather than as a struct.
    std::optional<QJsonValue> specialType(const pb::Message &message)
    {
        const std::string &type = message.GetDescriptor()->full_name();
        if (type == "k8s.io.apimachinery.pkg.apis.meta.v1.Time" || type == "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime") {
            const auto &time = static_cast<const metav1::Time &>(message);
            const bool micro = type == "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime";
            const qint64 seconds = micro ? static_cast<const metav1::MicroTime &>(message).seconds() : time.seconds();
            const int nanos = micro ? static_cast<const metav1::MicroTime &>(message).nanos() : time.nanos();
            // metav1.Time marshals its zero value as no bytes at all, and to JSON as null.
            if (message.ByteSizeLong() == 0)
                return QJsonValue(QJsonValue::Null);
            const QDateTime at = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
            if (!micro)
                return at.toString(u"yyyy-MM-dd'T'HH:mm:ss'Z'"_s);
            return QString(at.toString(u"yyyy-MM-dd'T'HH:mm:ss."_s) + QString::number(nanos / 1000).rightJustified(6, u'0') + u'Z');
        }
        if (type == "k8s.io.apimachinery.pkg.api.resource.Quantity")
            return fromStd(static_cast<const k8s::io::apimachinery::pkg::api::resource::Quantity &>(message).string());
        if (type == "k8s.io.apimachinery.pkg.util.intstr.IntOrString") {
            const auto &value = static_cast<const k8s::io::apimachinery::pkg::util::intstr::IntOrString &>(message);
            if (value.type() == 1)
                return fromStd(value.strval());
            return value.intval();
        }
        if (type == "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1")
            return embeddedJson(bytesOf(static_cast<const metav1::FieldsV1 &>(message).raw()));
        return std::nullopt;
    }

    // FieldsV1 holds the JSON of a managedFields entry as bytes.
    QJsonValue embeddedJson(const QByteArray &raw)
    {
        if (raw.isEmpty())
            return QJsonValue(QJsonValue::Null);
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(raw, &parseError);
        if (parseError.error != QJsonParseError::NoError) {
            fail(u"an embedded object is not JSON: %1"_s.arg(parseError.errorString()));
            return {};
        }
        return document.isArray() ? QJsonValue(document.array()) : QJsonValue(document.object());
    }
};

} // namespace

std::optional<QJsonObject> KubeProtobuf::decode(const QByteArray &body, QString *error)
{
    if (!body.startsWith(Magic)) {
        *error = u"the body does not start with the Kubernetes protobuf prefix k8s\\0"_s;
        return std::nullopt;
    }
    k8s::io::apimachinery::pkg::runtime::Unknown envelope;
    if (!envelope.ParseFromArray(body.constData() + Magic.size(), int(body.size() - Magic.size()))) {
        *error = u"the body is not a valid runtime.Unknown envelope"_s;
        return std::nullopt;
    }
    if (!envelope.contentencoding().empty()) {
        *error = u"content encoding %1 is not supported"_s.arg(fromStd(envelope.contentencoding()));
        return std::nullopt;
    }
    const QString apiVersion = fromStd(envelope.typemeta().apiversion());
    const QString kind = fromStd(envelope.typemeta().kind());
    const pb::Message *prototype = prototypeFor(apiVersion, kind);
    if (!prototype) {
        *error = u"no protobuf form of %1, Kind=%2 is known to the simulator"_s.arg(apiVersion, kind);
        return std::nullopt;
    }
    const std::unique_ptr<pb::Message> object(prototype->New());
    if (!object->ParseFromString(envelope.raw())) {
        *error = u"the body is not a valid %1 message"_s.arg(fromStd(prototype->GetDescriptor()->full_name()));
        return std::nullopt;
    }
    JsonWriter writer;
    QJsonObject result = writer.message(*object).toObject();
    if (!writer.error.isEmpty()) {
        *error = writer.error;
        return std::nullopt;
    }
    result.insert(u"apiVersion"_s, apiVersion);
    result.insert(u"kind"_s, kind);
    return result;
}

bool KubeProtobuf::supports(const QString &apiVersion, const QString &kind)
{
    return prototypeFor(apiVersion, kind) != nullptr;
}

} // namespace Cachescope::Sim
