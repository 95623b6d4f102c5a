#include "tcpfaultproxy.h"

#include <QList>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <sys/socket.h>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Test {

namespace {

// Bytes read from one side and not yet written to the other. Small, so that a slow side (or a
// stall) pushes back through TCP's flow control instead of piling up in the proxy.
constexpr qint64 maxPending = 256 * 1024;
constexpr qint64 readBuffer = 64 * 1024;

// abortWithReset() closes a socket with an RST instead of a FIN: SO_LINGER with a zero timeout
// makes close() drop the connection's state at once, which is what a crashed middlebox does.
void abortWithReset(QTcpSocket *socket)
{
    const qintptr fd = socket->socketDescriptor();
    if (fd >= 0) {
        const linger option{1, 0};
        ::setsockopt(int(fd), SOL_SOCKET, SO_LINGER, &option, sizeof option);
    }
    socket->abort();
}

} // namespace

// TcpFaultProxyEngine is the proxy's working half: it lives on the proxy's thread and owns the
// listening socket, both sockets of every connection, and the timers.
class TcpFaultProxyEngine final : public QObject
{
    Q_OBJECT

public:
    explicit TcpFaultProxyEngine(TcpFaultProxy *owner)
        : m_owner(owner)
    {
        connect(&m_server, &QTcpServer::newConnection, this, &TcpFaultProxyEngine::onNewConnection);
        m_stallTimer.setSingleShot(true);
        connect(&m_stallTimer, &QTimer::timeout, this, &TcpFaultProxyEngine::resume);
        m_randomTimer.setSingleShot(true);
        connect(&m_randomTimer, &QTimer::timeout, this, [this] {
            resetAll();
            armRandom();
        });
    }

    ~TcpFaultProxyEngine() override
    {
        m_randomTimer.stop();
        m_server.close();
        for (Link *link : std::as_const(m_links)) {
            link->client->disconnect(this);
            link->upstream->disconnect(this);
            link->client->abort();
            link->upstream->abort();
            delete link;
        }
    }

    bool listen(QString *error)
    {
        if (!m_server.listen(QHostAddress::LocalHost, 0)) {
            *error = m_server.errorString();
            return false;
        }
        return true;
    }
    quint16 port() const { return m_server.serverPort(); }

    void resetAll()
    {
        const QList<Link *> links = m_links;
        for (Link *link : links) {
            reset(link);
        }
    }

    void resetOne()
    {
        if (!m_links.isEmpty()) {
            reset(m_links.constLast());
        }
    }

    void stall(std::chrono::milliseconds duration)
    {
        m_stalled = true;
        m_stallTimer.start(duration);
    }

    void halfOpen()
    {
        for (Link *link : std::as_const(m_links)) {
            link->halfOpen = true;
        }
    }

    void resume()
    {
        m_stallTimer.stop();
        m_stalled = false;
        const QList<Link *> links = m_links;
        for (Link *link : links) {
            pumpBoth(link);
        }
    }

    void refuse(bool on) { m_refusing = on; }

    void startRandom(quint32 seed, std::chrono::milliseconds minInterval, std::chrono::milliseconds maxInterval)
    {
        m_random.seed(seed);
        m_minInterval = minInterval;
        m_maxInterval = std::max(minInterval, maxInterval);
        armRandom();
    }

    void stopRandom() { m_randomTimer.stop(); }

private:
    struct Link
    {
        QTcpSocket *client; // owned (child of the engine)
        QTcpSocket *upstream; // owned (child of the engine)
        bool halfOpen = false;
        bool closing = false;
        ~Link()
        {
            client->deleteLater();
            upstream->deleteLater();
        }
    };

    void armRandom()
    {
        const auto span = (m_maxInterval - m_minInterval).count();
        const auto delay = m_minInterval + std::chrono::milliseconds(span > 0 ? qint64(m_random.bounded(quint64(span) + 1)) : 0);
        m_randomTimer.start(delay);
    }

    void onNewConnection()
    {
        while (QTcpSocket *client = m_server.nextPendingConnection()) {
            client->setParent(this);
            ++m_owner->m_accepted;
            if (m_refusing) {
                ++m_owner->m_refused;
                abortWithReset(client);
                client->deleteLater();
                continue;
            }
            auto *link = new Link{client, new QTcpSocket(this)};
            client->setReadBufferSize(readBuffer);
            link->upstream->setReadBufferSize(readBuffer);
            m_links.append(link);
            ++m_owner->m_open;
            connect(client, &QTcpSocket::readyRead, this, [this, link] { pump(link, link->client, link->upstream); });
            connect(link->upstream, &QTcpSocket::readyRead, this, [this, link] { pump(link, link->upstream, link->client); });
            connect(client, &QTcpSocket::bytesWritten, this, [this, link] { pump(link, link->upstream, link->client); });
            connect(link->upstream, &QTcpSocket::bytesWritten, this, [this, link] { pump(link, link->client, link->upstream); });
            connect(link->upstream, &QTcpSocket::connected, this, [this, link] { pumpBoth(link); });
            connect(client, &QTcpSocket::disconnected, this, [this, link] { onClosed(link, link->client, link->upstream); });
            connect(link->upstream, &QTcpSocket::disconnected, this, [this, link] { onClosed(link, link->upstream, link->client); });
            connect(link->upstream, &QTcpSocket::errorOccurred, this, [this, link](QAbstractSocket::SocketError) {
                if (link->upstream->state() != QAbstractSocket::ConnectedState && m_links.contains(link) && !link->closing) {
                    // The upstream refused or could not be reached: the client learns it the
                    // way it would without the proxy, by a reset.
                    abortWithReset(link->client);
                    drop(link);
                }
            });
            link->upstream->connectToHost(QHostAddress::LocalHost, m_owner->m_upstreamPort);
        }
    }

    bool forwarding(const Link *link) const { return !m_stalled && !link->halfOpen; }

    void pumpBoth(Link *link)
    {
        pump(link, link->client, link->upstream);
        if (m_links.contains(link)) {
            pump(link, link->upstream, link->client);
        }
    }

    void pump(Link *link, QTcpSocket *from, QTcpSocket *to)
    {
        if (link->halfOpen) {
            m_owner->m_bytesDropped += from->readAll().size();
            return;
        }
        if (!forwarding(link) || to->state() != QAbstractSocket::ConnectedState) {
            return;
        }
        while (from->bytesAvailable() > 0 && to->bytesToWrite() < maxPending) {
            const QByteArray chunk = from->read(maxPending - to->bytesToWrite());
            if (chunk.isEmpty()) {
                break;
            }
            to->write(chunk);
            (from == link->client ? m_owner->m_bytesToUpstream : m_owner->m_bytesToClient) += chunk.size();
        }
    }

    void onClosed(Link *link, QTcpSocket *from, QTcpSocket *to)
    {
        if (!m_links.contains(link)) {
            return;
        }
        if (!forwarding(link)) {
            // A dead path carries no FIN either; the other side stays open until resume(),
            // a reset or the proxy's end. (A stall delivers the close when it ends.)
            if (m_stalled && !link->halfOpen) {
                QTimer::singleShot(m_stallTimer.remainingTime() + 1, this, [this, link, from, to] {
                    if (m_links.contains(link)) {
                        onClosed(link, from, to);
                    }
                });
            }
            return;
        }
        // Pass the close on once what was read is written, as a TCP proxy does.
        pump(link, from, to);
        link->closing = true;
        to->disconnectFromHost();
        if (to->state() == QAbstractSocket::UnconnectedState) {
            drop(link);
        } else {
            connect(to, &QTcpSocket::disconnected, this, [this, link] {
                if (m_links.contains(link)) {
                    drop(link);
                }
            });
        }
    }

    void reset(Link *link)
    {
        link->closing = true;
        link->client->disconnect(this);
        link->upstream->disconnect(this);
        abortWithReset(link->client);
        abortWithReset(link->upstream);
        ++m_owner->m_reset;
        drop(link);
    }

    void drop(Link *link)
    {
        if (m_links.removeOne(link)) {
            link->client->disconnect(this);
            link->upstream->disconnect(this);
            --m_owner->m_open;
            delete link;
        }
    }

    TcpFaultProxy *m_owner; // not owned: it owns this engine
    QTcpServer m_server{this};
    QTimer m_stallTimer{this};
    QTimer m_randomTimer{this};
    QList<Link *> m_links; // owned
    bool m_stalled = false;
    bool m_refusing = false;
    QRandomGenerator m_random;
    std::chrono::milliseconds m_minInterval{1000};
    std::chrono::milliseconds m_maxInterval{1000};
};

TcpFaultProxy::TcpFaultProxy(quint16 upstreamPort, QObject *parent)
    : QObject(parent)
    , m_upstreamPort(upstreamPort)
    , m_thread(new QThread)
{
    m_thread->setObjectName(u"tcp fault proxy"_s);
    m_engine = new TcpFaultProxyEngine(this);
    m_engine->moveToThread(m_thread);
    m_thread->start();
}

TcpFaultProxy::~TcpFaultProxy()
{
    QMetaObject::invokeMethod(
        m_engine, [this] { delete m_engine; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

bool TcpFaultProxy::start(QString *error)
{
    QString why;
    bool ok = false;
    QMetaObject::invokeMethod(
        m_engine,
        [&] {
            ok = m_engine->listen(&why);
            m_port = m_engine->port();
        },
        Qt::BlockingQueuedConnection);
    if (!ok && error) {
        *error = u"the fault proxy cannot listen: "_s + why;
    }
    return ok;
}

void TcpFaultProxy::resetAll()
{
    QMetaObject::invokeMethod(m_engine, &TcpFaultProxyEngine::resetAll, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::resetOne()
{
    QMetaObject::invokeMethod(m_engine, &TcpFaultProxyEngine::resetOne, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::stall(std::chrono::milliseconds duration)
{
    QMetaObject::invokeMethod(
        m_engine, [this, duration] { m_engine->stall(duration); }, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::halfOpen()
{
    QMetaObject::invokeMethod(m_engine, &TcpFaultProxyEngine::halfOpen, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::resume()
{
    QMetaObject::invokeMethod(m_engine, &TcpFaultProxyEngine::resume, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::refuse(bool on)
{
    QMetaObject::invokeMethod(
        m_engine, [this, on] { m_engine->refuse(on); }, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::startRandomResets(quint32 seed, std::chrono::milliseconds minInterval, std::chrono::milliseconds maxInterval)
{
    QMetaObject::invokeMethod(
        m_engine, [=, this] { m_engine->startRandom(seed, minInterval, maxInterval); }, Qt::BlockingQueuedConnection);
}

void TcpFaultProxy::stopRandomResets()
{
    QMetaObject::invokeMethod(m_engine, &TcpFaultProxyEngine::stopRandom, Qt::BlockingQueuedConnection);
}

TcpFaultProxy::Counters TcpFaultProxy::counters() const
{
    Counters counters;
    counters.accepted = m_accepted.load();
    counters.refused = m_refused.load();
    counters.reset = m_reset.load();
    counters.open = m_open.load();
    counters.bytesToUpstream = m_bytesToUpstream.load();
    counters.bytesToClient = m_bytesToClient.load();
    counters.bytesDropped = m_bytesDropped.load();
    return counters;
}

} // namespace Cachescope::Test

#include "tcpfaultproxy.moc"
