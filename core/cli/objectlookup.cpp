#include "core/cli/objectlookup.h"

#include "core/cache/sharedindexinformer.h"
#include "core/cli/informersession.h"

#include <QCommandLineParser>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

std::optional<ObjectLookup::Target> ObjectLookup::fromParser(const QCommandLineParser &parser, const QString &argument, QString *errorMessage)
{
    const qsizetype slash = argument.indexOf(u'/');
    if (slash <= 0 || slash == argument.size() - 1 || argument.indexOf(u'/', slash + 1) >= 0) {
        *errorMessage = u"expected KIND/NAME (e.g. deploy/web, pod/web-1), got \"%1\""_s.arg(argument);
        return std::nullopt;
    }
    const auto request = InformerRequest::fromParser(parser, argument.left(slash), errorMessage);
    if (!request) {
        return std::nullopt;
    }
    if (request->allNamespaces || !request->labelSelector.isEmpty() || !request->fieldSelector.isEmpty() || request->metadataOnly) {
        *errorMessage = u"KIND/NAME names one object: -A, -l, --field-selector and --metadata-only do not apply"_s;
        return std::nullopt;
    }
    return Target{*request, argument.mid(slash + 1)};
}

ObjectLookup::ObjectLookup(const Kubeconfig &config, const QString &context, const Target &target, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_session(std::make_unique<InformerSession>(config, context, target.request, err))
{
    // As kubectl get: a refused list is the answer.
    m_session->setFailFast(true);
    connect(m_session.get(), &InformerSession::failed, this, &ObjectLookup::failed);
    connect(m_session.get(), &InformerSession::ready, this, [this] {
        const ApiResource &resource = m_session->resource();
        const QString ns = resource.namespaced ? m_session->request().namespaceName : QString();
        const KubeObject object = m_session->informer()->indexer().getByKey(ns.isEmpty() ? m_target.name : ns + u'/' + m_target.name);
        if (!object.isValid()) {
            const QString resourceName =
                resource.gvr.group().isEmpty() ? resource.gvr.resource() : QString(resource.gvr.resource() + u'.' + resource.gvr.group());
            Q_EMIT failed(u"%1 \"%2\" not found"_s.arg(resourceName, m_target.name));
            return;
        }
        Q_EMIT found(ObjectRef::of(object, resource.kind, resource.gvr.groupVersion()));
    });
}

ObjectLookup::~ObjectLookup() = default;

void ObjectLookup::start()
{
    m_session->start();
}

Cluster *ObjectLookup::cluster() const
{
    return m_session->cluster();
}

QString ObjectLookup::namespaceName() const
{
    return m_session->request().namespaceName;
}

} // namespace Cachescope
