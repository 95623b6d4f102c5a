#pragma once

#include "core/cli/informerrequest.h"
#include "core/kube/kubeconfig.h"

#include <QObject>
#include <QTimer>

#include <memory>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class InformerSession;
class NotificationBatcher;
class SharedIndexInformer;
struct Notification;

// WatchCommand is `cachescope-cli watch RESOURCE[,RESOURCE…] [-n NS | -A] [-l SEL] [--for DURATION]
// [--dump FILE]`: it runs an informer per resource and prints one JSON line per notification
// their handlers receive — {"type":"add|update|delete","key":"ns/name","resourceVersion":"…"},
// with "resource" when there are several, the initial adds included — until DURATION passes or
// stop() is called (SIGINT/SIGTERM in the CLI). Then it writes the caches to FILE as one `v1`
// `List` and prints a summary line to err: objects, notifications, lists, relists, watches
// opened, reconnects, watch errors (one line per resource first when there are several). A
// server that refuses or fails is retried with backoff, as the app does. Asynchronous:
// start(), finished(code).
class WatchCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WatchCommand)

public:
    struct Options
    {
        InformerRequest request;
        std::chrono::milliseconds duration{0}; // 0 = until stopped
        QString dumpFile;
    };

    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);

    WatchCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~WatchCommand() override;

    void start();
    // stop() ends the watch: pending notifications are printed, the dump written, the summary
    // printed, then finished() is emitted.
    void stop();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void print(const QString &resource, const QList<Notification> &batch);

    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<InformerSession> m_session;
    QList<NotificationBatcher *> m_batchers; // owned (children), one per informer
    QTimer m_duration{this};
    quint64 m_printed = 0;
    bool m_stopped = false;
};

} // namespace Cachescope
