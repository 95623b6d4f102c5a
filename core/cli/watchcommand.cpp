#include "core/cli/watchcommand.h"
#include "core/printers/duration.h"

#include "core/cache/cluster.h"
#include "core/cache/notificationbatcher.h"
#include "core/cache/objectlist.h"
#include "core/cache/sharedindexinformer.h"
#include "core/cli/informersession.h"
#include "core/printers/objectlistwriter.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString typeText(Notification::Type type)
{
    switch (type) {
    case Notification::Type::Add:
        return u"add"_s;
    case Notification::Type::Update:
        return u"update"_s;
    case Notification::Type::Delete:
        return u"delete"_s;
    }
    return {};
}

} // namespace

void WatchCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOptions(InformerRequest::options());
    parser.addOption(QCommandLineOption(u"for"_s, u"Stop after this long (e.g. 30s, 5m; default: until interrupted)."_s, u"duration"_s));
    parser.addOption(QCommandLineOption(u"dump"_s, u"When stopping, write the cache to this file as a v1 List (JSON)."_s, u"file"_s));
}

std::optional<WatchCommand::Options> WatchCommand::fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage)
{
    const auto request = InformerRequest::fromParser(parser, resource, errorMessage);
    if (!request) {
        return std::nullopt;
    }
    Options options;
    options.request = *request;
    if (parser.isSet(u"for"_s)) {
        const auto duration = parseDuration(parser.value(u"for"_s));
        if (!duration) {
            *errorMessage = u"--for: \"%1\" is not a duration (e.g. 30s, 5m)"_s.arg(parser.value(u"for"_s));
            return std::nullopt;
        }
        options.duration = *duration;
    }
    options.dumpFile = parser.value(u"dump"_s);
    return options;
}

WatchCommand::WatchCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_out(out)
    , m_err(err)
    , m_session(std::make_unique<InformerSession>(config, context, options.request, err))
{
    m_duration.setSingleShot(true);
    connect(&m_duration, &QTimer::timeout, this, &WatchCommand::stop);
    connect(m_session.get(), &InformerSession::failed, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        m_stopped = true;
        Q_EMIT finished(1);
    });
    connect(m_session.get(), &InformerSession::informerStarting, this, [this](SharedIndexInformer *informer) {
        // Every notification in order; a short interval keeps the output close to live without
        // a write per event. Registered before the informer runs, so the initial list arrives
        // as adds.
        auto *batcher = new NotificationBatcher(NotificationBatcher::Mode::Every, this);
        batcher->setInterval(std::chrono::milliseconds(20));
        batcher->setCapacity(std::numeric_limits<int>::max());
        const QString resource = m_options.request.resource.contains(u',') ? informer->name() : QString();
        connect(batcher, &NotificationBatcher::notificationsReady, this, [this, resource](const QList<Notification> &batch) { print(resource, batch); });
        m_batchers.append(batcher);
        (void)informer->addEventHandler(batcher->handler());
        if (m_options.duration.count() > 0 && !m_duration.isActive()) {
            m_duration.start(m_options.duration);
        }
    });
}

WatchCommand::~WatchCommand() = default;

void WatchCommand::start()
{
    m_session->start();
}

void WatchCommand::print(const QString &resource, const QList<Notification> &batch)
{
    for (const Notification &notification : batch) {
        QJsonObject line{
            {u"type"_s, typeText(notification.type)},
            {u"key"_s, notification.key},
            {u"resourceVersion"_s, notification.object.isValid() ? notification.object.resourceVersion() : QString()},
        };
        if (!resource.isEmpty()) {
            line.insert(u"resource"_s, resource);
        }
        m_out << QJsonDocument(line).toJson(QJsonDocument::Compact) << '\n';
    }
    m_printed += quint64(batch.size());
    m_out.flush();
}

void WatchCommand::stop()
{
    if (m_stopped) {
        return;
    }
    m_stopped = true;
    m_duration.stop();
    const QList<InformerSession::Target> &targets = m_session->targets();
    if (targets.isEmpty()) {
        m_err << "error: stopped before the informer started" << Qt::endl;
        Q_EMIT finished(1);
        return;
    }
    for (const InformerSession::Target &target : targets) {
        target.informer->stop();
    }
    for (NotificationBatcher *batcher : std::as_const(m_batchers)) {
        batcher->flush();
    }
    int exitCode = 0;
    if (!m_options.dumpFile.isEmpty()) {
        QList<KubeObject> objects;
        for (const InformerSession::Target &target : targets) {
            objects.append(sortedForListing(target.informer->indexer().list()));
        }
        QSaveFile file(m_options.dumpFile);
        bool written = file.open(QIODevice::WriteOnly);
        if (written) {
            QTextStream stream(&file);
            ObjectListWriter writer(stream, ObjectListWriter::Format::CompactJson);
            for (const KubeObject &object : std::as_const(objects)) {
                writer.write(object);
            }
            writer.finish();
            stream.flush();
            written = stream.status() == QTextStream::Ok && file.error() == QFileDevice::NoError;
        }
        if (!written || !file.commit()) {
            m_err << "error: cannot write " << m_options.dumpFile << ": " << file.errorString() << Qt::endl;
            exitCode = 1;
        }
    }
    // The counters are read after stop(): the informer keeps its reflector's last status.
    Reflector::Status total;
    qsizetype objects = 0;
    auto printSummary = [this](const QString &prefix, qsizetype size, quint64 notifications, const Reflector::Status &status) {
        m_err << prefix << "objects " << size << ", notifications " << notifications << ", lists " << status.lists << ", relists " << status.relists
              << ", watches " << status.watchesOpened << ", reconnects " << status.reconnects << ", watch errors " << status.errors << Qt::endl;
    };
    for (qsizetype i = 0; i < targets.size(); ++i) {
        const Reflector::Status status = targets.at(i).informer->counters().reflector;
        const qsizetype size = targets.at(i).informer->indexer().size();
        if (targets.size() > 1) {
            printSummary(targets.at(i).informer->name() + u": "_s, size, i < m_batchers.size() ? m_batchers.at(i)->received() : 0, status);
        }
        objects += size;
        total.lists += status.lists;
        total.relists += status.relists;
        total.watchesOpened += status.watchesOpened;
        total.reconnects += status.reconnects;
        total.errors += status.errors;
    }
    printSummary(QString(), objects, m_printed, total);
    for (const InformerSession::Target &target : targets) {
        if (!target.informer->hasSynced()) {
            const ApiError lastError = target.informer->counters().reflector.lastError;
            m_err << "error: " << target.informer->name() << " never synced" << (lastError.isError() ? u": "_s + lastError.toString() : QString()) << Qt::endl;
            exitCode = 1;
        }
    }
    Q_EMIT finished(exitCode);
}

} // namespace Cachescope
