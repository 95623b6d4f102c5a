#pragma once

#include "core/kube/kubeconfig.h"

#include <QObject>

#include <memory>

class QTextStream;

namespace Cachescope {

class ApiClient;
class Discovery;
struct DiscoveryResult;

// ApiResourcesCommand is `cachescope-cli api-resources`: discovery against the chosen context,
// printed like `kubectl api-resources` (NAME, SHORTNAMES, APIVERSION, NAMESPACED, KIND), the
// preferred version of each resource, groups in discovery order and names sorted within a
// group. Group-versions that could not be read are warned about on err; failure to reach the
// server is an error on err and exit code 1. Asynchronous: start(), then finished(exitCode).
// Runs its ApiClient on the thread it lives on (the CLI has no GUI thread to protect).
class ApiResourcesCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiResourcesCommand)

public:
    ApiResourcesCommand(const Kubeconfig &config, const QString &context, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~ApiResourcesCommand() override;

    void start();
    static void print(const DiscoveryResult &result, QTextStream &out);

Q_SIGNALS:
    void finished(int exitCode);

private:
    void done(int exitCode);

    Kubeconfig m_config;
    QString m_context;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<ApiClient> m_client;
    Discovery *m_discovery = nullptr; // owned (child)
};

} // namespace Cachescope
