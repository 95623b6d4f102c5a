#pragma once

#include "core/cli/informerrequest.h"
#include "core/controller/controllersettings.h"
#include "core/controller/processfunctionparameters.h"
#include "core/kube/kubeconfig.h"
#include "core/workqueue/queuemetrics.h"

#include <QObject>
#include <QStringList>

#include <chrono>
#include <memory>

class QCommandLineParser;
class QTextStream;
class QTimer;

namespace Cachescope {

class Controller;
class FindingsStore;
class InformerSession;
class OwnerInformers;
class SharedIndexInformer;

// ControlCommand is `cachescope-cli control RESOURCE [-n NS | -A] --controller NAME
// [--param NAME=VALUE]... [--workers N] [--max-retries N] [--for DURATION]`: it runs a built-in
// controller headless on an informer — its own, synced through an InformerSession like `get`'s,
// or one the caller made and runs (synced or still syncing: the controller's handler receives
// the initial list either way). owner-references also gets informers of the usual owner kinds
// (ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs, ReplicationControllers,
// Nodes; those the server has) in the same namespace, synced before the controller starts.
// It runs the controller for the duration, then stops it (draining what is queued) and
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
        InformerRequest request; // for the session mode
        QString controller;
        QStringList parameters; // name=value
        OwnerLookup ownerLookup; // for owner-references
        ControllerSettings settings;
        std::chrono::milliseconds duration{std::chrono::seconds(10)};
    };

    // addOptions() registers --controller, --param, --workers and --max-retries (the CLI's
    // --for is shared with watch); fromParser() reads them with the informer options, checking
    // the controller and its parameters before anything connects.
    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);

    // Session mode: connects to the context and syncs options.request's informer itself.
    ControlCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    // On an informer of the caller's.
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
    void onSessionReady();
    void startOwnerInformers();
    void runController();
    void finish();
    void done(int exitCode);

    SharedIndexInformer *m_informer = nullptr; // not owned
    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<InformerSession> m_session; // session mode
    std::unique_ptr<Controller> m_controller;
    QTimer *m_timer = nullptr; // owned (child)
    OwnerInformers *m_owners = nullptr; // owned (child), for owner-references
    bool m_ended = false;
};

} // namespace Cachescope
