#include "core/cli/treecommand.h"

#include "core/printers/duration.h"
#include "core/printers/tableprinter.h"
#include "core/relations/readycondition.h"
#include "core/relations/relationservice.h"

#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString nameOf(const RelationNode &node)
{
    QString name = node.object.displayName();
    if (node.isImplicit()) {
        name += u" ["_s + RelationEdge::sourceName(node.source);
        if (!node.detail.isEmpty()) {
            name += u": "_s + node.detail;
        }
        name += u']';
    }
    return name;
}

void addRows(TablePrinter &table, const RelationNode &node, const QString &prefix, const QString &branch, const QDateTime &now)
{
    const ReadyCondition ready = ReadyCondition::of(node.object);
    const QDateTime created = node.object.object.creationTimestamp();
    const QString age = created.isValid() ? humanDuration(std::chrono::milliseconds(created.msecsTo(now))) : QString();
    table.addRow({node.object.namespaceName, prefix + branch + nameOf(node), ready.status, ready.reason, age});
    // Below the root, kubectl-tree continues a branch with "│ " and ends it with "  ".
    const QString childPrefix = branch.isEmpty() ? prefix : QString(prefix + (branch == u"└─"_s ? u"  "_s : u"│ "_s));
    for (qsizetype i = 0; i < node.children.size(); ++i) {
        addRows(table, node.children.at(i), childPrefix, i + 1 == node.children.size() ? u"└─"_s : u"├─"_s, now);
    }
}

} // namespace

TreeCommand::TreeCommand(
    const Kubeconfig &config, const QString &context, const ObjectLookup::Target &target, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_out(out)
    , m_err(err)
    , m_lookup(std::make_unique<ObjectLookup>(config, context, target, err))
{
    connect(m_lookup.get(), &ObjectLookup::failed, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        m_done = true;
        Q_EMIT finished(1);
    });
    connect(m_lookup.get(), &ObjectLookup::found, this, &TreeCommand::onFound);
}

TreeCommand::~TreeCommand() = default;

void TreeCommand::start()
{
    m_lookup->start();
}

void TreeCommand::onFound(const ObjectRef &object)
{
    m_object = object;
    m_relations = std::make_unique<RelationService>(m_lookup->cluster(), object.namespaceName);
    // An owner kind met while building the tree starts an informer: the tree is printed once
    // every informer it reads has synced, which changed() tells after such a start.
    auto tryPrint = [this] {
        if (!m_done && m_relations->hasSynced()) {
            // Build once to start informers of owner kinds not watched yet; print when that
            // started none (or they synced).
            (void)m_relations->treeOf(m_object);
            if (m_relations->hasSynced()) {
                print();
            }
        }
    };
    connect(m_relations.get(), &RelationService::synced, this, tryPrint);
    connect(m_relations.get(), &RelationService::changed, this, tryPrint);
    QTimer::singleShot(m_target.request.timeout, this, [this] {
        if (!m_done) {
            m_err << "warning: not every informer synced in time: " << m_relations->watchedResources().join(u", "_s) << Qt::endl;
            print();
        }
    });
}

void TreeCommand::print()
{
    m_done = true;
    printTree(m_relations->treeOf(m_object), QDateTime::currentDateTimeUtc(), m_out);
    m_out.flush();
    Q_EMIT finished(0);
}

void TreeCommand::printTree(const RelationNode &root, const QDateTime &now, QTextStream &out)
{
    TablePrinter table({u"NAMESPACE"_s, u"NAME"_s, u"READY"_s, u"REASON"_s, u"AGE"_s});
    addRows(table, root, QString(), QString(), now);
    table.print(out);
}

} // namespace Cachescope
