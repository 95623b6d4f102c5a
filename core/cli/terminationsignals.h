#pragma once

#include <QObject>

class QSocketNotifier;

namespace Cachescope {

// TerminationSignals turns SIGINT and SIGTERM into a Qt signal on the thread that made it, so a
// command can finish cleanly (write its dump, print its summary) instead of dying mid-write.
// The handler only writes a byte to a socket pair (async-signal-safe); the notifier reads it.
// One instance per process at a time; it restores the default dispositions when destroyed.
class TerminationSignals final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TerminationSignals)

public:
    explicit TerminationSignals(QObject *parent = nullptr);
    ~TerminationSignals() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr; // owned (child)
};

} // namespace Cachescope
