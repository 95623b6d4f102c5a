#pragma once

#include "core/kube/clusterconfig.h"
#include "core/kube/contextconfig.h"
#include "core/kube/kubeconfigerror.h"
#include "core/kube/restconfig.h"
#include "core/kube/userconfig.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace Cachescope {

// Kubeconfig is the merged view of one or more kubeconfig files, loaded with kubectl's rules:
// the sources are an explicit file, else the `:`-separated $KUBECONFIG list (empty entries and
// repeats skipped), else ~/.kube/config; for clusters, users and contexts the first file that
// defines a name wins; the first non-empty current-context wins; relative paths are resolved
// against the file that names them; a missing file is ignored unless it was given explicitly.
//
// Unlike kubectl, a context whose name an earlier file already used is kept (marked shadowed,
// with its file) and can be chosen by name and file; its cluster and user names are looked up
// in its own file first. A malformed file is reported in errors() with file, line and reason,
// and the other files still load (kubectl refuses them all; a desktop app should show what it
// can and say what it cannot). Nothing throws; every problem is a KubeconfigError.
//
// Loading reads files synchronously: it is small local I/O, done once when a kubeconfig is
// opened. Value type; thread-agnostic.
class Kubeconfig
{
public:
    Kubeconfig() = default;

    // sourceFiles() lists the files kubectl would read, in precedence order.
    [[nodiscard]] static QStringList sourceFiles(const QString &explicitFile, const QByteArray &kubeconfigEnv, const QString &homeDir);

    // load() reads the default sources: explicitFile if not empty, else $KUBECONFIG, else ~/.kube/config.
    [[nodiscard]] static Kubeconfig load(const QString &explicitFile = {});
    // loadFiles() merges the given files in order; a missing file is an error only when
    // explicit is true (then files has one entry).
    [[nodiscard]] static Kubeconfig loadFiles(const QStringList &files, bool explicitFile);
    // fromYaml() parses one file's content, as if read from fileName (for tests and stdin).
    [[nodiscard]] static Kubeconfig fromYaml(const QByteArray &yaml, const QString &fileName);

    QStringList files() const { return m_files; }
    QList<KubeconfigError> errors() const { return m_errors; }
    bool hasErrors() const { return !m_errors.isEmpty(); }

    QString currentContext() const { return m_currentContext; }
    // contexts() is every context of every file in file order, shadowed ones included.
    QList<ContextConfig> contexts() const { return m_contexts; }
    // clusters() and users() are the merged entries (first file wins).
    QList<ClusterConfig> clusters() const { return m_clusters; }
    QList<UserConfig> users() const { return m_users; }

    // context() finds a context by name: the first file's unless file says which one.
    std::optional<ContextConfig> context(const QString &name, const QString &file = {}) const;

    // restConfig() resolves a context (the current one when name is empty) into a RestConfig,
    // or says why it cannot: no such context, a missing cluster or user, no server.
    [[nodiscard]] std::variant<RestConfig, KubeconfigError> restConfig(const QString &name = {}, const QString &file = {}) const;
    // commandRestConfig() is what a command-line command connects with: like kubectl, it refuses
    // any error in the merged files (every one of them, in file order), then resolves the context.
    [[nodiscard]] std::variant<RestConfig, QList<KubeconfigError>> commandRestConfig(const QString &name = {}) const;

private:
    void merge(const Kubeconfig &other);

    QStringList m_files;
    QList<KubeconfigError> m_errors;
    QString m_currentContext;
    QString m_currentContextFile; // the file whose current-context won, and its line
    int m_currentContextLine = 0;
    QList<ContextConfig> m_contexts;
    QList<ClusterConfig> m_clusters; // merged, first wins
    QList<UserConfig> m_users; // merged, first wins
    QList<ClusterConfig> m_allClusters; // every file's, for shadowed contexts
    QList<UserConfig> m_allUsers;
};

} // namespace Cachescope
