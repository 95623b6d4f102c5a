#include "core/cli/recordcommand.h"

#include "core/cache/cluster.h"
#include "core/cache/sharedindexinformer.h"
#include "core/cli/informersession.h"
#include "core/printers/duration.h"
#include "core/record/recordinglisterwatcher.h"
#include "core/record/recordingwriter.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QTextStream>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

void RecordCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption(u"include-secret-values"_s, u"record: keep Secrets' data and stringData values (default: \"<redacted>\")."_s));
}

std::optional<RecordCommand::Options> RecordCommand::fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage)
{
    const auto request = InformerRequest::fromParser(parser, resource, errorMessage);
    if (!request) {
        return std::nullopt;
    }
    Options options;
    options.request = *request;
    options.file = parser.value(u"o"_s);
    if (options.file.isEmpty()) {
        *errorMessage = u"record needs -o FILE, the recording to write"_s;
        return std::nullopt;
    }
    if (parser.isSet(u"for"_s)) {
        const auto duration = parseDuration(parser.value(u"for"_s));
        if (!duration) {
            *errorMessage = u"--for: \"%1\" is not a duration (e.g. 30s, 5m)"_s.arg(parser.value(u"for"_s));
            return std::nullopt;
        }
        options.duration = *duration;
    }
    options.includeSecretValues = parser.isSet(u"include-secret-values"_s);
    return options;
}

RecordCommand::RecordCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_out(out)
    , m_err(err)
    , m_session(std::make_unique<InformerSession>(config, context, options.request, err))
{
    RecordingWriter::Options writerOptions;
    writerOptions.includeSecretValues = options.includeSecretValues;
    m_writer = std::make_unique<RecordingWriter>(writerOptions);
    connect(m_writer.get(), &RecordingWriter::errorOccurred, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        finish(1);
    });
    m_duration.setSingleShot(true);
    connect(&m_duration, &QTimer::timeout, this, &RecordCommand::stop);
    connect(m_session.get(), &InformerSession::failed, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        finish(1);
    });
    connect(m_session.get(), &InformerSession::informerStarting, this, [this] {
        if (m_options.duration.count() > 0 && !m_duration.isActive()) {
            m_duration.start(m_options.duration);
        }
    });
    connect(m_session.get(), &InformerSession::ready, this, [this] {
        m_err << "recording " << m_session->targets().size() << " informer(s) to " << m_options.file << Qt::endl;
        if (Cluster *cluster = m_session->cluster()) {
            m_writer->setSessionInfo({cluster->server(), cluster->name(), cluster->discovery().gitVersion});
        }
    });
}

RecordCommand::~RecordCommand() = default;

void RecordCommand::start()
{
    QString error;
    if (!m_writer->open(m_options.file, {}, &error)) {
        m_err << "error: " << error << Qt::endl;
        m_stopped = true;
        Q_EMIT finished(1);
        return;
    }
    m_session->setListerWatcherWrapper(RecordingListerWatcher::wrapper(m_writer->queue(), [this] {
        Cluster *cluster = m_session->cluster();
        return cluster != nullptr ? cluster->informers()->defaultOptions() : SharedIndexInformer::Options();
    }));
    m_session->start();
}

void RecordCommand::stop()
{
    finish(0);
}

void RecordCommand::finish(int exitCode)
{
    if (m_stopped) {
        return;
    }
    m_stopped = true;
    m_duration.stop();
    for (const InformerSession::Target &target : m_session->targets()) {
        target.informer->stop();
    }
    const bool failed = !m_writer->isRecording();
    m_writer->close();
    if (!failed) {
        m_err << "recorded " << m_writer->committed() << " inputs, " << m_writer->objectsWritten() << " objects, " << m_writer->checkpointsWritten()
              << " checkpoints to " << m_options.file << " (" << QFileInfo(m_options.file).size() << " bytes)" << Qt::endl;
    }
    if (exitCode == 0 && m_session->targets().isEmpty()) {
        m_err << "error: stopped before the informers started" << Qt::endl;
        exitCode = 1;
    }
    Q_EMIT finished(exitCode);
}

} // namespace Cachescope
