#pragma once

#include "core/cli/informerrequest.h"
#include "core/kube/kubeconfig.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <memory>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class InformerSession;
class RecordingWriter;

// RecordCommand is `cachescope-cli record RESOURCE[,RESOURCE…] [-n NS | -A] [-l SEL] -o FILE
// [--for DURATION] [--include-secret-values]`: it runs an informer per resource, as `watch`
// does, with each informer's ListerWatcher teed into a RecordingWriter, so FILE holds every
// list page, watch event, bookmark, error and watch end the reflectors saw (see
// RecordingSchema). It says on err when recording starts and, when DURATION passes or stop()
// is called (SIGINT/SIGTERM in the CLI), writes what is left, closes the file and prints a
// summary: inputs, objects, checkpoints. A write error ends it with exit code 1 and the
// writer's message; a server that refuses or fails is retried with backoff, as `watch` does.
// Asynchronous: start(), finished(code).
class RecordCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordCommand)

public:
    struct Options
    {
        InformerRequest request;
        QString file;
        std::chrono::milliseconds duration{0}; // 0 = until stopped
        bool includeSecretValues = false;
    };

    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);

    RecordCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~RecordCommand() override;

    void start();
    void stop();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void finish(int exitCode);

    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<RecordingWriter> m_writer;
    std::unique_ptr<InformerSession> m_session;
    QTimer m_duration{this};
    bool m_stopped = false;
};

} // namespace Cachescope
