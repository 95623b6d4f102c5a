#pragma once

#include "core/controller/finding.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <mutex>

namespace Cachescope {

// FindingsStore is a controller's results table: for each object key (`ns/name`), the findings
// of the last successful pass over it. A key with no findings is absent, so an object that got
// fixed, or was deleted, leaves the table.
// setFindings() keeps the time of a finding that was already there (the same severity, reason
// and message), so a finding's time says since when the problem is known and a resync that
// finds the same problems changes nothing.
// Threads: every method is thread-safe (one mutex, held for a copy). changed() is emitted on the
// thread that made the change (a controller's worker): connect with a context object to get it
// queued to the receiver's thread, or poll revision(), which counts real changes only.
// Cost: O(findings of the key) per change; all() copies the table (implicitly shared lists).
class FindingsStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsStore)

public:
    explicit FindingsStore(QObject *parent = nullptr);
    ~FindingsStore() override;

    // setFindings() replaces what is known about key; an empty list removes the key.
    void setFindings(const QString &key, const QList<Finding> &findings);
    void remove(const QString &key);
    void clear();

    [[nodiscard]] QList<Finding> findings(const QString &key) const;
    [[nodiscard]] QHash<QString, QList<Finding>> all() const;
    [[nodiscard]] qsizetype keyCount() const;
    [[nodiscard]] qsizetype findingCount() const;
    // revision() starts at 0 and grows by one with every change of the content.
    [[nodiscard]] quint64 revision() const { return m_revision.load(); }

Q_SIGNALS:
    void changed(quint64 revision);

private:
    void bump(); // called with m_mutex released

    mutable std::mutex m_mutex;
    QHash<QString, QList<Finding>> m_findings;
    qsizetype m_findingCount = 0;
    std::atomic<quint64> m_revision{0};
};

} // namespace Cachescope
