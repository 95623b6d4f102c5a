#include "core/kube/logstream.h"

#include "core/kube/apiclient.h"
#include "core/kube/apirequest.h"
#include "core/kube/apiresponse.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

LogStream::LogStream(ApiClient *client, const QString &namespaceName, const QString &pod, const LogOptions &options, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_namespace(namespaceName)
    , m_pod(pod)
    , m_options(options)
{
}

LogStream::~LogStream()
{
    stop();
}

void LogStream::start()
{
    if (m_running)
        return;
    if (!m_client) {
        finish(ApiError(ApiError::Kind::Canceled, u"the cluster connection was closed"_s));
        return;
    }
    m_running = true;
    m_endedMidLine = false;
    m_splitter = LineSplitter();
    ApiRequest request;
    request.path = u"/api/v1/namespaces/%1/pods/%2/log"_s.arg(m_namespace, m_pod);
    request.query = m_options.toQuery();
    request.accept = "text/plain, */*";
    request.longRunning = m_options.follow;
    m_request = new QObject(this);
    m_client->stream(
        request,
        m_request,
        [this](QByteArrayView bytes) { return feed(bytes); },
        [this](const ApiResponse &response) {
            const std::optional<QString> last = m_splitter.finish();
            if (!response.error.isError() && last) {
                // The last line without its newline: limitBytes cut it, or the log ended so.
                ++m_lines;
                m_endedMidLine = true;
                const QPointer<LogStream> self(this);
                Q_EMIT linesReceived({*last});
                if (!self)
                    return;
            }
            finish(response.error);
        });
}

bool LogStream::feed(QByteArrayView bytes)
{
    if (!m_running)
        return false;
    m_bytes += bytes.size();
    const QStringList lines = m_splitter.feed(bytes);
    if (lines.isEmpty())
        return true;
    m_lines += lines.size();
    const QPointer<LogStream> self(this);
    Q_EMIT linesReceived(lines);
    // A receiver may have stopped or deleted the stream.
    return self && m_running;
}

void LogStream::finish(const ApiError &error)
{
    if (!m_running)
        return;
    m_running = false;
    if (m_request) {
        m_request->deleteLater();
        m_request = nullptr;
    }
    Q_EMIT ended(error);
}

void LogStream::stop()
{
    m_running = false;
    // Deleting the request's context aborts the transfer and drops its callbacks; later, as
    // stop() may be called from a receiver of linesReceived(), inside the reply's readyRead.
    if (m_request) {
        m_request->deleteLater();
        m_request = nullptr;
    }
    m_splitter = LineSplitter();
}

} // namespace Cachescope
