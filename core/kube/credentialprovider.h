#pragma once

#include "core/kube/apierror.h"
#include "core/kube/credentials.h"
#include "core/kube/restconfig.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>

namespace Cachescope {

class ExecPlugin;

// CredentialProvider supplies the Credentials for one kubeconfig user, the way client-go's
// transport does: a static token, basic auth, a client certificate and key (files or inline
// data, RSA or EC), a tokenFile re-read at most once a minute (tokens projected by kubelet
// rotate), or an exec plugin whose answer is cached until its expirationTimestamp. After the
// server answers 401 the caller invalidates() and asks again, once: an exec plugin then runs
// afresh and a tokenFile is re-read. A user with an auth-provider gets a clear error naming the
// plugin that replaced it.
//
// Lives on its cluster's worker thread (asserted); requests arriving while a plugin runs wait
// for that one run. Callbacks run on the provider's thread, from the event loop, never from
// inside credentials(), and not at all if their context object is gone. Never blocks except
// for reading small local files. Owned by its ApiClient.
class CredentialProvider final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CredentialProvider)

public:
    using Callback = std::function<void(const Credentials &credentials, const ApiError &error)>;

    explicit CredentialProvider(RestConfig config, QObject *parent = nullptr);
    ~CredentialProvider() override;

    void credentials(QObject *context, Callback callback);
    // invalidate() forgets what can be fetched again (exec plugin output, tokenFile content).
    void invalidate();
    // canRefresh() says whether invalidate() can change anything, so a 401 is worth a retry.
    bool canRefresh() const;

    void setExecTimeout(std::chrono::milliseconds timeout) { m_execTimeout = timeout; }
    // execRuns() counts plugin runs, for tests and the pipeline view.
    int execRuns() const { return m_execRuns; }

    // authProviderMessage() explains why an auth-provider user cannot be used.
    [[nodiscard]] static QString authProviderMessage(const QString &userName, const QString &provider);

private:
    struct Waiter
    {
        QPointer<QObject> context;
        Callback callback;
    };
    ApiError loadStatic();
    void deliver(const Credentials &credentials, const ApiError &error);

    RestConfig m_config;
    std::chrono::milliseconds m_execTimeout{std::chrono::minutes(1)};
    bool m_staticLoaded = false;
    Credentials m_static;
    ApiError m_staticError;
    Secret m_fileToken;
    QDateTime m_fileTokenReadAt;
    std::optional<Credentials> m_execCached;
    ExecPlugin *m_plugin = nullptr; // owned (child)
    QList<Waiter> m_waiters;
    int m_execRuns = 0;
};

} // namespace Cachescope
