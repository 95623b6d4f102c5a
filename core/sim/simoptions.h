#pragma once

#include <QHostAddress>
#include <QString>

#include <optional>

class QCommandLineParser;

namespace Cachescope::Sim {

// SimOptions configures a simulated cluster, the same for the `cachescope-sim` command line and
// for SimCluster in-process (the app's --demo, tests). A plain value; the defaults make a small
// TLS cluster on an ephemeral loopback port.
struct SimOptions
{
    QHostAddress address = QHostAddress::LocalHost;
    quint16 port = 0; // 0: ephemeral
    bool tls = true;
    // The serving certificate, for the TLS failure tests: a valid one, one that expired a day ago,
    // or one naming only CertificateAuthority::OtherServingName (only tls-server-name lets a client in).
    enum class ServingCertificate { Valid, Expired, WrongName };
    ServingCertificate servingCertificate = ServingCertificate::Valid;
    bool http1Only = false; // no HTTP/2 (neither h2 by ALPN nor h2c), for comparison
    QString kubeconfigOut; // empty: a temporary file, removed when the cluster stops
    // The kubeconfig's one context, with the token, when set (a recording the app opens is named
    // after what it recorded); empty: the contexts sim-token (current), sim-cert and sim-restricted.
    QString contextName;
    int namespaces = 3;
    int nodes = 3;
    int pods = 30;
    double churn = 0; // changes per second
    qsizetype history = 10000; // watch events kept for resumption, at least
    // Events younger than this are kept too, as the apiserver's watch cache keeps ~75 s; 0 keeps
    // exactly `history` events (tests that want 410 after a few writes).
    int historyWindowMs = 75000;
    QString faults; // FaultPlan spec
    quint64 seed = 1;
    // Lines a second each container's log writes once started (at most 500); 0: its image's pace
    // (a web server one a second, a worker one every 2.5 s).
    double logLinesPerSecond = 0;
    int bookmarkIntervalMs = 5000;
    int continueTtlMs = 5 * 60 * 1000;
    qint64 watchBufferLimit = 64 * 1024 * 1024;
    QString token; // empty: a random one
    // A recording (core/record) served read-only instead of a generated workload: its state at
    // replayAt (RFC 3339 or +OFFSET; empty: its start), then its events at replaySpeed × the
    // recorded pace (RecordingFeed). Clients' writes get 405 MethodNotAllowed.
    QString replay;
    QString replayAt;
    double replaySpeed = 1;
    // Serve the state at replayAt and hold it, no recorded event following: a paused time bar
    // (RecordingPlayback; in-process only).
    bool replayPaused = false;

    // forDemo() is the cluster the app's --demo starts in-process: `pods` pods over six namespaces,
    // a node for every hundred pods (at least three), changing `churn` times a second.
    [[nodiscard]] static SimOptions forDemo(int pods, double churn);

    // Registers --listen, --tls, --plain, --serving-certificate, --http1-only, --kubeconfig-out, --namespaces, --nodes, --pods,
    // --churn, --history, --history-window, --faults, --seed, --log-rate, --replay, --at, --speed (and the finer --bookmark-interval, --continue-ttl).
    static void addOptions(QCommandLineParser &parser);
    // Reads them back; nothing and *error when a value does not parse.
    [[nodiscard]] static std::optional<SimOptions> fromParser(const QCommandLineParser &parser, QString *error);
};

} // namespace Cachescope::Sim
