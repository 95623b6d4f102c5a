#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <chrono>

class QThread;

namespace Cachescope::Test {

class TcpFaultProxyEngine;

// TcpFaultProxy is a TCP proxy for tests that breaks connections the way networks do. It
// listens on 127.0.0.1 (an ephemeral port), opens one upstream connection to
// 127.0.0.1:upstreamPort for each client connection and copies bytes both ways without reading
// them, so TLS passes through untouched and HTTP/1.1 and HTTP/2 behave alike under it.
//
// Faults, on command or at random:
// - resetAll() / resetOne(): both sides of a connection are aborted with a TCP RST (SO_LINGER 0),
//   as a proxy, load balancer or NAT that drops its state does;
// - stall(ms): no byte moves on the open connections for that long, then everything that
//   waited is delivered (a congested or flapping path); TCP's flow control applies meanwhile;
// - halfOpen(): the open connections stop forwarding for good while both sockets stay open
//   (a dead NAT or VPN path: no FIN, no RST, just silence); what either side sends on them
//   is read and dropped (counted in bytesDropped), as the dead path drops packets, so a
//   request written there is gone; new connections work normally;
// - resume(): ends a stall (half-open connections stay dead until reset);
// - refuse(true): new connections are accepted and reset at once (the client sees its
//   connection reset before TLS), until refuse(false);
// - startRandomResets(seed, min, max): resetAll() at seeded random intervals in [min, max].
//
// Thread: the proxy forwards on a QThread of its own (so a test thread that waits in
// QTest::qWait or a blocking call never stalls the bytes by accident); the public methods are
// called from the thread that made the proxy and return once the command took effect. The
// counters may be read from any thread. Loopback only; everything stops with the destructor.
class TcpFaultProxy final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TcpFaultProxy)

public:
    explicit TcpFaultProxy(quint16 upstreamPort, QObject *parent = nullptr);
    ~TcpFaultProxy() override;

    // start() begins listening; false (and why in *error) when it cannot.
    bool start(QString *error = nullptr);
    quint16 port() const { return m_port; }

    void resetAll();
    // resetOne() resets the connection accepted last (the one most likely carrying traffic).
    void resetOne();
    void stall(std::chrono::milliseconds duration);
    void halfOpen();
    void resume();
    void refuse(bool on);
    void startRandomResets(quint32 seed, std::chrono::milliseconds minInterval, std::chrono::milliseconds maxInterval);
    void stopRandomResets();

    struct Counters
    {
        int accepted = 0; // client connections accepted (refused ones included)
        int refused = 0; // reset at once because refuse(true) was on
        int reset = 0; // connections reset by resetAll/resetOne/random resets
        int open = 0; // connections open now
        qint64 bytesToUpstream = 0;
        qint64 bytesToClient = 0;
        qint64 bytesDropped = 0; // sent on half-open connections
    };
    [[nodiscard]] Counters counters() const;

private:
    friend class TcpFaultProxyEngine;

    quint16 m_upstreamPort;
    quint16 m_port = 0;
    QThread *m_thread = nullptr; // owned
    TcpFaultProxyEngine *m_engine = nullptr; // owned, lives on m_thread, deleted there
    std::atomic<int> m_accepted{0};
    std::atomic<int> m_refused{0};
    std::atomic<int> m_reset{0};
    std::atomic<int> m_open{0};
    std::atomic<qint64> m_bytesToUpstream{0};
    std::atomic<qint64> m_bytesToClient{0};
    std::atomic<qint64> m_bytesDropped{0};
};

} // namespace Cachescope::Test
