#include "core/cache/cluster.h"

#include "core/cache/informerfactory.h"
#include "core/cache/informerkey.h"
#include "core/kube/apiclient.h"
#include "core/kube/discovery.h"

#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

Cluster::Cluster(const RestConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
{
    m_thread = new QThread();
    m_thread->setObjectName(u"cluster "_s + config.contextName());
    // Made here, then handed to the worker thread before anything uses it: its QNAMs are its
    // children and move with it.
    m_client = new ApiClient(config);
    m_warnings = m_client->warnings();
    m_client->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_client, &QObject::deleteLater);
    m_thread->start();

    m_factory = new InformerFactory(m_client, m_thread, this);
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &Cluster::discover);
}

Cluster::~Cluster()
{
    m_retryTimer.stop();
    // Informers first: their reflectors are deleted on the worker thread, which must still run.
    delete m_factory;
    m_factory = nullptr;
    // Quit behind the reflectors' deletions just posted to the worker thread (posted events run
    // in order): a plain quit() could end its event loop first, and they would never run.
    QMetaObject::invokeMethod(
        m_client, [thread = m_thread] { thread->quit(); }, Qt::QueuedConnection);
    m_thread->wait();
    delete m_thread;
}

QString Cluster::server() const
{
    return m_config.cluster.server.toString(QUrl::RemoveUserInfo);
}

SharedIndexInformer *Cluster::informerOf(const QString &resource, const QString &namespaceName) const
{
    const auto resolved = m_discovery.resolve(resource);
    const ApiResource *apiResource = std::get_if<ApiResource>(&resolved);
    if (apiResource == nullptr || !apiResource->supports(u"list"_s) || !apiResource->supports(u"watch"_s)) {
        return nullptr;
    }
    InformerKey key;
    key.resource = *apiResource;
    key.namespaceName = apiResource->namespaced ? namespaceName : QString();
    return m_factory->informer(key);
}

QString Cluster::stateName(State state)
{
    switch (state) {
    case State::Idle:
        return u"idle"_s;
    case State::Connecting:
        return u"connecting"_s;
    case State::Connected:
        return u"connected"_s;
    case State::Retrying:
        return u"retrying"_s;
    case State::Failed:
        return u"failed"_s;
    }
    return {};
}

void Cluster::start()
{
    if (m_state != State::Idle) {
        return;
    }
    setState(State::Connecting);
    discover();
}

void Cluster::discover()
{
    QPointer<Cluster> self(this);
    ApiClient *client = m_client;
    QMetaObject::invokeMethod(client, [self, client] {
        auto *discovery = new Discovery(client, client);
        QObject::connect(discovery, &Discovery::finished, discovery, [self, discovery](const DiscoveryResult &result) {
            discovery->deleteLater();
            QMetaObject::invokeMethod(self, [self, result] {
                if (self) {
                    self->onDiscovered(result);
                }
            });
        });
        QObject::connect(discovery, &Discovery::failed, discovery, [self, discovery](const ApiError &error) {
            discovery->deleteLater();
            QMetaObject::invokeMethod(self, [self, error] {
                if (self) {
                    self->onDiscoveryFailed(error);
                }
            });
        });
        discovery->start();
    });
}

void Cluster::onDiscovered(const DiscoveryResult &result)
{
    m_discovery = result;
    m_discovered = true;
    m_lastError = ApiError();
    m_backoff.reset();
    setState(State::Connected);
    Q_EMIT discovered(result);
}

void Cluster::onDiscoveryFailed(const ApiError &error)
{
    m_lastError = error;
    if (error.isConfiguration()) {
        setState(State::Failed);
        Q_EMIT discoveryFailed(error, std::chrono::milliseconds::zero());
        return;
    }
    const std::chrono::milliseconds delay = m_backoff.next();
    setState(State::Retrying);
    Q_EMIT discoveryFailed(error, delay);
    m_retryTimer.start(delay);
}

void Cluster::setState(State state)
{
    if (m_state == state) {
        return;
    }
    m_state = state;
    Q_EMIT stateChanged(state);
}

} // namespace Cachescope
