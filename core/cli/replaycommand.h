#pragma once

#include "core/cli/getcommand.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <optional>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class NotificationBatcher;
class RecordingReader;
class ReplayListerWatcher;
class SharedIndexInformer;

// ReplayCommand is `cachescope-cli replay FILE get|watch RESOURCE [--at TIME] [--speed N]`, with
// get's -n/-A and -o: an informer like the recorded one, fed by a ReplayListerWatcher instead of
// a cluster. `get` prints the cache as it was at TIME (default: the recording's end) with get's
// printers; `watch` prints watch's JSON line per handler notification from TIME (default: the
// start) on, at the recorded pace × N (0: as fast as possible), until the recording ends or
// stop() is called. TIME is RFC 3339 or an offset from the start ("+90s"). RESOURCE is matched
// against the recorded informers as kubectl names a resource (plural, singular, kind, short
// name, `resource.group`); with -n and an informer of all namespaces, only that namespace is
// printed. Asynchronous: start(), finished(code). Lives on the CLI's main thread; the replay's
// reflector runs there too (no network).
class ReplayCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReplayCommand)

public:
    enum class Mode { Get, Watch };

    struct Options
    {
        QString file;
        Mode mode = Mode::Get;
        GetCommand::Options get; // resource, -n/-A, -o
        QString at; // empty: get at the end, watch from the start
        double speed = 1.0;
    };

    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options>
    fromParser(const QCommandLineParser &parser, const QString &file, const QString &mode, const QString &resource, QString *errorMessage);

    ReplayCommand(const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~ReplayCommand() override;

    void start();
    void stop();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void fail(const QString &message);
    void finish(int exitCode);
    void printGet();

    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<RecordingReader> m_reader;
    std::unique_ptr<SharedIndexInformer> m_informer;
    ReplayListerWatcher *m_replay = nullptr; // owned by the informer
    ApiResource m_resource;
    NotificationBatcher *m_batcher = nullptr; // owned (child)
    QTimer m_drain{this};
    quint64 m_printed = 0;
    bool m_done = false;
};

} // namespace Cachescope
