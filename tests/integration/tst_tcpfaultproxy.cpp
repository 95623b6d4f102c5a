// The TCP fault proxy of the integration tests, against an echo server on loopback: bytes pass
// unchanged, and each fault does to both sides what the real one does (a reset is an RST, not a
// FIN; a stall delivers late; a half-open connection stays open and silent; refused
// connections are reset while open ones keep working; random resets keep coming).
#include "tcpfaultproxy.h"
#include "testmain.h"

#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <cerrno>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Cachescope::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

// EchoServer answers every byte with itself and remembers its connections.
class EchoServer : public QTcpServer
{
public:
    EchoServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = nextPendingConnection()) {
                m_sockets.append(socket);
                connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->write(socket->readAll()); });
            }
        });
    }
    QList<QPointer<QTcpSocket>> m_sockets;
};

// readAtLeast() waits until `socket` has `bytes` bytes (bounded) and returns them.
QByteArray readAtLeast(QTcpSocket &socket, qsizetype bytes, int timeoutMs = 10000)
{
    QByteArray data;
    (void)QTest::qWaitFor(
        [&] {
            data += socket.readAll();
            return data.size() >= bytes;
        },
        timeoutMs);
    return data;
}

} // namespace

class TestTcpFaultProxy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void fault_data();
    void fault();

private:
    std::unique_ptr<EchoServer> m_echo;
    std::unique_ptr<TcpFaultProxy> m_proxy;

    void connectClient(QTcpSocket &client)
    {
        client.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        QVERIFY(client.waitForConnected(5000));
    }
    void echoes(QTcpSocket &client, const QByteArray &payload)
    {
        client.write(payload);
        QCOMPARE(readAtLeast(client, payload.size()), payload);
    }
};

void TestTcpFaultProxy::init()
{
    m_echo = std::make_unique<EchoServer>();
    QVERIFY(m_echo->listen(QHostAddress::LocalHost));
    m_proxy = std::make_unique<TcpFaultProxy>(m_echo->serverPort());
    QString error;
    QVERIFY2(m_proxy->start(&error), qPrintable(error));
    QVERIFY(m_proxy->port() != 0);
}

void TestTcpFaultProxy::cleanup()
{
    m_proxy.reset();
    m_echo.reset();
}

void TestTcpFaultProxy::fault_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("bytes pass through both ways unchanged") << u"none"_s;
    QTest::newRow("a reset aborts both sides with an RST") << u"reset"_s;
    QTest::newRow("resetOne resets the newest connection and leaves the others") << u"resetOne"_s;
    QTest::newRow("a stall holds the bytes and delivers them when it ends") << u"stall"_s;
    QTest::newRow("a half-open connection stays open, drops what is sent and never recovers") << u"halfOpen"_s;
    QTest::newRow("refusing resets new connections while open ones keep working") << u"refuse"_s;
    QTest::newRow("random resets keep coming at the seeded pace") << u"random"_s;
}

void TestTcpFaultProxy::fault()
{
    QFETCH(QString, mode);
    QByteArray payload(1024 * 1024 + 7, Qt::Uninitialized);
    QRandomGenerator random(3);
    for (char &byte : payload) {
        byte = char(random.bounded(256));
    }

    if (mode == u"none"_s) {
        QTcpSocket client;
        connectClient(client);
        echoes(client, payload);
        QTRY_COMPARE(m_proxy->counters().bytesToClient, qint64(payload.size()));
        QCOMPARE(m_proxy->counters().bytesToUpstream, qint64(payload.size()));
        QCOMPARE(m_proxy->counters().accepted, 1);
        QCOMPARE(m_proxy->counters().reset, 0);
    } else if (mode == u"reset"_s) {
        // A raw socket, because Qt reports an RST and a FIN alike (RemoteHostClosedError).
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(fd >= 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(m_proxy->port());
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address), 0);
        QCOMPARE(::send(fd, "ping", 4, 0), ssize_t(4));
        char buffer[16];
        ssize_t got = -1;
        QVERIFY(QTest::qWaitFor([&] { return (got = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT)) > 0; }, 10000));
        QCOMPARE(QByteArray(buffer, int(got)), "ping"_ba);
        QTRY_COMPARE(m_echo->m_sockets.size(), 1);
        QPointer<QTcpSocket> upstream = m_echo->m_sockets.constFirst();
        m_proxy->resetAll();
        int error = 0;
        QVERIFY(QTest::qWaitFor(
            [&] {
                got = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
                error = errno;
                return got == 0 || (got < 0 && error != EAGAIN && error != EWOULDBLOCK);
            },
            10000));
        ::close(fd);
        QCOMPARE(got, ssize_t(-1));
        QCOMPARE(error, ECONNRESET);
        // The server's side goes too.
        QTRY_VERIFY(!upstream || upstream->state() == QAbstractSocket::UnconnectedState);
        QCOMPARE(m_proxy->counters().reset, 1);
        QTRY_COMPARE(m_proxy->counters().open, 0);
    } else if (mode == u"resetOne"_s) {
        QTcpSocket first;
        QTcpSocket second;
        connectClient(first);
        echoes(first, "one"_ba);
        connectClient(second);
        echoes(second, "two"_ba);
        QSignalSpy secondClosed(&second, &QTcpSocket::disconnected);
        m_proxy->resetOne();
        QVERIFY(secondClosed.wait(10000));
        echoes(first, payload);
        QCOMPARE(first.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(m_proxy->counters().reset, 1);
        QCOMPARE(m_proxy->counters().open, 1);
    } else if (mode == u"stall"_s) {
        QTcpSocket client;
        connectClient(client);
        echoes(client, "before"_ba);
        m_proxy->stall(std::chrono::milliseconds(3000));
        client.write(payload);
        QTest::qWait(200);
        QCOMPARE(client.bytesAvailable(), qint64(0));
        // Delivered, whole and in order, when the stall ends.
        QCOMPARE(readAtLeast(client, payload.size(), 20000), payload);
        QCOMPARE(m_proxy->counters().reset, 0);
    } else if (mode == u"halfOpen"_s) {
        QTcpSocket client;
        connectClient(client);
        echoes(client, "before"_ba);
        QTRY_COMPARE(m_echo->m_sockets.size(), 1);
        QPointer<QTcpSocket> upstream = m_echo->m_sockets.constFirst();
        m_proxy->halfOpen();
        client.write("lost"_ba);
        // The bytes reach the proxy and vanish there, as on a dead path.
        QTRY_COMPARE(m_proxy->counters().bytesDropped, qint64(4));
        QTest::qWait(200);
        QCOMPARE(client.bytesAvailable(), qint64(0));
        QCOMPARE(client.state(), QAbstractSocket::ConnectedState);
        QVERIFY(upstream);
        QCOMPARE(upstream->state(), QAbstractSocket::ConnectedState);
        QCOMPARE(upstream->bytesAvailable(), qint64(0));
        // A new connection is not affected: the dead path was the old one.
        QTcpSocket fresh;
        connectClient(fresh);
        echoes(fresh, "fresh"_ba);
        // resume() ends stalls, not dead paths.
        m_proxy->resume();
        client.write("still lost"_ba);
        QTRY_COMPARE(m_proxy->counters().bytesDropped, qint64(14));
        QCOMPARE(client.state(), QAbstractSocket::ConnectedState);
        QCOMPARE(client.bytesAvailable(), qint64(0));
    } else if (mode == u"refuse"_s) {
        QTcpSocket open;
        connectClient(open);
        echoes(open, "open"_ba);
        m_proxy->refuse(true);
        QTcpSocket refused;
        QSignalSpy closed(&refused, &QTcpSocket::disconnected);
        QSignalSpy failed(&refused, &QTcpSocket::errorOccurred);
        refused.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        // The kernel accepts and the proxy resets at once: the client sees its connection end,
        // closed or reset (on a loaded machine, before it even saw it connected).
        QTRY_VERIFY_WITH_TIMEOUT(closed.count() + failed.count() > 0, 10000);
        QTRY_VERIFY(m_proxy->counters().refused >= 1); // Qt may try the refused connection more than once
        echoes(open, payload);
        m_proxy->refuse(false);
        QTcpSocket later;
        connectClient(later);
        echoes(later, "later"_ba);
    } else if (mode == u"random"_s) {
        m_proxy->startRandomResets(5, std::chrono::milliseconds(50), std::chrono::milliseconds(150));
        // A client that reconnects whenever it is reset, as an HTTP client does.
        QTcpSocket client;
        connect(&client, &QTcpSocket::disconnected, &client, [&] { client.connectToHost(QHostAddress::LocalHost, m_proxy->port()); });
        client.connectToHost(QHostAddress::LocalHost, m_proxy->port());
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy->counters().reset >= 3, 20000);
        m_proxy->stopRandomResets();
        client.disconnect();
        QVERIFY(m_proxy->counters().accepted >= 3);
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestTcpFaultProxy)
#include "tst_tcpfaultproxy.moc"
