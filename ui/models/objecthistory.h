#pragma once

#include "core/cache/kubeobject.h"
#include "core/cache/notification.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <deque>
#include <functional>
#include <list>

namespace Cachescope {

// ObjectHistory keeps, for every object an informer reported, its last versions as the
// notifications delivered them, and shows the versions of one chosen object (currentKey) as a
// table: time, type, resourceVersion, newest last.
//
// Contract: append() records a batch (NotificationBatcher's notificationsReady, in delivery
// order); each notification becomes one Entry of its (resource, key). A key keeps at most
// maxVersionsPerKey() entries, dropping its oldest; all keys together keep at most
// maxVersions() entries, evicting whole keys, least recently appended or shown first. The
// current key is evicted last. Rows of the current key are inserted and removed exactly
// (beginInsertRows/beginRemoveRows), never reset except when the current key changes.
// Thread: GUI thread (a model). Ownership: plain QObject parent. Cost: append() is O(batch)
// amortised; entries share their KubeObjects with the cache, so the memory held is that of
// the objects the cache has since replaced (bounded by maxVersions()).
class ObjectHistory final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ObjectHistory)

public:
    enum Column { TimeColumn, TypeColumn, ResourceVersionColumn, ColumnCount };

    // Entry is one recorded notification. For an Update, `oldObject` is the state the informer
    // replaced (the diff's left side); for a Delete, `object` is the last known state, invalid
    // when a tombstone knew nothing.
    struct Entry
    {
        QDateTime time;
        Notification::Type type = Notification::Type::Add;
        QString resourceVersion;
        KubeObject object;
        KubeObject oldObject;
        bool isInInitialList = false;
        bool tombstone = false;
    };

    static constexpr int DefaultMaxVersionsPerKey = 16;
    static constexpr int DefaultMaxVersions = 20000;

    explicit ObjectHistory(QObject *parent = nullptr);
    ~ObjectHistory() override;

    void setMaxVersionsPerKey(int count);
    [[nodiscard]] int maxVersionsPerKey() const { return m_maxPerKey; }
    // setMaxVersions() is the global cap; it is raised to maxVersionsPerKey() if lower.
    void setMaxVersions(int count);
    [[nodiscard]] int maxVersions() const { return m_maxVersions; }

    // setClock() replaces the source of entry times (tests); the default is the system clock.
    void setClock(std::function<QDateTime()> clock);

    // setCurrentKey() chooses the object the table shows; an empty key shows nothing.
    void setCurrentKey(const QString &resource, const QString &key);
    [[nodiscard]] QString currentResource() const { return m_currentResource; }
    [[nodiscard]] QString currentKey() const { return m_currentKey; }

    // entries() is the recorded history of one object, oldest first (empty if none or evicted).
    [[nodiscard]] QList<Entry> entries(const QString &resource, const QString &key) const;
    // entry() is the entry shown at `row` of the current key; row must be valid.
    [[nodiscard]] Entry entry(int row) const;
    [[nodiscard]] int keyCount() const { return static_cast<int>(m_keys.size()); }
    [[nodiscard]] int versionCount() const { return m_versionCount; }

    // isSecret() says whether an object's data must be masked: its kind is Secret, or (objects
    // in a list response carry no kind) it came from the core `secrets` resource, however the
    // resource is spelled ("secrets", "v1/secrets", "secrets.v1.").
    [[nodiscard]] static bool isSecret(const QString &kind, const QString &resource);
    // maskSecretValues() replaces every value under `data` and `stringData` with MaskedValue,
    // keeping the keys, so a view shows which keys exist and never what they hold.
    [[nodiscard]] static QJsonObject maskSecretValues(QJsonObject secret);
    static constexpr QStringView MaskedValue = u"••••••";

    // typeName() is how the UI names a notification's type ("Added", "Updated", "Deleted").
    [[nodiscard]] static QString typeName(Notification::Type type);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

public Q_SLOTS:
    // time stamps the entries (a recording's instant); invalid: the clock's now.
    void append(const QString &resource, const QList<Cachescope::Notification> &batch, const QDateTime &time = {});
    // clear() forgets every key (a relist or context switch): a model reset.
    void clear();

private:
    struct KeyHistory
    {
        std::deque<Entry> entries;
        std::list<QString>::iterator lruPosition;
    };

    [[nodiscard]] static QString compositeKey(const QString &resource, const QString &key);
    [[nodiscard]] bool isCurrent(const QString &composite) const;
    void touch(KeyHistory &history);
    void trimKey(const QString &composite, KeyHistory &history);
    void evict();

    QHash<QString, KeyHistory> m_keys;
    std::list<QString> m_lru; // least recently used first
    std::function<QDateTime()> m_clock;
    QString m_currentResource;
    QString m_currentKey;
    QString m_currentComposite;
    int m_maxPerKey = DefaultMaxVersionsPerKey;
    int m_maxVersions = DefaultMaxVersions;
    int m_versionCount = 0;
};

} // namespace Cachescope
