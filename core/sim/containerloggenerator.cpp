#include "core/sim/containerloggenerator.h"

#include <QDateTime>
#include <QLocale>

#include <iterator>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

// The startup burst is written 20 ms apart, then the steady lines start after a short pause:
// the shape of a real container's log, and enough lines for a tail the moment a pod starts.
constexpr qint64 StartupSpacingMs = 20;
constexpr qint64 StartupPauseMs = 200;
constexpr int CrashLines = 3;

quint64 splitMix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

quint64 fnv1a(quint64 hash, const QString &text)
{
    for (const char byte : text.toUtf8()) {
        hash ^= quint8(byte);
        hash *= 0x100000001b3ULL;
    }
    // A separator, so that ("ab", "c") and ("a", "bc") differ.
    hash ^= 0xff;
    return hash * 0x100000001b3ULL;
}

const char *const webPaths[] = {"/",
                                "/healthz",
                                "/api/v1/products",
                                "/api/v1/products/%1",
                                "/api/v1/cart",
                                "/api/v1/orders/%1",
                                "/static/app.%1.js",
                                "/login",
                                "/api/v1/search?q=shoes&page=%1"};
const char *const agents[] = {"Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
                              "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 Safari/605.1.15",
                              "kube-probe/1.32",
                              "curl/8.5.0",
                              "Go-http-client/2.0"};
const char *const queues[] = {"orders", "emails", "reports", "invoices", "thumbnails"};
const char *const failures[] = {"context deadline exceeded", "connection reset by peer", "upstream returned 503", "lock held by another worker"};

} // namespace

ContainerLogGenerator::ContainerLogGenerator(const Instance &instance)
    : m_instance(instance)
{
    const qsizetype colon = instance.image.lastIndexOf(u':');
    m_version = (colon > instance.image.lastIndexOf(u'/') && colon >= 0 ? instance.image.mid(colon + 1) : u"latest"_s).toUtf8();
    m_startupLines = instance.restartCount > 0 ? 5 : 4;
    if (isTerminated())
        m_total = qMax(m_startupLines, lineCountAt(instance.endMs));
}

ContainerLogGenerator::Style ContainerLogGenerator::styleForImage(const QString &image)
{
    const QString name = image.section(u'/', -1).section(u':', 0, 0);
    for (const QStringView web : {u"nginx", u"httpd", u"web", u"api", u"frontend"}) {
        if (name.contains(web))
            return Style::WebServer;
    }
    return Style::Worker;
}

quint64 ContainerLogGenerator::seedFor(quint64 clusterSeed, const QString &namespaceName, const QString &pod, const QString &container, int restartCount)
{
    quint64 hash = 0xcbf29ce484222325ULL;
    hash = fnv1a(hash, namespaceName);
    hash = fnv1a(hash, pod);
    hash = fnv1a(hash, container);
    return splitMix(hash ^ splitMix(clusterSeed) ^ (quint64(restartCount) << 40));
}

quint64 ContainerLogGenerator::hash(qint64 index, quint64 salt) const
{
    return splitMix(m_instance.seed ^ splitMix(quint64(index) * 0x2545f4914f6cdd1dULL + salt));
}

qint64 ContainerLogGenerator::periodMs() const
{
    // Two milliseconds at least: the jitter below is under half a period, and lines never share
    // a millisecond.
    if (m_instance.periodMs > 0)
        return qMax<qint64>(2, m_instance.periodMs);
    // A busy web server writes about a line a second, a worker a job every few seconds.
    return m_instance.style == Style::WebServer ? 1000 : 2500;
}

qint64 ContainerLogGenerator::steadyStartMs() const
{
    return m_instance.startMs + m_startupLines * StartupSpacingMs + StartupPauseMs;
}

qint64 ContainerLogGenerator::timeOf(qint64 index) const
{
    if (index < m_startupLines)
        return m_instance.startMs + index * StartupSpacingMs;
    const qint64 k = index - m_startupLines;
    // Jitter under half a period keeps lines in order and apart.
    return steadyStartMs() + k * periodMs() + qint64(hash(index, 1) % quint64(periodMs() / 2));
}

qint64 ContainerLogGenerator::lineCountAt(qint64 timeMs) const
{
    qint64 count = 0;
    if (timeMs < m_instance.startMs) {
        count = 0;
    } else if (timeMs < steadyStartMs()) {
        count = qMin(m_startupLines, (timeMs - m_instance.startMs) / StartupSpacingMs + 1);
    } else {
        const qint64 k = (timeMs - steadyStartMs()) / periodMs();
        const qint64 candidate = m_startupLines + k;
        count = candidate + (timeOf(candidate) <= timeMs ? 1 : 0);
    }
    return m_total >= 0 ? qMin(count, m_total) : count;
}

QByteArray ContainerLogGenerator::timestampPrefix(qint64 index) const
{
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(timeOf(index), Qt::UTC);
    const QByteArray micros = QByteArray::number(hash(index, 2) % 1000000).rightJustified(6, '0');
    return QLocale::c().toString(time, u"yyyy-MM-ddTHH:mm:ss.zzz"_s).toLatin1() + micros + "Z ";
}

QByteArray ContainerLogGenerator::line(qint64 index) const
{
    if (m_total >= 0 && index >= m_startupLines && index >= m_total - CrashLines)
        return crashLine(int(m_total - index));
    if (index < m_startupLines)
        return startupLine(index);
    return steadyLine(index);
}

QByteArray ContainerLogGenerator::startupLine(qint64 index) const
{
    const bool restarted = m_instance.restartCount > 0;
    const QByteArray restarts = QByteArray::number(m_instance.restartCount);
    if (m_instance.style == Style::WebServer) {
        switch (index) {
        case 0:
            return "Starting web server " + m_version + " (pid 1)";
        case 1:
            return "Loaded configuration from /etc/app/config.yaml";
        case 2:
            if (restarted)
                return "warning: restarted after the previous instance was killed (restart " + restarts + ")";
            return "Connected to upstream pool (4 backends)";
        case 3:
            return restarted ? "Connected to upstream pool (4 backends)" : "Listening on 0.0.0.0:8080";
        default:
            return "Listening on 0.0.0.0:8080";
        }
    }
    switch (index) {
    case 0:
        return "level=info msg=\"starting worker\" version=" + m_version;
    case 1:
        return "level=info msg=\"connected to queue\" broker=redis://redis:6379/0";
    case 2:
        if (restarted)
            return "level=warn msg=\"previous instance did not shut down cleanly\" restarts=" + restarts;
        return "level=info msg=\"recovered in-flight jobs\" count=0";
    case 3:
        return restarted ? "level=info msg=\"recovered in-flight jobs\" count=2" : "level=info msg=\"consuming\" queues=orders,emails,reports concurrency=4";
    default:
        return "level=info msg=\"consuming\" queues=orders,emails,reports concurrency=4";
    }
}

QByteArray ContainerLogGenerator::steadyLine(qint64 index) const
{
    const quint64 h = hash(index, 3);
    const quint64 roll = h % 1000;
    if (m_instance.style == Style::WebServer) {
        const QDateTime time = QDateTime::fromMSecsSinceEpoch(timeOf(index), Qt::UTC);
        const bool post = (h >> 10) % 7 == 0;
        QByteArray path = webPaths[(h >> 13) % std::size(webPaths)];
        path.replace("%1", QByteArray::number((h >> 17) % 5000));
        // Mostly fine; the rare 5xx is what a user searches the log for.
        const int status = roll < 15 ? 500 : roll < 20 ? 503 : roll < 50 ? 404 : roll < 100 ? 304 : post ? 201 : 200;
        const QByteArray ip = "10.244." + QByteArray::number((h >> 24) % 4) + '.' + QByteArray::number(2 + (h >> 28) % 250);
        const QByteArray seconds = QByteArray::number(double((h >> 36) % 400 + 1) / 1000.0, 'f', 3);
        return ip + " - - [" + QLocale::c().toString(time, u"dd/MMM/yyyy:HH:mm:ss"_s).toLatin1() + " +0000] \"" + (post ? "POST " : "GET ") + path +
            " HTTP/1.1\" " + QByteArray::number(status) + ' ' + QByteArray::number(120 + (h >> 40) % 8000) + " \"-\" \"" +
            agents[(h >> 50) % std::size(agents)] + "\" rt=" + seconds;
    }
    const QByteArray queue = queues[(h >> 10) % std::size(queues)];
    const QByteArray job = QByteArray::number(10000 + index);
    if (roll < 30) {
        return "level=error msg=\"job failed, will retry\" queue=" + queue + " job=" + job + " attempt=" + QByteArray::number(1 + (h >> 14) % 3) + " err=\"" +
            failures[(h >> 18) % std::size(failures)] + '"';
    }
    if (roll < 80)
        return "level=warn msg=\"slow job\" queue=" + queue + " job=" + job + " duration=" + QByteArray::number(3 + (h >> 14) % 9) + "." +
            QByteArray::number((h >> 20) % 10) + "s";
    if (roll < 130)
        return "level=info msg=\"queue depth\" queue=" + queue + " depth=" + QByteArray::number((h >> 14) % 200);
    return "level=info msg=\"job completed\" queue=" + queue + " job=" + job + " duration=" + QByteArray::number(20 + (h >> 14) % 900) + "ms";
}

QByteArray ContainerLogGenerator::crashLine(int fromEnd) const
{
    const QString &reason = m_instance.exitReason;
    if (reason == u"Completed") {
        static const QByteArray lines[] = {"received SIGTERM, shutting down", "drained in-flight requests", "bye"};
        return lines[CrashLines - fromEnd];
    }
    if (reason == u"OOMKilled" || reason.isEmpty()) {
        static const QByteArray lines[] = {"warning: memory usage at 94% of the limit (241Mi of 256Mi)",
                                           "error: allocation of 16777216 bytes failed, retrying with a smaller buffer",
                                           "fatal error: runtime: out of memory"};
        return lines[CrashLines - fromEnd];
    }
    static const QByteArray lines[] = {"error: lost the connection to the database: connection refused",
                                       "panic: runtime error: invalid memory address or nil pointer dereference",
                                       "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2f1c]"};
    return lines[CrashLines - fromEnd];
}

} // namespace Cachescope::Sim
