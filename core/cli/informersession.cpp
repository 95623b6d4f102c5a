#include "core/cli/informersession.h"

#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"

#include <QTextStream>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

InformerSession::InformerSession(const Kubeconfig &config, const QString &context, const InformerRequest &request, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_context(context)
    , m_request(request)
    , m_err(err)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        const QString seconds = QString::number(double(m_request.timeout.count()) / 1000.0);
        fail(m_lastError.isEmpty() ? u"the informer did not sync within %1 s"_s.arg(seconds) : u"gave up after %1 s: %2"_s.arg(seconds, m_lastError));
    });
}

InformerSession::~InformerSession() = default;

std::optional<KubeconfigError> InformerSession::configurationProblem(const RestConfig &rest, const ApiError &error)
{
    if (!error.isConfiguration()) {
        return std::nullopt;
    }
    // Config errors are the cluster's TLS material and server; Credentials errors the user's.
    const bool cluster = error.kind() == ApiError::Kind::Config;
    const QString &file = cluster ? rest.cluster.file : rest.user.file;
    const int line = cluster ? rest.cluster.line : rest.user.line;
    return KubeconfigError{file, line, 0, u"context \"%1\": %2"_s.arg(rest.contextName(), error.message())};
}

void InformerSession::start()
{
    const auto resolved = m_config.commandRestConfig(m_context);
    if (const auto *errors = std::get_if<QList<KubeconfigError>>(&resolved)) {
        QStringList problems;
        for (const KubeconfigError &error : *errors) {
            problems.append(error.toString());
        }
        fail(problems.join(u"\n"_s));
        return;
    }
    const RestConfig &rest = std::get<RestConfig>(resolved);
    if (!m_request.allNamespaces && m_request.namespaceName.isEmpty()) {
        m_request.namespaceName = rest.defaultNamespace();
    }
    m_cluster = std::make_unique<Cluster>(rest);
    if (m_wrapper) {
        m_cluster->informers()->setListerWatcherWrapper(m_wrapper);
    }
    for (const QString &warning : m_cluster->warnings()) {
        m_err << "warning: " << warning << Qt::endl;
    }
    connect(m_cluster.get(), &Cluster::discoveryFailed, this, [this, rest](const ApiError &error, std::chrono::milliseconds retryIn) {
        if (const auto problem = configurationProblem(rest, error)) {
            // Not transient: a missing CA file or exec plugin does not appear by retrying, and
            // kubectl gives up at once too.
            fail(problem->toString());
            return;
        }
        m_lastError = error.toString();
        // kubectl gives up at once too when the server's certificate cannot be trusted or the
        // server refuses the credentials: the same material will meet the same answer.
        if (m_failFast && (error.kind() == ApiError::Kind::Tls || error.isRefusal())) {
            fail(u"context \"%1\": %2"_s.arg(rest.contextName(), m_lastError));
            return;
        }
        m_err << "warning: " << m_lastError << " (retrying in " << QString::number(double(retryIn.count()) / 1000.0, 'f', 1) << " s)" << Qt::endl;
    });
    connect(m_cluster.get(), &Cluster::discovered, this, &InformerSession::onDiscovered);
    m_deadline.start(m_request.timeout);
    m_cluster->start();
}

const ApiResource &InformerSession::resource() const
{
    static const ApiResource none;
    return m_targets.isEmpty() ? none : m_targets.constFirst().resource;
}

void InformerSession::onDiscovered()
{
    if (m_done || !m_targets.isEmpty()) {
        return;
    }
    const DiscoveryResult &discovery = m_cluster->discovery();
    if (m_failFast) {
        // `get` is kubectl get: a LIST (paged), not a streaming list, so that what the server
        // refuses is the list, in the words kubectl reports it with.
        SharedIndexInformer::Options defaults = m_cluster->informers()->defaultOptions();
        defaults.reflector.useWatchList = false;
        m_cluster->informers()->setDefaultOptions(defaults);
    }
    QList<InformerKey> keys;
    for (const QString &name : m_request.resource.split(u',')) {
        const auto resolved = discovery.resolve(name.trimmed());
        if (const auto *error = std::get_if<QString>(&resolved)) {
            fail(*error);
            return;
        }
        InformerKey key;
        key.resource = std::get<ApiResource>(resolved);
        if (!key.resource.supports(u"list"_s) || !key.resource.supports(u"watch"_s)) {
            fail(u"the server cannot list and watch %1"_s.arg(key.resource.gvr.toString()));
            return;
        }
        key.namespaceName = key.resource.namespaced && !m_request.allNamespaces ? m_request.namespaceName : QString();
        key.labelSelector = m_request.labelSelector;
        key.fieldSelector = m_request.fieldSelector;
        key.metadataOnly = m_request.metadataOnly;
        if (!keys.contains(key)) {
            keys.append(key);
        }
    }
    for (const InformerKey &key : std::as_const(keys)) {
        SharedIndexInformer *informer = m_cluster->informers()->informer(key);
        m_targets.append({key.resource, informer});
        connect(informer, &SharedIndexInformer::errorOccurred, this, [this, informer](const ApiError &error) {
            if (const auto problem = configurationProblem(m_cluster->restConfig(), error)) {
                fail(problem->toString());
                return;
            }
            m_lastError = error.toString();
            // kubectl gives up at once when the server refuses a list for good; retrying the
            // same credentials against the same RBAC rules will not change the answer.
            const bool missing = error.kind() == ApiError::Kind::Http && error.code() == 404;
            if (m_failFast && (error.isRefusal() || missing)) {
                fail(m_lastError);
                return;
            }
            m_err << "warning: " << informer->name() << ": " << m_lastError << Qt::endl;
        });
        connect(informer, &SharedIndexInformer::synced, this, &InformerSession::onSynced);
    }
    for (const Target &target : std::as_const(m_targets)) {
        Q_EMIT informerStarting(target.informer);
    }
    m_cluster->informers()->start();
    onSynced();
}

void InformerSession::onSynced()
{
    if (m_done || m_targets.isEmpty()) {
        return;
    }
    for (const Target &target : std::as_const(m_targets)) {
        if (!target.informer->hasSynced()) {
            return;
        }
    }
    m_done = true;
    m_deadline.stop();
    Q_EMIT ready();
}

void InformerSession::fail(const QString &message)
{
    if (m_done) {
        return;
    }
    m_done = true;
    m_deadline.stop();
    Q_EMIT failed(message);
}

} // namespace Cachescope
