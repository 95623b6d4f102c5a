#pragma once

#include "core/kube/discoveryresult.h"

#include <QAbstractListModel>
#include <QList>
#include <QPointer>
#include <QStringList>

class QAction;

namespace Cachescope {

// CommandBarModel is what the command bar finds for what the user types: the window's actions,
// the cluster's resource kinds (by plural, singular, kind and short name, resolved as kubectl
// resolves them: "po", "deploy", "cm", "deployments.apps"), the kubeconfig's contexts, the
// cluster's namespaces and the objects of the shown informer by name. Rows are ranked: what
// kubectl would resolve the text to first, then names that start with it, then names that
// contain it (case-insensitively); objects, the most numerous, come last and at most
// MaxObjects of them. A text starting with ':' asks for a kind only, as k9s does
// (":deploy", ":po -n shop": the namespace goes with it).
// Thread: GUI. Sources are plain values set by the owner, except the objects, read through a
// function when the query changes (so 100k keys are scanned only when someone types).
class CommandBarModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CommandBarModel)

public:
    enum class Kind { Action, Resource, Context, Namespace, Object };
    Q_ENUM(Kind)

    // Entry is one row: what it is, what it shows and what choosing it does.
    struct Entry
    {
        Kind kind = Kind::Action;
        QString text;
        QString detail; // the kind of thing, and e.g. a resource's group or short names
        QPointer<QAction> action; // Kind::Action
        ApiResource resource; // Kind::Resource
        QString name; // Kind::Context, Namespace and Object (the object's key, ns/name)
        QString namespaceName; // Kind::Resource chosen with "-n NS"
    };

    static constexpr int MaxObjects = 50;

    explicit CommandBarModel(QObject *parent = nullptr);
    ~CommandBarModel() override;

    void setActions(const QList<QAction *> &actions);
    void setDiscovery(const DiscoveryResult &discovery);
    void setContexts(const QStringList &contexts);
    void setNamespaces(const QStringList &namespaces);
    // setObjectKeys() gives the shown informer's keys (ns/name or name), listed once when the bar
    // opens rather than on every keystroke.
    void setObjectKeys(const QStringList &keys);

    // setQuery() finds the rows for text (a model reset).
    void setQuery(const QString &text);
    [[nodiscard]] QString query() const { return m_query; }
    [[nodiscard]] const Entry &entry(int row) const { return m_rows.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    // DetailRole is the entry's detail text.
    static constexpr int DetailRole = Qt::UserRole + 1;

private:
    // Match ranks how a candidate matches the query: lower is better, none when it does not.
    enum Match { Resolved = 0, Exact = 1, Prefix = 2, Contains = 3, NoMatch = 4 };
    [[nodiscard]] static Match match(const QString &query, const QStringList &names);
    void findKinds(const QString &text, const QString &namespaceName, QList<std::pair<Match, Entry>> &found) const;

    QList<QPointer<QAction>> m_actions;
    DiscoveryResult m_discovery;
    QStringList m_contexts;
    QStringList m_namespaces;
    QStringList m_objectKeys;
    QString m_query;
    QList<Entry> m_rows;
};

} // namespace Cachescope
