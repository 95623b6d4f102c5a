#pragma once

#include "core/cli/objectlookup.h"
#include "core/relations/relationnode.h"

#include <QDateTime>
#include <QObject>

#include <memory>

class QTextStream;

namespace Cachescope {

class RelationService;

// TreeCommand is `cachescope-cli tree KIND/NAME [-n NS]`: the object's relations as the
// kubectl-tree plugin prints them (NAMESPACE NAME READY REASON AGE, the tree drawn with ├─ └─ │
// in NAME): from the root of its owner chain down to its dependents' leaves, and under the object
// its implicit edges, each marked with its source (`[volume: volume config]`). READY and REASON
// are the Ready condition's status and reason (`-` without one); a dangling owner says
// `Dangling`, one not found yet `Unknown`. It waits until a RelationService has synced every
// informer it reads (bounded by --timeout), then prints once. Exit code 0, or 1 with kubectl's
// message when the object does not exist. Asynchronous: start(), then finished(exitCode).
class TreeCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TreeCommand)

public:
    TreeCommand(
        const Kubeconfig &config, const QString &context, const ObjectLookup::Target &target, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~TreeCommand() override;

    void start();

    // printTree() writes a tree as the command does, with ages relative to `now`.
    static void printTree(const RelationNode &root, const QDateTime &now, QTextStream &out);

Q_SIGNALS:
    void finished(int exitCode);

private:
    void onFound(const ObjectRef &object);
    void print();

    ObjectLookup::Target m_target;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<ObjectLookup> m_lookup;
    std::unique_ptr<RelationService> m_relations;
    ObjectRef m_object;
    bool m_done = false;
};

} // namespace Cachescope
