#pragma once

#include "core/kube/kubeconfig.h"
#include "core/kube/logoptions.h"

#include <QObject>

#include <memory>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class ApiClient;
class LogStream;

// LogsCommand is `cachescope-cli logs POD [-c C] [-f] [--previous] [--timestamps] [--tail N]
// [--since D | --since-time T] [--limit-bytes N] [-n NS]`, as kubectl logs: one container's log
// printed line by line as it arrives (a LogStream), until the server ends it or, with -f, until
// SIGINT/SIGTERM (stop(): exit code 0). The server's refusals (no such pod, a container name
// needed, no previous instance) go to err with its message and make the exit code 1.
// Asynchronous: start(), then finished(exitCode). Runs its ApiClient on the thread it lives on.
class LogsCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogsCommand)

public:
    struct Options
    {
        QString pod;
        QString namespaceName; // empty: the context's namespace
        LogOptions log;
    };

    static void addOptions(QCommandLineParser &parser);
    // fromParser() reads the options back; nothing and *errorMessage for a bad value.
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &pod, QString *errorMessage);

    LogsCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~LogsCommand() override;

    void start();
    void stop();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void done(int exitCode);

    Kubeconfig m_config;
    QString m_context;
    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<ApiClient> m_client;
    LogStream *m_stream = nullptr; // owned (child)
    bool m_done = false;
};

} // namespace Cachescope
