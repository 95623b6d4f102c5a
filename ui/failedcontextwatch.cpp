#include "ui/failedcontextwatch.h"

#include "core/cache/cluster.h"
#include "core/kube/loginshellpath.h"
#include "core/kube/restconfig.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

FailedContextWatch::FailedContextWatch(Workspace *workspace)
    : QObject(workspace)
    , m_workspace(workspace)
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(SettleMs);
    connect(&m_settle, &QTimer::timeout, this, &FailedContextWatch::reconnect);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, &m_settle, qOverload<>(&QTimer::start));
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, &m_settle, qOverload<>(&QTimer::start));
    connect(workspace, &Workspace::clusterConnected, this, &FailedContextWatch::follow);
    connect(workspace, &Workspace::clusterDisconnecting, this, [this](Cluster *, const Workspace::ContextId &context) { forget(context); });
}

FailedContextWatch::~FailedContextWatch() = default;

QStringList FailedContextWatch::dependencies(const RestConfig &config, const QString &contextFile)
{
    QStringList files{contextFile,
                      config.cluster.file,
                      config.user.file,
                      config.cluster.certificateAuthority,
                      config.user.clientCertificate,
                      config.user.clientKey,
                      config.user.tokenFile};
    QStringList directories;
    if (config.user.exec) {
        const QString &command = config.user.exec->command;
        if (command.contains(u'/')) {
            files.append(command);
        } else {
            directories = qEnvironmentVariable("PATH").split(u':', Qt::SkipEmptyParts) + LoginShellPath::commonDirectories();
        }
    }
    QSet<QString> paths;
    for (const QString &file : std::as_const(files)) {
        if (file.isEmpty()) {
            continue;
        }
        const QFileInfo info(file);
        if (info.exists()) {
            paths.insert(info.absoluteFilePath());
        }
        directories.append(info.absolutePath());
    }
    for (const QString &directory : std::as_const(directories)) {
        if (QFileInfo(directory).isDir()) {
            paths.insert(QDir::cleanPath(QDir(directory).absolutePath()));
        }
    }
    QStringList sorted = paths.values();
    sorted.sort();
    return sorted;
}

void FailedContextWatch::follow(Cluster *cluster, const Workspace::ContextId &context)
{
    connect(cluster, &Cluster::stateChanged, this, [this, context](Cluster::State state) {
        if (state == Cluster::State::Failed && !m_failed.contains(context)) {
            m_failed.append(context);
            rewatch();
        } else if (state != Cluster::State::Failed) {
            forget(context);
        }
    });
}

void FailedContextWatch::forget(const Workspace::ContextId &context)
{
    if (m_failed.removeAll(context) > 0) {
        rewatch();
    }
}

void FailedContextWatch::rewatch()
{
    QSet<QString> wanted;
    for (const Workspace::ContextId &context : std::as_const(m_failed)) {
        if (const Cluster *cluster = m_workspace->cluster(context)) {
            for (const QString &path : dependencies(cluster->restConfig(), context.file)) {
                wanted.insert(path);
            }
        }
    }
    const QStringList watched = m_watcher.files() + m_watcher.directories();
    for (const QString &path : watched) {
        if (!wanted.contains(path)) {
            m_watcher.removePath(path);
        }
    }
    for (const QString &path : std::as_const(wanted)) {
        if (!watched.contains(path)) {
            m_watcher.addPath(path);
        }
    }
    if (m_failed.isEmpty()) {
        m_settle.stop();
    }
}

void FailedContextWatch::reconnect()
{
    // Reconnecting takes each context out of m_failed (its old Cluster goes); one that fails
    // again comes back when its new Cluster says so.
    const QList<Workspace::ContextId> failed = m_failed;
    for (const Workspace::ContextId &context : failed) {
        m_workspace->reconnectContext(context);
    }
}

} // namespace Cachescope
