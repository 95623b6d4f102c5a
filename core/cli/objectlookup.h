#pragma once

#include "core/cli/informerrequest.h"
#include "core/kube/apiresource.h"
#include "core/kube/kubeconfig.h"
#include "core/relations/objectref.h"

#include <QObject>

#include <memory>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class Cluster;
class InformerSession;

// ObjectLookup is how `tree` and `events` find the one object they are about: the argument
// KIND/NAME (`deploy/web`, `pod/web-1`, `deployments.apps/web`, the kind resolved through
// discovery as kubectl resolves it) in `-n NS` (the kubeconfig's namespace without it), through
// an InformerSession that syncs the kind's informer, then the object from its cache. found() or
// failed() with kubectl's message (`deployments.apps "web" not found`). Lives on the CLI's main
// thread; owns the session and with it the Cluster, which stays connected for the command.
class ObjectLookup final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectLookup)

public:
    struct Target
    {
        InformerRequest request; // resource = the KIND part
        QString name;
    };

    // fromParser() reads KIND/NAME and the informer options; -A and selectors are refused.
    [[nodiscard]] static std::optional<Target> fromParser(const QCommandLineParser &parser, const QString &argument, QString *errorMessage);

    ObjectLookup(const Kubeconfig &config, const QString &context, const Target &target, QTextStream &err, QObject *parent = nullptr);
    ~ObjectLookup() override;

    void start();
    [[nodiscard]] Cluster *cluster() const;
    // namespaceName() is the namespace looked in, once found() or failed() was emitted.
    [[nodiscard]] QString namespaceName() const;

Q_SIGNALS:
    void found(const Cachescope::ObjectRef &object);
    void failed(const QString &message);

private:
    Target m_target;
    std::unique_ptr<InformerSession> m_session;
};

} // namespace Cachescope
