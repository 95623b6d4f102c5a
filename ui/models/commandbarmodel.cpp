#include "ui/models/commandbarmodel.h"

#include <QAction>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

CommandBarModel::CommandBarModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

CommandBarModel::~CommandBarModel() = default;

void CommandBarModel::setActions(const QList<QAction *> &actions)
{
    m_actions.clear();
    for (QAction *action : actions) {
        m_actions.append(action);
    }
}

void CommandBarModel::setDiscovery(const DiscoveryResult &discovery)
{
    m_discovery = discovery;
}

void CommandBarModel::setContexts(const QStringList &contexts)
{
    m_contexts = contexts;
}

void CommandBarModel::setNamespaces(const QStringList &namespaces)
{
    m_namespaces = namespaces;
}

void CommandBarModel::setObjectKeys(const QStringList &keys)
{
    m_objectKeys = keys;
}

CommandBarModel::Match CommandBarModel::match(const QString &query, const QStringList &names)
{
    Match best = NoMatch;
    for (const QString &name : names) {
        if (name.compare(query, Qt::CaseInsensitive) == 0) {
            return Exact;
        }
        if (name.startsWith(query, Qt::CaseInsensitive)) {
            best = std::min(best, Prefix);
        } else if (name.contains(query, Qt::CaseInsensitive)) {
            best = std::min(best, Contains);
        }
    }
    return best;
}

void CommandBarModel::findKinds(const QString &text, const QString &namespaceName, QList<std::pair<Match, Entry>> &found) const
{
    // What kubectl makes of the text comes first.
    const auto resolved = m_discovery.resolve(text);
    const ApiResource *first = std::get_if<ApiResource>(&resolved);
    for (const ApiResource &resource : m_discovery.preferredResources()) {
        if (!resource.supports(u"list"_s) || resource.gvr.resource().contains(u'/')) {
            continue;
        }
        const bool isResolved = first != nullptr && first->gvr == resource.gvr;
        QStringList names{resource.gvr.resource(), resource.singularName, resource.kind};
        names += resource.shortNames;
        const Match how = isResolved ? Resolved : match(text, names);
        if (how == NoMatch) {
            continue;
        }
        Entry entry;
        entry.kind = Kind::Resource;
        entry.resource = resource;
        entry.namespaceName = namespaceName;
        entry.text = resource.gvr.group().isEmpty() ? resource.gvr.resource() : resource.gvr.resource() + u'.' + resource.gvr.group();
        QString detail = tr("Kind %1").arg(resource.kind);
        if (!resource.shortNames.isEmpty()) {
            detail += u" · "_s + resource.shortNames.join(u", "_s);
        }
        if (!namespaceName.isEmpty()) {
            detail += u" · "_s + tr("in %1").arg(namespaceName);
        }
        entry.detail = detail;
        found.append({how, entry});
    }
}

void CommandBarModel::setQuery(const QString &text)
{
    beginResetModel();
    m_query = text;
    m_rows.clear();
    QList<std::pair<Match, Entry>> found;
    const QString query = text.trimmed();
    if (query.startsWith(u':')) {
        // k9s: ":deploy", ":po -n shop".
        QStringList words = query.mid(1).split(u' ', Qt::SkipEmptyParts);
        QString namespaceName;
        if (const qsizetype flag = words.indexOf(u"-n"_s); flag >= 0 && flag + 1 < words.size()) {
            namespaceName = words.at(flag + 1);
            words.remove(flag, 2);
        }
        if (!words.isEmpty()) {
            findKinds(words.constFirst(), namespaceName, found);
        }
    } else if (!query.isEmpty()) {
        for (const QPointer<QAction> &action : std::as_const(m_actions)) {
            if (!action || !action->isEnabled() || action->isSeparator()) {
                continue;
            }
            const QString actionText = QString(action->text()).remove(u'&');
            if (const Match how = match(query, {actionText}); how != NoMatch) {
                Entry entry;
                entry.kind = Kind::Action;
                entry.text = actionText;
                entry.detail = action->shortcut().isEmpty() ? tr("Action") : tr("Action · %1").arg(action->shortcut().toString(QKeySequence::NativeText));
                entry.action = action;
                found.append({how, entry});
            }
        }
        findKinds(query, {}, found);
        const auto addNamed = [&](const QStringList &names, Kind kind, const QString &detail) {
            for (const QString &name : names) {
                if (const Match how = match(query, {name}); how != NoMatch) {
                    Entry entry;
                    entry.kind = kind;
                    entry.text = name;
                    entry.name = name;
                    entry.detail = detail;
                    found.append({how, entry});
                }
            }
        };
        addNamed(m_contexts, Kind::Context, tr("Context"));
        addNamed(m_namespaces, Kind::Namespace, tr("Namespace"));
    }
    std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (auto &[how, entry] : found) {
        m_rows.append(std::move(entry));
    }
    // Objects by name (the part after the namespace), best matches first, at most MaxObjects.
    if (!query.isEmpty() && !query.startsWith(u':')) {
        QList<std::pair<Match, QString>> objects;
        for (const QString &key : std::as_const(m_objectKeys)) {
            const QString name = key.mid(key.indexOf(u'/') + 1);
            if (const Match how = match(query, {name}); how != NoMatch) {
                objects.append({how, key});
            }
        }
        std::sort(objects.begin(), objects.end());
        for (qsizetype i = 0; i < std::min<qsizetype>(objects.size(), MaxObjects); ++i) {
            Entry entry;
            entry.kind = Kind::Object;
            entry.name = objects.at(i).second;
            entry.text = entry.name;
            entry.detail = tr("Object");
            m_rows.append(entry);
        }
    }
    endResetModel();
}

int CommandBarModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant CommandBarModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) {
        return {};
    }
    const Entry &entry = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return entry.text;
    case DetailRole:
    case Qt::ToolTipRole:
        return entry.detail;
    default:
        return {};
    }
}

} // namespace Cachescope
