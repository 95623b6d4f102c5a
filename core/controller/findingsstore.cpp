#include "core/controller/findingsstore.h"

namespace Cachescope {

FindingsStore::FindingsStore(QObject *parent)
    : QObject(parent)
{
}

FindingsStore::~FindingsStore() = default;

void FindingsStore::setFindings(const QString &key, const QList<Finding> &findings)
{
    if (findings.isEmpty()) {
        remove(key);
        return;
    }
    {
        const std::lock_guard lock(m_mutex);
        const QList<Finding> old = m_findings.value(key);
        QList<Finding> merged = findings;
        bool same = old.size() == findings.size();
        for (qsizetype i = 0; i < merged.size(); ++i) {
            Finding &finding = merged[i];
            for (const Finding &before : old) {
                if (before.sameProblem(finding)) {
                    finding.time = before.time;
                    break;
                }
            }
            same = same && old.at(i).sameProblem(finding);
        }
        if (same) {
            // Resyncs re-process every object; an unchanged result must not wake the UI.
            return;
        }
        m_findingCount += merged.size() - old.size();
        m_findings.insert(key, merged);
    }
    bump();
}

void FindingsStore::remove(const QString &key)
{
    {
        const std::lock_guard lock(m_mutex);
        const auto it = m_findings.constFind(key);
        if (it == m_findings.cend()) {
            return;
        }
        m_findingCount -= it->size();
        m_findings.erase(it);
    }
    bump();
}

void FindingsStore::clear()
{
    {
        const std::lock_guard lock(m_mutex);
        if (m_findings.isEmpty()) {
            return;
        }
        m_findings.clear();
        m_findingCount = 0;
    }
    bump();
}

QList<Finding> FindingsStore::findings(const QString &key) const
{
    const std::lock_guard lock(m_mutex);
    return m_findings.value(key);
}

QHash<QString, QList<Finding>> FindingsStore::all() const
{
    const std::lock_guard lock(m_mutex);
    return m_findings;
}

qsizetype FindingsStore::keyCount() const
{
    const std::lock_guard lock(m_mutex);
    return m_findings.size();
}

qsizetype FindingsStore::findingCount() const
{
    const std::lock_guard lock(m_mutex);
    return m_findingCount;
}

void FindingsStore::bump()
{
    // Emitted outside the lock: a directly connected slot may read the store.
    Q_EMIT changed(++m_revision);
}

} // namespace Cachescope
