#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <array>
#include <optional>
#include <random>

namespace Cachescope::Sim {

// FaultPlan decides which requests the simulator sabotages, deterministically for a seed: the
// same seed and the same sequence of requests yield the same faults. Each fault has a
// probability per eligible request; injectNext() forces a fault onto the next eligible requests
// regardless of chance, which is what tests use to make each fault happen exactly when wanted.
//
//   drop        the connection is closed without a response (lists, gets, watches)
//   truncate    a watch frame (or a list body) is cut in the middle and the connection closed
//   gone        a watch answers a single ERROR event carrying a 410 Expired Status
//   throttle    429 TooManyRequests with a Retry-After header (seconds: retryAfter)
//   error       a 5xx Status (errorCode, 500 or 503)
//   latency     the response starts latencyMs later (independent of the others)
//   stall       a watch stays open but never sends anything again
//   restart     every restartIntervalMs the server drops every connection and forgets its watch
//               history, as a restarted apiserver does (old resourceVersions then get 410)
//
// The faults above act on one request: over HTTP/2 only on its stream (drop and truncate reset
// the stream). These act on the whole TCP connection under it, and over HTTP/2 on every stream
// of its session at once (lists, gets, watches):
//
//   reset       the connection is reset (TCP RST): before the answer of a list or get, right
//               after the first bytes of a watch (mid-stream); every stream on it dies
//   halfopen    the connection goes silent in both directions and stays open (a dead NAT or VPN
//               path): before the answer of a list or get, after the first bytes of a watch;
//               the client must notice by itself (the server gives the socket up after 5 min)
//   goaway      HTTP/2: GOAWAY with the streams in flight, which finish; those still streaming
//               after the grace (goAwayGraceMs) are ended and the connection closed, as an
//               apiserver shutting down does. HTTP/1.1: `Connection: close` and the connection
//               closed after the response (a watch ended after the grace)
//
// Spec (`--faults`): comma-separated items `drop=P`, `truncate=P`, `gone=P`,
// `throttle=P[:RETRY_AFTER_S]`, `error=P[:CODE]`, `latency=P:MS`, `stall=P`, `restart=SECONDS`,
// `reset=P`, `halfopen=P`, `goaway=P[:GRACE_MS]`, P in [0,1].
// Example: `drop=0.02,throttle=0.05:1,latency=0.1:200,restart=30,reset=0.01`.
//
// It also keeps a short log of the last requests it decided on (and of forced faults handed
// back), so that a test waiting for a fault that never comes can print what the server saw.
//
// Thread: every method is thread-safe (a mutex); tests configure it from their thread while the
// server thread draws decisions. Cost: one PRNG draw per eligible request, and one short string
// in a bounded log.
class FaultPlan
{
    Q_DISABLE_COPY_MOVE(FaultPlan)
public:
    enum class Fault { Drop, Truncate, Gone, Throttle, ServerError, Latency, Stall, Restart, Reset, HalfOpen, GoAway };
    static constexpr int FaultCount = 11;
    enum class RequestKind { List, Get, Watch };

    struct Decision
    {
        std::optional<Fault> fault; // never Latency, Restart or a connection fault
        // Reset, HalfOpen or GoAway: drawn like the others (one fault per request), kept apart
        // because the request is still served, over a connection that the fault then acts on.
        std::optional<Fault> connectionFault;
        int goAwayGraceMs = 1000;
        int latencyMs = 0;
        int retryAfterSeconds = 1;
        int errorCode = 500;
        bool forced = false; // fault came from injectNext(), not from chance
    };

    explicit FaultPlan(quint64 seed = 1);

    // Replaces the rules with those of spec; on error keeps the old ones and sets *error.
    [[nodiscard]] bool setSpec(const QString &spec, QString *error = nullptr);
    [[nodiscard]] QString spec() const;
    void reseed(quint64 seed);
    void clear();

    void setProbability(Fault fault, double probability);
    [[nodiscard]] double probability(Fault fault) const;
    void setLatencyMs(int ms);
    void setRetryAfterSeconds(int seconds);
    void setErrorCode(int code);
    void setGoAwayGraceMs(int ms);
    void setRestartIntervalMs(int ms);
    [[nodiscard]] int restartIntervalMs() const;

    // Forces fault onto the next `count` requests it applies to (Latency: the next count requests
    // of any kind; Restart: see SimCluster::restart()).
    void injectNext(Fault fault, int count = 1);

    // The server's side: one call per eligible request; target (method and path) is only logged.
    [[nodiscard]] Decision decide(RequestKind kind, const QString &target = {});
    // release() hands a forced fault back when the request it was drawn for ended before the
    // fault could be applied (an error answer, a closed connection), so that the next eligible
    // request gets it: injectNext() promises a fault that happens, not one that is spent.
    // Connection faults are never handed back: they are applied as soon as the request is
    // served, whatever its answer.
    void release(const Decision &decision, const QString &why);
    // Counts faults that actually happened (the server reports them, so tests can wait on them).
    void recordInjected(Fault fault);
    [[nodiscard]] int injectedCount(Fault fault) const;
    // The last requests decided on (oldest first): "seconds kind target -> fault", for test
    // diagnostics.
    [[nodiscard]] QStringList recentRequests() const;

    [[nodiscard]] static bool appliesTo(Fault fault, RequestKind kind);
    [[nodiscard]] static bool isConnectionFault(Fault fault);
    [[nodiscard]] static QString name(Fault fault);
    [[nodiscard]] static std::optional<Fault> fromName(const QString &name);

private:
    void log(const QString &line); // m_mutex held

    static constexpr qsizetype LogSize = 64;
    mutable QMutex m_mutex;
    QElapsedTimer m_clock;
    QStringList m_log; // ring of LogSize lines, m_logNext is the oldest once full
    qsizetype m_logNext = 0;
    std::mt19937_64 m_random;
    std::array<double, FaultCount> m_probability{};
    std::array<int, FaultCount> m_forced{};
    std::array<int, FaultCount> m_injected{};
    int m_latencyMs = 100;
    int m_retryAfterSeconds = 1;
    int m_errorCode = 500;
    int m_goAwayGraceMs = 1000;
    int m_restartIntervalMs = 0;
};

} // namespace Cachescope::Sim
