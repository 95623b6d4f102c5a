// bench_sim: throughput of the simulated API server on loopback (plain HTTP), the figures the
// simulator must reach so that it is never a client benchmark's bottleneck.
//   bench_sim [PODS] [WATCHERS] [CHANGES]     defaults: 100000 100 5000
// Prints: populate time (wall and CPU, which a loaded machine does not inflate), resident memory
// per pod after populating (the RSS delta over the pods, every other object of the cluster
// included) beside a pod's JSON size, a full list, a paginated list (limit 500), a streaming
// list over a watch (sendInitialEvents), and live fan-out of churn to many watchers. Lists and the
// streaming list are read by a lean client (one recv() into a reused buffer, nothing kept), and
// each also reports the server thread's CPU time, so that the figure is the server's and not the
// client's in the same process or a loaded machine's.
#include "core/sim/simcluster.h"
#include "core/util/processmemory.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

namespace {

// A blocking HTTP/1.1 client just good enough for the simulator's responses.
class RawClient
{
public:
    RawClient(quint16 port, const QByteArray &token)
        : m_token(token)
    {
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_socket.waitForConnected(5000);
    }

    void send(const QByteArray &path)
    {
        m_socket.write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_token + "\r\nAccept: application/json\r\n\r\n");
    }

    void sendRaw(const QByteArray &request) { m_socket.write(request); }

    // Reads one complete response; returns its body size, or -1. Parses with an offset into the
    // buffer, so a 400 MiB chunked list costs linear time.
    qint64 readResponse(QByteArray *bodyOut = nullptr)
    {
        qsizetype at = 0;
        qsizetype headEnd;
        while ((headEnd = m_buffer.indexOf("\r\n\r\n")) < 0) {
            if (!fill())
                return -1;
        }
        const QByteArray head = m_buffer.left(headEnd).toLower();
        at = headEnd + 4;
        QByteArray body;
        qint64 size = 0;
        if (head.contains("transfer-encoding: chunked")) {
            for (;;) {
                qsizetype eol;
                while ((eol = m_buffer.indexOf("\r\n", at)) < 0) {
                    if (!fill())
                        return -1;
                }
                const qint64 chunk = m_buffer.mid(at, eol - at).toLongLong(nullptr, 16);
                while (m_buffer.size() < eol + 2 + chunk + 2) {
                    if (!fill())
                        return -1;
                }
                if (bodyOut)
                    body += m_buffer.mid(eol + 2, chunk);
                size += chunk;
                at = eol + 2 + chunk + 2;
                if (chunk == 0)
                    break;
                // Drop what is consumed now and then, not at every chunk: a megabyte stays in the
                // cache, where a buffer of tens of megabytes cost the client more than the
                // server spent serving.
                if (at > (1 << 20)) {
                    m_buffer.remove(0, at);
                    at = 0;
                }
            }
        } else {
            const qsizetype lengthAt = head.indexOf("content-length: ");
            const qint64 length = head.mid(lengthAt + 16, head.indexOf("\r\n", lengthAt) - lengthAt - 16).toLongLong();
            while (m_buffer.size() < at + length) {
                if (!fill())
                    return -1;
            }
            if (bodyOut)
                body = m_buffer.mid(at, length);
            size = length;
            at += length;
        }
        m_buffer.remove(0, at);
        if (bodyOut)
            *bodyOut = body;
        return size;
    }

    QTcpSocket &socket() { return m_socket; }

private:
    bool fill()
    {
        if (!m_socket.waitForReadyRead(30000))
            return false;
        m_buffer += m_socket.readAll();
        return true;
    }

    QTcpSocket m_socket;
    QByteArray m_token;
    QByteArray m_buffer;
};

// LeanClient reads a response as a plain socket: recv() into one reused buffer and the chunked
// framing parsed in place, so that reading costs the kernel's copy and little else. The Qt
// client above copied every read twice and allocated a buffer per read: at 100k pods it spent
// more than the server it measured.
class LeanClient
{
    Q_DISABLE_COPY_MOVE(LeanClient)
public:
    LeanClient(quint16 port, const QByteArray &token)
        : m_token(token)
        , m_buffer(4 << 20)
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_port = htons(port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
            ::close(m_fd);
            m_fd = -1;
        }
    }
    ~LeanClient()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }

    bool send(const QByteArray &path)
    {
        const QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + m_token + "\r\nAccept: application/json\r\n\r\n";
        qsizetype sent = 0;
        while (sent < request.size()) {
            const ssize_t n = ::send(m_fd, request.constData() + sent, size_t(request.size() - sent), MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += n;
        }
        return true;
    }

    // Reads one response (chunked, or a small one with a Content-Length); returns its body size, or -1. With bodyOut the body is kept;
    // with `until` the read stops at the first chunk holding it (a streaming list's end
    // bookmark). `count` counts a pattern in the body, across reads.
    qint64 readChunked(QByteArray *bodyOut = nullptr, QByteArrayView until = {}, QByteArrayView pattern = {}, qint64 *count = nullptr)
    {
        qsizetype head;
        while ((head = find("\r\n\r\n")) < 0) {
            if (!fill())
                return -1;
        }
        const QByteArray headers = QByteArrayView(m_buffer.data() + m_begin, head).toByteArray().toLower();
        m_begin += head + 4;
        if (const qsizetype at = headers.indexOf("content-length: "); at >= 0) {
            // A small page comes in one piece.
            qint64 length = headers.mid(at + 16, headers.indexOf("\r\n", at) - at - 16).toLongLong();
            const qint64 size = length;
            while (length > 0) {
                if (m_begin == m_end && !fill())
                    return -1;
                const qsizetype piece = qsizetype(qMin<qint64>(length, m_end - m_begin));
                if (bodyOut)
                    bodyOut->append(m_buffer.data() + m_begin, piece);
                m_begin += piece;
                length -= piece;
            }
            return size;
        }
        qint64 size = 0;
        QByteArray patternTail;
        QByteArray untilTail;
        for (;;) {
            qsizetype eol;
            while ((eol = find("\r\n")) < 0) {
                if (!fill())
                    return -1;
            }
            qint64 chunk = QByteArrayView(m_buffer.data() + m_begin, eol).toLongLong(nullptr, 16);
            m_begin += eol + 2;
            if (chunk == 0)
                break;
            size += chunk;
            bool found = false;
            while (chunk > 0) {
                if (m_begin == m_end && !fill())
                    return -1;
                const qsizetype piece = qsizetype(qMin<qint64>(chunk, m_end - m_begin));
                const QByteArrayView bytes(m_buffer.data() + m_begin, piece);
                if (bodyOut)
                    bodyOut->append(bytes);
                // An occurrence across two pieces lies in the junction of the previous piece's
                // last size-1 bytes and this one's first size-1; neither holds a whole one.
                if (count && !pattern.isEmpty()) {
                    *count += bytes.count(pattern) + junction(patternTail, bytes, pattern.size() - 1).count(pattern);
                    patternTail = bytes.last(qMin(piece, pattern.size() - 1)).toByteArray();
                }
                if (!until.isEmpty()) {
                    found = found || bytes.contains(until) || junction(untilTail, bytes, until.size() - 1).contains(until);
                    untilTail = bytes.last(qMin(piece, until.size() - 1)).toByteArray();
                }
                m_begin += piece;
                chunk -= piece;
            }
            while (find("\r\n") != 0) {
                if (!fill())
                    return -1;
            }
            m_begin += 2;
            if (found)
                return size;
        }
        while (find("\r\n") != 0) {
            if (!fill())
                return -1;
        }
        m_begin += 2;
        return size;
    }

private:
    static QByteArray junction(const QByteArray &tail, QByteArrayView bytes, qsizetype size)
    {
        return tail.right(size) + bytes.first(qMin(bytes.size(), size)).toByteArray();
    }
    qsizetype find(QByteArrayView what) const
    {
        const qsizetype at = QByteArrayView(m_buffer.data() + m_begin, m_end - m_begin).indexOf(what);
        return at;
    }
    bool fill()
    {
        if (m_begin == m_end) {
            m_begin = m_end = 0;
        } else if (m_end == qsizetype(m_buffer.size())) {
            std::memmove(m_buffer.data(), m_buffer.data() + m_begin, size_t(m_end - m_begin));
            m_end -= m_begin;
            m_begin = 0;
        }
        const ssize_t n = ::recv(m_fd, m_buffer.data() + m_end, m_buffer.size() - size_t(m_end), 0);
        if (n <= 0)
            return false;
        m_end += n;
        return true;
    }

    int m_fd = -1;
    QByteArray m_token;
    std::vector<char> m_buffer;
    qsizetype m_begin = 0;
    qsizetype m_end = 0;
};

// CPU time of the simulator's server thread (named after it), from /proc: what serving cost,
// whatever else ran.
double serverCpuSeconds()
{
    double total = 0;
    const QStringList tasks = QDir(u"/proc/self/task"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        QFile comm(u"/proc/self/task/%1/comm"_s.arg(task));
        if (!comm.open(QIODevice::ReadOnly) || comm.readAll().trimmed() != "cachescope-sim")
            continue;
        QFile stat(u"/proc/self/task/%1/stat"_s.arg(task));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // Fields after the parenthesized name: state is field 3, utime 14 and stime 15.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        total += double(fields.value(11).toLongLong() + fields.value(12).toLongLong()) / double(sysconf(_SC_CLK_TCK));
    }
    return total;
}

double seconds(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e9;
}

// CPU time of the whole process (the server thread populates while the main thread waits).
double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int pods = args.value(1, u"100000"_s).toInt();
    const int watchers = args.value(2, u"100"_s).toInt();
    const int changes = args.value(3, u"5000"_s).toInt();

    SimOptions options;
    options.tls = false;
    options.pods = pods;
    options.namespaces = 20;
    options.nodes = 50;
    options.history = 1000000;
    SimCluster cluster(options);
    QElapsedTimer timer;
    const qint64 residentBefore = residentBytes();
    const double cpuBefore = cpuSeconds();
    timer.start();
    QString error;
    if (!cluster.start(&error)) {
        std::fprintf(stderr, "bench_sim: %s\n", qPrintable(error));
        return 1;
    }
    const double populateSeconds = seconds(timer);
    const double populateCpu = cpuSeconds() - cpuBefore;
    const qint64 residentGrowth = residentBytes() - residentBefore;
    std::printf("populate: %d pods in %.2f s (%.2f s CPU) = %.0f pods/s of CPU\n", pods, populateSeconds, populateCpu, pods / populateCpu);
    const quint16 port = quint16(cluster.url().port());
    const QByteArray token = cluster.token().toLatin1();

    for (int round = 0; round < 3; ++round) {
        LeanClient client(port, token);
        const double serverBefore = serverCpuSeconds();
        timer.restart();
        client.send("/api/v1/pods");
        const qint64 bytes = client.readChunked();
        const double s = seconds(timer);
        const double server = serverCpuSeconds() - serverBefore;
        if (round == 0) {
            std::printf("memory: RSS grew %.1f MiB = %.0f bytes per pod, of which a pod's JSON is %.0f bytes\n",
                        double(residentGrowth) / (1 << 20),
                        double(residentGrowth) / pods,
                        double(bytes) / pods);
        }
        std::printf("list (one page): %d pods, %.1f MiB in %.3f s = %.0f objects/s, %.0f MiB/s; server CPU %.3f s = %.0f objects/s of CPU\n",
                    pods,
                    double(bytes) / (1 << 20),
                    s,
                    pods / s,
                    double(bytes) / (1 << 20) / s,
                    server,
                    pods / qMax(server, 0.001));
    }

    {
        LeanClient client(port, token);
        const double serverBefore = serverCpuSeconds();
        timer.restart();
        QByteArray continueToken;
        int pages = 0;
        qint64 bytes = 0;
        do {
            client.send("/api/v1/pods?limit=500" + (continueToken.isEmpty() ? QByteArray() : "&continue=" + continueToken));
            QByteArray body;
            bytes += client.readChunked(&body);
            const qsizetype at = body.indexOf("\"continue\":\"");
            continueToken = at < 0 ? QByteArray() : body.mid(at + 12, body.indexOf('"', at + 12) - at - 12);
            ++pages;
        } while (!continueToken.isEmpty());
        const double s = seconds(timer);
        const double server = serverCpuSeconds() - serverBefore;
        std::printf("list (limit=500): %d pages, %.1f MiB in %.3f s = %.0f objects/s; server CPU %.3f s = %.0f objects/s of CPU\n",
                    pages,
                    double(bytes) / (1 << 20),
                    s,
                    pods / s,
                    server,
                    pods / qMax(server, 0.001));
    }

    {
        // A streaming list: every pod as a watch event, then the initial-events-end bookmark.
        LeanClient client(port, token);
        const double serverBefore = serverCpuSeconds();
        timer.restart();
        client.send("/api/v1/pods?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=");
        qint64 events = 0;
        client.readChunked(nullptr, "k8s.io/initial-events-end", "{\"type\":\"ADDED\"", &events);
        const double s = seconds(timer);
        const double server = serverCpuSeconds() - serverBefore;
        std::printf("watch (sendInitialEvents): %lld events in %.3f s = %.0f events/s; server CPU %.3f s = %.0f events/s of CPU\n",
                    static_cast<long long>(events),
                    s,
                    double(events) / s,
                    server,
                    double(events) / qMax(server, 0.001));
    }

    {
        // Live fan-out: many watchers of all pods while the workload churns; a marker pod
        // created last tells each watcher it has everything.
        std::vector<std::unique_ptr<RawClient>> clients;
        const QByteArray from = QByteArray::number(cluster.resourceVersion());
        for (int i = 0; i < watchers; ++i) {
            clients.push_back(std::make_unique<RawClient>(port, token));
            clients.back()->send("/api/v1/pods?watch=true&resourceVersion=" + from);
        }
        timer.restart();
        cluster.churn(changes);
        const double churnSeconds = seconds(timer);
        const QByteArray marker = R"({"metadata":{"name":"bench-marker"},"spec":{"containers":[{"name":"c","image":"x"}]}})";
        RawClient writer(port, token);
        writer.sendRaw("POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + token +
                       "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(marker.size()) + "\r\n\r\n" + marker);
        writer.readResponse();
        qint64 events = 0;
        std::vector<QByteArray> tails(clients.size());
        std::vector<bool> done(clients.size(), false);
        qsizetype remaining = qsizetype(clients.size());
        while (remaining > 0) {
            for (size_t i = 0; i < clients.size(); ++i) {
                if (done[i])
                    continue;
                QTcpSocket &socket = clients[i]->socket();
                if (socket.bytesAvailable() == 0 && !socket.waitForReadyRead(1))
                    continue;
                // Frames of the simulator start with {"type":"; counting across reads needs the
                // previous read's tail.
                const QByteArray data = tails[i] + socket.readAll();
                events += data.count("{\"type\":\"") - tails[i].count("{\"type\":\"");
                if (data.contains("\"bench-marker\"")) {
                    done[i] = true;
                    --remaining;
                }
                tails[i] = data.right(16);
            }
        }
        const double s = seconds(timer);
        std::printf("watch fan-out: %d changes in %.3f s on the server; %d watchers received %lld events in %.3f s = %.0f events/s\n",
                    changes,
                    churnSeconds,
                    watchers,
                    static_cast<long long>(events),
                    s,
                    double(events) / s);
    }
    cluster.stop();
    return 0;
}
