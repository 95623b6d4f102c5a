#pragma once

#include "core/kube/apierror.h"
#include "core/kube/linesplitter.h"
#include "core/kube/logoptions.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QStringList>

namespace Cachescope {

class ApiClient;

// LogStream is one request for a pod's container log (GET .../pods/NAME/log, LogOptions as its
// query) and the lines it delivers: the body is read as the network hands it over, split at
// '\n' by a LineSplitter and emitted as linesReceived() once per piece that completes lines, so
// neither a long log nor a follow that runs for hours is ever held whole; a line cut between two
// pieces waits for its end.
//
// It ends exactly once with ended(): error.isError() false when the server ended the body (all
// of a log without follow; a follow the server closed: the pod was deleted, the container
// restarted, limitBytes was reached), after a last line without its newline, if there was one
// (a limitBytes cut); an Http error with the server's Status message for a refusal (404 pod,
// 400 container name required or unknown, no previous instance); Network/Tls for transport
// failures, also in the middle of a follow. stop() ends it without ended(). Requests go
// through the client's rate limiter, credentials and retry rules (ApiClient::stream()); a
// follow is never timed out for quiet, as a log can be silent for minutes.
//
// Lives on the client's thread; owned by its parent.
class LogStream final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogStream)

public:
    LogStream(ApiClient *client, const QString &namespaceName, const QString &pod, const LogOptions &options, QObject *parent = nullptr);
    ~LogStream() override;

    void start();
    void stop();

    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] qint64 lineCount() const { return m_lines; }
    [[nodiscard]] qint64 bytesReceived() const { return m_bytes; }
    [[nodiscard]] const LogOptions &options() const { return m_options; }
    // Whether the body ended inside a line (a limitBytes cut): true from the linesReceived()
    // that carries that last line on, so a printer can leave its newline out as kubectl does.
    [[nodiscard]] bool endedMidLine() const { return m_endedMidLine; }

Q_SIGNALS:
    void linesReceived(const QStringList &lines);
    void ended(const Cachescope::ApiError &error);

private:
    bool feed(QByteArrayView bytes);
    void finish(const ApiError &error);

    QPointer<ApiClient> m_client;
    QString m_namespace;
    QString m_pod;
    LogOptions m_options;
    QObject *m_request = nullptr; // owned (child): the request's context, deleted to cancel it
    LineSplitter m_splitter;
    qint64 m_lines = 0;
    qint64 m_bytes = 0;
    bool m_running = false;
    bool m_endedMidLine = false;
};

} // namespace Cachescope
