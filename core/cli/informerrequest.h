#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include <chrono>
#include <optional>

class QCommandLineParser;

namespace Cachescope {

// InformerRequest is what `get`, `watch` and `control` share on their command line: the
// resource as typed at kubectl ("po", "deployments.apps"), `-n NS` or `-A`, `-l SELECTOR`,
// `--field-selector S`, `--metadata-only`, and `--timeout` for reaching the server and
// syncing. options() are added to the parser; fromParser() reads them back (the kubeconfig's
// namespace applies when neither -n nor -A is given). Plain value type.
struct InformerRequest
{
    QString resource;
    QString namespaceName; // empty with allNamespaces
    bool allNamespaces = false;
    QString labelSelector;
    QString fieldSelector;
    bool metadataOnly = false;
    std::chrono::milliseconds timeout{std::chrono::seconds(60)};

    static QList<QCommandLineOption> options();
    // fromParser() fills a request from parsed options and the resource argument; on a bad value
    // (a selector that does not parse included, with the position of its error) it returns
    // nothing and sets *errorMessage.
    [[nodiscard]] static std::optional<InformerRequest> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);
};

} // namespace Cachescope
