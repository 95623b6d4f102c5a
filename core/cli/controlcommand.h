#pragma once

#include "core/controller/controllersettings.h"
#include "core/controller/processfunctionparameters.h"
#include "core/workqueue/queuemetrics.h"

#include <QObject>
#include <QStringList>

#include <chrono>
#include <memory>

class QTextStream;
class QTimer;

namespace Cachescope {

class Controller;
class FindingsStore;
class SharedIndexInformer;

// ControlCommand is `cachescope-cli control`: it runs a built-in controller headless on an
// informer the caller made and runs (synced or still syncing: the controller's handler receives
// the initial list either way), for a duration, then stops it (draining what is queued) and
// prints the findings as a table (NAMESPACE/NAME key, SEVERITY, REASON, MESSAGE, sorted by key)
// and client-go's workqueue metrics as they were when the duration ended (depth, adds, retries,
// queue latency and work duration p50/p99, unfinished work, longest running) with the
// controller's counts. A controller name or parameter that is wrong is an error on err and exit
// code 1, before anything runs.
// Asynchronous: start(), then finished(exitCode), emitted from the event loop. Lives on the
// thread of the informer's owner; its stop blocks that thread for the drain (fine in a CLI).
// Ownership: the informer is not owned and must outlive the command.
class ControlCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ControlCommand)

public:
    struct Options
    {
        QString controller;
        QStringList parameters; // name=value
        OwnerLookup ownerLookup; // for owner-references
        ControllerSettings settings;
        std::chrono::milliseconds duration{std::chrono::seconds(10)};
    };

    ControlCommand(SharedIndexInformer *informer, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~ControlCommand() override;

    void start();

    // controllersHelp() is the "Controllers:" section of `control --help`: each built-in with a
    // one-line description, then its parameters and their defaults.
    [[nodiscard]] static QString controllersHelp();
    static void printFindings(const FindingsStore &findings, QTextStream &out);
    static void printMetrics(const QueueMetrics &metrics, QTextStream &out);

    [[nodiscard]] Controller *controller() const { return m_controller.get(); }

Q_SIGNALS:
    void finished(int exitCode);

private:
    void finish();
    void done(int exitCode);

    SharedIndexInformer *m_informer; // not owned
    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<Controller> m_controller;
    QTimer *m_timer = nullptr; // owned (child)
};

} // namespace Cachescope
