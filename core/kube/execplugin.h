#pragma once

#include "core/kube/apierror.h"
#include "core/kube/clusterconfig.h"
#include "core/kube/credentials.h"
#include "core/kube/execconfig.h"

#include <QObject>

#include <chrono>

class QProcess;

namespace Cachescope {

// ExecPlugin runs one kubeconfig `exec:` credential plugin once (client.authentication.k8s.io
// v1 or v1beta1) and reports the ExecCredential it prints: a token and/or a client certificate,
// with the expiry it states. The command is looked up like the user's login shell would
// (LoginShellPath); it gets the app's environment plus the configured env and
// KUBERNETES_EXEC_INFO (with the cluster when provideClusterInfo). Cachescope has no terminal to
// offer, so the plugin runs non-interactively with stdin closed, and interactiveMode: Always is
// refused with a message that says how to log in from a terminal.
//
// Asynchronous (QProcess), never blocks; lives on the thread that created it. Emits exactly one
// of succeeded()/failed() per start(). Failure texts include the plugin's stderr (last lines,
// with any credential it printed redacted) and the installHint when the command is missing.
// Owned by its parent (a CredentialProvider).
class ExecPlugin final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExecPlugin)

public:
    ExecPlugin(ExecConfig config, ClusterConfig cluster, QObject *parent = nullptr);
    ~ExecPlugin() override;

    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }
    void start();
    bool isRunning() const { return m_running; }

    // execInfo() is the KUBERNETES_EXEC_INFO JSON the plugin gets.
    [[nodiscard]] QByteArray execInfo() const;
    // parseOutput() reads a plugin's stdout into Credentials, or says what is wrong with it.
    [[nodiscard]] static std::variant<Credentials, QString> parseOutput(const QByteArray &stdoutBytes, const QString &expectedApiVersion);

Q_SIGNALS:
    void succeeded(const Cachescope::Credentials &credentials);
    void failed(const Cachescope::ApiError &error);

private:
    void run(const QStringList &searchPath);
    void fail(const QString &message);
    QString stderrExcerpt() const;

    ExecConfig m_config;
    ClusterConfig m_cluster;
    std::chrono::milliseconds m_timeout{std::chrono::minutes(1)};
    QProcess *m_process = nullptr; // owned (child), alive while running
    bool m_running = false;
    bool m_timedOut = false;
};

} // namespace Cachescope
