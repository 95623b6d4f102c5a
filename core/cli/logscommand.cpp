#include "core/cli/logscommand.h"

#include "core/kube/apiclient.h"
#include "core/kube/logstream.h"
#include "core/printers/duration.h"
#include "core/util/rfc3339.h"

#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

void LogsCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption({u"c"_s, u"container"_s}, u"logs: the container (required when the pod has several)."_s, u"name"_s));
    parser.addOption(QCommandLineOption({u"f"_s, u"follow"_s}, u"logs: keep printing lines as they are written."_s));
    parser.addOption(QCommandLineOption({u"p"_s, u"previous"_s}, u"logs: the container's instance before its last restart."_s));
    parser.addOption(QCommandLineOption(u"timestamps"_s, u"logs: prefix each line with its RFC 3339 time."_s));
    parser.addOption(QCommandLineOption(u"tail"_s, u"logs: only the last N lines (default: all)."_s, u"N"_s));
    parser.addOption(QCommandLineOption(u"since"_s, u"logs: only lines newer than this (e.g. 10s, 5m, 1h)."_s, u"duration"_s));
    parser.addOption(QCommandLineOption(u"since-time"_s, u"logs: only lines at or after this RFC 3339 time."_s, u"time"_s));
    parser.addOption(QCommandLineOption(u"limit-bytes"_s, u"logs: stop after this many bytes."_s, u"N"_s));
}

std::optional<LogsCommand::Options> LogsCommand::fromParser(const QCommandLineParser &parser, const QString &pod, QString *errorMessage)
{
    Options options;
    options.pod = pod.startsWith(u"pod/"_s) || pod.startsWith(u"pods/"_s) ? pod.section(u'/', 1) : pod;
    if (options.pod.isEmpty()) {
        *errorMessage = u"logs needs a pod name"_s;
        return std::nullopt;
    }
    options.namespaceName = parser.value(u"n"_s);
    LogOptions &log = options.log;
    log.container = parser.value(u"c"_s);
    log.follow = parser.isSet(u"f"_s);
    log.previous = parser.isSet(u"p"_s);
    log.timestamps = parser.isSet(u"timestamps"_s);
    if (parser.isSet(u"tail"_s)) {
        bool ok = false;
        const qint64 tail = parser.value(u"tail"_s).toLongLong(&ok);
        if (!ok || tail < -1) {
            *errorMessage = u"--tail: expected a number of lines, got \"%1\""_s.arg(parser.value(u"tail"_s));
            return std::nullopt;
        }
        // -1 is kubectl's "all".
        if (tail >= 0)
            log.tailLines = tail;
    }
    if (parser.isSet(u"since"_s) && parser.isSet(u"since-time"_s)) {
        *errorMessage = u"at most one of --since and --since-time may be given"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"since"_s)) {
        const auto duration = parseDuration(parser.value(u"since"_s));
        if (!duration || duration->count() <= 0) {
            *errorMessage = u"--since: expected a duration such as 10s or 5m, got \"%1\""_s.arg(parser.value(u"since"_s));
            return std::nullopt;
        }
        // Whole seconds, rounded up as kubectl rounds.
        log.sinceSeconds = (duration->count() + 999) / 1000;
    }
    if (parser.isSet(u"since-time"_s)) {
        log.sinceTime = dateTimeFromRfc3339(parser.value(u"since-time"_s));
        if (!log.sinceTime.isValid()) {
            *errorMessage = u"--since-time: expected an RFC 3339 time, got \"%1\""_s.arg(parser.value(u"since-time"_s));
            return std::nullopt;
        }
    }
    if (parser.isSet(u"limit-bytes"_s)) {
        bool ok = false;
        const qint64 limit = parser.value(u"limit-bytes"_s).toLongLong(&ok);
        if (!ok || limit <= 0) {
            *errorMessage = u"--limit-bytes: expected a positive number, got \"%1\""_s.arg(parser.value(u"limit-bytes"_s));
            return std::nullopt;
        }
        log.limitBytes = limit;
    }
    return options;
}

LogsCommand::LogsCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_context(context)
    , m_options(options)
    , m_out(out)
    , m_err(err)
{
}

LogsCommand::~LogsCommand() = default;

void LogsCommand::start()
{
    const auto resolved = m_config.commandRestConfig(m_context);
    if (const auto *errors = std::get_if<QList<KubeconfigError>>(&resolved)) {
        for (const KubeconfigError &error : *errors) {
            m_err << "error: " << error.toString() << '\n';
        }
        done(1);
        return;
    }
    const RestConfig &rest = std::get<RestConfig>(resolved);
    m_client = std::make_unique<ApiClient>(rest);
    for (const QString &warning : m_client->warnings()) {
        m_err << "warning: " << warning << '\n';
    }
    const QString namespaceName = m_options.namespaceName.isEmpty() ? rest.defaultNamespace() : m_options.namespaceName;
    m_stream = new LogStream(m_client.get(), namespaceName, m_options.pod, m_options.log, this);
    connect(m_stream, &LogStream::linesReceived, this, [this](const QStringList &lines) {
        for (qsizetype i = 0; i < lines.size(); ++i) {
            m_out << lines.at(i);
            // A line cut by --limit-bytes is printed as cut, without a newline, as kubectl prints it.
            if (i + 1 < lines.size() || !m_stream->endedMidLine())
                m_out << '\n';
        }
        // Each piece at once: with -f a reader waits for the lines.
        m_out.flush();
    });
    connect(m_stream, &LogStream::ended, this, [this](const ApiError &error) {
        if (error.isError()) {
            m_err << "error: " << error.toString() << '\n';
            done(1);
            return;
        }
        done(0);
    });
    m_stream->start();
}

void LogsCommand::stop()
{
    if (m_stream)
        m_stream->stop();
    done(0);
}

void LogsCommand::done(int exitCode)
{
    if (m_done)
        return;
    m_done = true;
    m_out.flush();
    m_err.flush();
    // Reported from the event loop so that a caller connecting after start() still hears it.
    QTimer::singleShot(0, this, [this, exitCode] { Q_EMIT finished(exitCode); });
}

} // namespace Cachescope
