#pragma once

#include "ui/workspace.h"

#include <QFileSystemWatcher>
#include <QList>
#include <QObject>
#include <QTimer>

namespace Cachescope {

struct RestConfig;

// FailedContextWatch connects again a context whose Cluster Failed (its kubeconfig's material
// could not be used, which no retry cures) once a file it depends on changes: the kubeconfig
// files that define it, its certificate authority, client certificate and key, token file and
// exec plugin (a plugin named without a path: the directories of PATH). Files are watched
// through their directories, so that creating a missing file, or an editor replacing one by
// renaming, counts. A burst of changes (an editor saving in steps) is one reconnect, once the
// files have been quiet for SettleMs.
//
// Thread: GUI thread. Ownership: a child of the Workspace it serves.
class FailedContextWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FailedContextWatch)

public:
    static constexpr int SettleMs = 300;

    explicit FailedContextWatch(Workspace *workspace);
    ~FailedContextWatch() override;

    // dependencies() lists the directories and existing files whose change may cure a context.
    [[nodiscard]] static QStringList dependencies(const RestConfig &config, const QString &contextFile);
    // waiting() lists the failed contexts watched now.
    [[nodiscard]] QList<Workspace::ContextId> waiting() const { return m_failed; }

private:
    void follow(Cluster *cluster, const Workspace::ContextId &context);
    void forget(const Workspace::ContextId &context);
    void rewatch();
    void reconnect();

    Workspace *m_workspace; // parent
    QFileSystemWatcher m_watcher;
    QTimer m_settle;
    QList<Workspace::ContextId> m_failed;
};

} // namespace Cachescope
