#include "ui/models/objecthistory.h"

#include <QLocale>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ObjectHistory::ObjectHistory(QObject *parent)
    : QAbstractTableModel(parent)
    , m_clock([] { return QDateTime::currentDateTime(); })
{
}

ObjectHistory::~ObjectHistory() = default;

void ObjectHistory::setMaxVersionsPerKey(int count)
{
    m_maxPerKey = std::max(count, 1);
    m_maxVersions = std::max(m_maxVersions, m_maxPerKey);
    for (auto it = m_keys.begin(); it != m_keys.end(); ++it) {
        trimKey(it.key(), it.value());
    }
}

void ObjectHistory::setMaxVersions(int count)
{
    m_maxVersions = std::max(count, m_maxPerKey);
    evict();
}

void ObjectHistory::setClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

QString ObjectHistory::compositeKey(const QString &resource, const QString &key)
{
    // U+001F (unit separator) appears in neither resource names nor object keys.
    return resource + QChar(0x1f) + key;
}

bool ObjectHistory::isCurrent(const QString &composite) const
{
    return !m_currentComposite.isEmpty() && composite == m_currentComposite;
}

void ObjectHistory::setCurrentKey(const QString &resource, const QString &key)
{
    const QString composite = key.isEmpty() ? QString() : compositeKey(resource, key);
    if (composite == m_currentComposite) {
        return;
    }
    beginResetModel();
    m_currentResource = resource;
    m_currentKey = key;
    m_currentComposite = composite;
    const auto it = m_keys.find(composite);
    if (it != m_keys.end()) {
        touch(it.value());
    }
    endResetModel();
}

QList<ObjectHistory::Entry> ObjectHistory::entries(const QString &resource, const QString &key) const
{
    const auto it = m_keys.constFind(compositeKey(resource, key));
    if (it == m_keys.constEnd()) {
        return {};
    }
    return QList<Entry>(it->entries.cbegin(), it->entries.cend());
}

ObjectHistory::Entry ObjectHistory::entry(int row) const
{
    const auto it = m_keys.constFind(m_currentComposite);
    Q_ASSERT(it != m_keys.constEnd() && row >= 0 && row < static_cast<int>(it->entries.size()));
    return it->entries[static_cast<size_t>(row)];
}

QString ObjectHistory::typeName(Notification::Type type)
{
    switch (type) {
    case Notification::Type::Add:
        return tr("Added");
    case Notification::Type::Update:
        return tr("Updated");
    case Notification::Type::Delete:
        return tr("Deleted");
    }
    return {};
}

bool ObjectHistory::isSecret(const QString &kind, const QString &resource)
{
    if (kind == u"Secret"_s) {
        return true;
    }
    if (!kind.isEmpty()) {
        return false;
    }
    return resource.section(u'/', -1).section(u'.', 0, 0) == u"secrets"_s;
}

QJsonObject ObjectHistory::maskSecretValues(QJsonObject secret)
{
    for (const QString &field : {u"data"_s, u"stringData"_s}) {
        const auto it = secret.find(field);
        if (it == secret.end() || it->isNull()) {
            continue;
        }
        if (!it->isObject()) {
            // Not the map Kubernetes sends; whatever it is, it is not shown.
            *it = MaskedValue.toString();
            continue;
        }
        QJsonObject masked = it->toObject();
        for (auto value = masked.begin(); value != masked.end(); ++value) {
            *value = MaskedValue.toString();
        }
        *it = masked;
    }
    return secret;
}

void ObjectHistory::touch(KeyHistory &history)
{
    m_lru.splice(m_lru.end(), m_lru, history.lruPosition);
}

void ObjectHistory::trimKey(const QString &composite, KeyHistory &history)
{
    const int excess = static_cast<int>(history.entries.size()) - m_maxPerKey;
    if (excess <= 0) {
        return;
    }
    const bool current = isCurrent(composite);
    if (current) {
        beginRemoveRows({}, 0, excess - 1);
    }
    history.entries.erase(history.entries.begin(), history.entries.begin() + excess);
    m_versionCount -= excess;
    if (current) {
        endRemoveRows();
    }
}

void ObjectHistory::evict()
{
    while (m_versionCount > m_maxVersions && !m_lru.empty()) {
        auto victim = m_lru.begin();
        if (isCurrent(*victim) && m_lru.size() > 1) {
            victim = std::next(victim);
        }
        const auto it = m_keys.find(*victim);
        Q_ASSERT(it != m_keys.end());
        const auto size = static_cast<int>(it->entries.size());
        const bool current = isCurrent(*victim);
        if (current) {
            // Only the shown key is left and it alone is over the cap: drop its oldest versions
            // rather than the whole key the user is looking at.
            const int excess = std::min(size, m_versionCount - m_maxVersions);
            beginRemoveRows({}, 0, excess - 1);
            it->entries.erase(it->entries.begin(), it->entries.begin() + excess);
            m_versionCount -= excess;
            endRemoveRows();
            if (it->entries.empty()) {
                m_lru.erase(victim);
                m_keys.erase(it);
            }
            continue;
        }
        m_versionCount -= size;
        m_lru.erase(victim);
        m_keys.erase(it);
    }
}

void ObjectHistory::append(const QString &resource, const QList<Notification> &batch, const QDateTime &time)
{
    const QDateTime now = time.isValid() ? time : m_clock();
    for (const Notification &notification : batch) {
        const QString composite = compositeKey(resource, notification.key);
        auto it = m_keys.find(composite);
        if (it == m_keys.end()) {
            it = m_keys.insert(composite, KeyHistory{});
            it->lruPosition = m_lru.insert(m_lru.end(), composite);
        } else {
            touch(it.value());
        }

        Entry entry;
        entry.time = now;
        entry.type = notification.type;
        entry.object = notification.object;
        entry.resourceVersion = notification.object.resourceVersion();
        entry.isInInitialList = notification.isInInitialList;
        entry.tombstone = notification.tombstone;
        if (notification.type == Notification::Type::Update) {
            entry.oldObject = notification.oldObject;
            // A batcher that coalesces may hand over an update without its old state; the last
            // version we recorded is then the best left side for the diff.
            if (!entry.oldObject.isValid() && !it->entries.empty()) {
                entry.oldObject = it->entries.back().object;
            }
        }

        const bool current = isCurrent(composite);
        // Make room first, so the rows of the current key never exceed the cap in a view.
        if (static_cast<int>(it->entries.size()) >= m_maxPerKey) {
            const int excess = static_cast<int>(it->entries.size()) - m_maxPerKey + 1;
            if (current) {
                beginRemoveRows({}, 0, excess - 1);
            }
            it->entries.erase(it->entries.begin(), it->entries.begin() + excess);
            m_versionCount -= excess;
            if (current) {
                endRemoveRows();
            }
        }
        const auto row = static_cast<int>(it->entries.size());
        if (current) {
            beginInsertRows({}, row, row);
        }
        it->entries.push_back(std::move(entry));
        ++m_versionCount;
        if (current) {
            endInsertRows();
        }
        // Eviction erases other keys, which may move QHash's elements: `it` is not used after it.
        evict();
    }
}

void ObjectHistory::clear()
{
    beginResetModel();
    m_keys.clear();
    m_lru.clear();
    m_versionCount = 0;
    endResetModel();
}

int ObjectHistory::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid()) {
        return 0;
    }
    const auto it = m_keys.constFind(m_currentComposite);
    return it == m_keys.constEnd() ? 0 : static_cast<int>(it->entries.size());
}

int ObjectHistory::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ObjectHistory::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const auto it = m_keys.constFind(m_currentComposite);
    if (it == m_keys.constEnd()) {
        return {};
    }
    const Entry &entry = it->entries[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QLocale().toString(entry.time.time(), u"HH:mm:ss.zzz"_s);
        case TypeColumn:
            if (entry.tombstone) {
                return tr("Deleted (final state unknown)");
            }
            if (entry.isInInitialList) {
                return tr("Added (initial list)");
            }
            return typeName(entry.type);
        case ResourceVersionColumn:
            return entry.resourceVersion;
        }
        break;
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn) {
            return QLocale().toString(entry.time, QLocale::LongFormat);
        }
        break;
    }
    return {};
}

QVariant ObjectHistory::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case TypeColumn:
        return tr("Type");
    case ResourceVersionColumn:
        return tr("Resource version");
    }
    return {};
}

} // namespace Cachescope
