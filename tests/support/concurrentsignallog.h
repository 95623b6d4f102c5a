#pragma once

#include <QList>
#include <QMutex>
#include <QMutexLocker>
#include <QObject>

#include <tuple>

namespace CachescopeTest {

// ConcurrentSignalLog records a signal emitted on any number of threads at once. QSignalSpy
// cannot: it appends to its list on the emitting thread without a lock, and two workers emitting
// together corrupt the list (ASan saw its destructor free garbage in tst_controllersim with
// eight workers). Read it once the emitting threads are joined or quiet.
template<typename... Args>
class ConcurrentSignalLog
{
public:
    template<typename Sender, typename Signal>
    ConcurrentSignalLog(const Sender *sender, Signal signal)
        : m_connection(QObject::connect(
              sender, signal, sender, [this](Args... args) { record(std::tuple<Args...>(std::move(args)...)); }, Qt::DirectConnection))
    {
    }
    ~ConcurrentSignalLog() { QObject::disconnect(m_connection); }
    ConcurrentSignalLog(const ConcurrentSignalLog &) = delete;
    ConcurrentSignalLog &operator=(const ConcurrentSignalLog &) = delete;

    qsizetype size() const
    {
        QMutexLocker lock(&m_mutex);
        return m_calls.size();
    }
    QList<std::tuple<Args...>> calls() const
    {
        QMutexLocker lock(&m_mutex);
        return m_calls;
    }

private:
    void record(std::tuple<Args...> call)
    {
        QMutexLocker lock(&m_mutex);
        m_calls.append(std::move(call));
    }

    mutable QMutex m_mutex;
    QList<std::tuple<Args...>> m_calls;
    QMetaObject::Connection m_connection;
};

} // namespace CachescopeTest
