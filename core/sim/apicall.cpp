#include "core/sim/apicall.h"

#include "core/sim/apierror.h"
#include "core/sim/contentnegotiation.h"
#include "core/sim/httpexchange.h"
#include "core/sim/kubeprotobuf.h"
#include "core/sim/tableconverter.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

bool ApiCall::queryFlag(const QString &key) const
{
    const QString value = request.queryValue(key);
    return value == u"true" || value == u"1" || value == u"t" || value == u"T" || value == u"TRUE" || value == u"True";
}

void ApiCall::sendError(const ApiError &error) const
{
    // The apiserver repeats a Status's retryAfterSeconds in a Retry-After header
    // (responsewriters.ErrorNegotiated; priority and fairness writes its 429's own, 0 included),
    // and the header is what client-go's retry reads. An error that asks for no retry names none.
    HttpHeaders headers;
    if (const QJsonValue retryAfter = error.details.value(u"retryAfterSeconds"_s); !retryAfter.isUndefined())
        headers.append({"Retry-After", QByteArray::number(retryAfter.toInt())});
    exchange->sendResponse(error.code, "application/json", error.toStatus(), headers);
}

void ApiCall::sendJson(int status, const QJsonObject &object, const QByteArray &contentType) const
{
    exchange->sendResponse(status, contentType, QJsonDocument(object).toJson(QJsonDocument::Compact));
}

void ApiCall::sendObject(int status, const ObjectPtr &object) const
{
    const ContentNegotiation negotiation = ContentNegotiation::of(request);
    if (negotiation.representation == ContentNegotiation::Representation::Object) {
        exchange->sendResponse(status, "application/json", object->json);
        return;
    }
    const QJsonObject parsed = QJsonDocument::fromJson(object->json).object();
    if (negotiation.representation == ContentNegotiation::Representation::Metadata) {
        sendJson(status, TableConverter::partialObjectMetadata(parsed), "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io");
        return;
    }
    const QJsonObject row = TableConverter::row(route.type, parsed, TableConverter::IncludeObject::Metadata, QDateTime::currentDateTimeUtc());
    sendJson(status,
             TableConverter::table(route.type, QJsonArray{row}, true, QJsonObject{{u"resourceVersion"_s, QString::number(object->resourceVersion)}}),
             "application/json;as=Table;v=v1;g=meta.k8s.io");
}

std::optional<QJsonObject> ApiCall::readBody() const
{
    const QByteArray contentType = request.header("content-type");
    if (contentType.split(';').value(0).trimmed().toLower() == KubeProtobuf::MediaType) {
        // kubectl's typed commands (create namespace/configmap/deployment/secret) write
        // protobuf; it is stored as the JSON the apiserver would have made of it.
        QString error;
        std::optional<QJsonObject> object = KubeProtobuf::decode(request.body, &error);
        if (!object)
            sendError(ApiError::badRequest(u"the protobuf body could not be decoded: "_s + error));
        return object;
    }
    if (contentType.contains("protobuf") || contentType.contains("cbor")) {
        // Told so instead of getting a parse error.
        sendError(ApiError::unsupportedMediaType(QString::fromLatin1(contentType)));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        sendError(ApiError::badRequest(u"the request body is not a JSON object: %1"_s.arg(parseError.errorString())));
        return std::nullopt;
    }
    return document.object();
}

} // namespace Cachescope::Sim
