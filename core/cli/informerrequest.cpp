#include "core/cli/informerrequest.h"

#include "core/kube/fieldselector.h"
#include "core/kube/labelselector.h"
#include "core/printers/duration.h"

#include <QCommandLineParser>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// selectorError() says what is wrong with a selector and points at it under the text as typed:
//   -l: unable to parse requirement: found '', expected: ',' or ')' (at character 12)
//     app in (web
//                ^
QString selectorError(const QString &option, const QString &text, const SelectorError &error)
{
    return u"%1: %2 (at character %3)\n    %4\n    %5^"_s.arg(option, error.message).arg(error.position + 1).arg(text, QString(error.position, u' '));
}

} // namespace

QList<QCommandLineOption> InformerRequest::options()
{
    return {
        QCommandLineOption({u"n"_s, u"namespace"_s}, u"Only objects of this namespace (default: the context's namespace)."_s, u"ns"_s),
        QCommandLineOption({u"A"_s, u"all-namespaces"_s}, u"Objects of every namespace."_s),
        QCommandLineOption({u"l"_s, u"selector"_s}, u"Label selector sent to the server (e.g. app=web,tier!=db)."_s, u"selector"_s),
        QCommandLineOption(u"field-selector"_s, u"Field selector sent to the server (e.g. spec.nodeName=node-1)."_s, u"selector"_s),
        QCommandLineOption(u"metadata-only"_s, u"List and watch metadata only (PartialObjectMetadata), as metadata informers do."_s),
        QCommandLineOption(u"timeout"_s, u"How long to try reaching the server and syncing before giving up (default 60s)."_s, u"duration"_s),
    };
}

std::optional<InformerRequest> InformerRequest::fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage)
{
    InformerRequest request;
    request.resource = resource;
    if (resource.isEmpty()) {
        *errorMessage = u"a resource is required (e.g. pods, deployments.apps)"_s;
        return std::nullopt;
    }
    request.allNamespaces = parser.isSet(u"A"_s);
    request.namespaceName = parser.value(u"n"_s);
    if (request.allNamespaces && !request.namespaceName.isEmpty()) {
        *errorMessage = u"-n and -A exclude each other"_s;
        return std::nullopt;
    }
    // A malformed selector is rejected here, before any request: sent as it is, it would come
    // back only as the server's 400 after discovery, which the informer then retries.
    request.labelSelector = parser.value(u"l"_s);
    if (const auto labels = LabelSelector::parse(request.labelSelector); const auto *error = std::get_if<SelectorError>(&labels)) {
        *errorMessage = selectorError(u"-l"_s, request.labelSelector, *error);
        return std::nullopt;
    }
    request.fieldSelector = parser.value(u"field-selector"_s);
    if (const auto fields = FieldSelector::parse(request.fieldSelector); const auto *error = std::get_if<SelectorError>(&fields)) {
        *errorMessage = selectorError(u"--field-selector"_s, request.fieldSelector, *error);
        return std::nullopt;
    }
    request.metadataOnly = parser.isSet(u"metadata-only"_s);
    if (parser.isSet(u"timeout"_s)) {
        const auto timeout = parseDuration(parser.value(u"timeout"_s));
        if (!timeout) {
            *errorMessage = u"--timeout: \"%1\" is not a duration (e.g. 30s, 2m)"_s.arg(parser.value(u"timeout"_s));
            return std::nullopt;
        }
        request.timeout = *timeout;
    }
    return request;
}

} // namespace Cachescope
