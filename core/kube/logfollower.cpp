#include "core/kube/logfollower.h"

#include "core/kube/apiclient.h"
#include "core/kube/logstream.h"
#include "core/util/rfc3339.h"

#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
// Long enough that a server that is down is not hammered, short enough that a view catches up
// soon after a blip; client-go's watch backoff tops out at 30 s too.
constexpr std::chrono::milliseconds MaxBackoff{30000};
} // namespace

LogFollower::LogFollower(ApiClient *client, const QString &namespaceName, const QString &pod, const LogOptions &options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_namespace(namespaceName)
    , m_pod(pod)
    , m_options(options)
{
    m_options.timestamps = true;
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &LogFollower::request);
}

LogFollower::~LogFollower() = default;

std::pair<QStringView, QStringView> LogFollower::splitTimestamp(QStringView line)
{
    const qsizetype space = line.indexOf(u' ');
    // A kubelet timestamp starts with the year's digits; anything else is text.
    if (space < 20 || !line.front().isDigit())
        return {QStringView(), line};
    return {line.first(space), line.sliced(space + 1)};
}

void LogFollower::start()
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_state != State::Idle)
        return;
    request();
}

void LogFollower::request()
{
    delete m_stream;
    m_stream = nullptr;
    LogOptions options = m_options;
    if (!m_lastTimestamp.isEmpty()) {
        // Resuming: from the last line's time, not the first request's since or tail.
        options.sinceSeconds.reset();
        options.tailLines.reset();
        options.sinceTime = dateTimeFromRfc3339(m_lastTimestamp);
        m_skipAtLastTimestamp = m_atLastTimestamp;
    }
    m_stream = new LogStream(m_client, m_namespace, m_pod, options, this);
    connect(m_stream, &LogStream::linesReceived, this, &LogFollower::onLines);
    connect(m_stream, &LogStream::ended, this, &LogFollower::onEnded);
    setState(State::Streaming);
    m_stream->start();
}

void LogFollower::onLines(const QStringList &lines)
{
    QStringList fresh;
    fresh.reserve(lines.size());
    for (const QString &line : lines) {
        const QString time = splitTimestamp(line).first.toString();
        if (!m_lastTimestamp.isEmpty() && !time.isEmpty()) {
            // RFC 3339 times of one width compare as strings.
            if (time < m_lastTimestamp)
                continue;
            if (time == m_lastTimestamp && m_skipAtLastTimestamp > 0) {
                --m_skipAtLastTimestamp;
                continue;
            }
        }
        if (!time.isEmpty()) {
            if (time == m_lastTimestamp) {
                ++m_atLastTimestamp;
            } else {
                m_lastTimestamp = time;
                m_atLastTimestamp = 1;
                m_skipAtLastTimestamp = 0;
            }
        }
        fresh.append(line);
    }
    if (fresh.isEmpty())
        return;
    m_backoff = std::chrono::milliseconds(0);
    Q_EMIT linesReceived(fresh);
}

void LogFollower::onEnded(const ApiError &error)
{
    m_stream->deleteLater();
    m_stream = nullptr;
    if (error.kind() == ApiError::Kind::Http) {
        if (m_options.follow && error.code() == 404) {
            setState(State::PodDeleted);
            return;
        }
        setState(State::Failed, error.message());
        return;
    }
    if (!m_options.follow) {
        if (error.isError())
            setState(State::Failed, error.toString());
        else
            setState(State::Ended);
        return;
    }
    // A follow ended: the connection was lost, or the server ended the body (the container
    // restarted, or the pod was deleted: the next request's 404 tells).
    m_backoff = m_backoff.count() == 0 ? m_initialBackoff : std::min(m_backoff * 2, MaxBackoff);
    ++m_reconnects;
    setState(State::Reconnecting, error.isError() ? error.toString() : QString());
    m_retry.start(m_backoff);
}

void LogFollower::setState(State state, const QString &message)
{
    if (state == m_state && message.isEmpty())
        return;
    m_state = state;
    Q_EMIT stateChanged(state, message);
}

} // namespace Cachescope
