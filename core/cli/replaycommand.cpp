#include "core/cli/replaycommand.h"

#include "core/cache/informerfactory.h"
#include "core/cache/notificationbatcher.h"
#include "core/cache/sharedindexinformer.h"
#include "core/record/recordingreader.h"
#include "core/record/replaylisterwatcher.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QThread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

bool namesResource(const RecordedInformer &informer, const QString &name)
{
    const ApiResource &resource = informer.resource;
    const QString lower = name.toLower();
    const QString plural = resource.gvr.resource();
    const QString group = resource.gvr.group();
    return lower == plural || lower == resource.kind.toLower() || resource.shortNames.contains(lower) ||
        (!resource.singularName.isEmpty() && lower == resource.singularName) || (!group.isEmpty() && lower == plural + u'.' + group);
}

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

void ReplayCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption(u"at"_s, u"replay: the instant, RFC 3339 or an offset from the start (+90s)."_s, u"time"_s));
    parser.addOption(QCommandLineOption(u"speed"_s, u"replay watch: the recorded pace times N (default 1; 0: as fast as possible)."_s, u"N"_s));
}

std::optional<ReplayCommand::Options>
ReplayCommand::fromParser(const QCommandLineParser &parser, const QString &file, const QString &mode, const QString &resource, QString *errorMessage)
{
    Options options;
    options.file = file;
    if (mode == u"get"_s) {
        options.mode = Mode::Get;
    } else if (mode == u"watch"_s) {
        options.mode = Mode::Watch;
    } else {
        *errorMessage = u"replay FILE get|watch RESOURCE: \"%1\" is neither get nor watch"_s.arg(mode);
        return std::nullopt;
    }
    if (file.isEmpty()) {
        *errorMessage = u"replay needs the recording: replay FILE get|watch RESOURCE"_s;
        return std::nullopt;
    }
    if (options.mode == Mode::Get) {
        const auto get = GetCommand::fromParser(parser, resource, errorMessage);
        if (!get) {
            return std::nullopt;
        }
        options.get = *get;
    } else {
        const auto request = InformerRequest::fromParser(parser, resource, errorMessage);
        if (!request) {
            return std::nullopt;
        }
        options.get.request = *request;
    }
    options.at = parser.value(u"at"_s);
    if (parser.isSet(u"speed"_s)) {
        bool ok = false;
        options.speed = parser.value(u"speed"_s).toDouble(&ok);
        if (!ok || options.speed < 0) {
            *errorMessage = u"--speed: \"%1\" is not a factor ≥ 0"_s.arg(parser.value(u"speed"_s));
            return std::nullopt;
        }
    }
    return options;
}

ReplayCommand::ReplayCommand(const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_out(out)
    , m_err(err)
    , m_reader(std::make_unique<RecordingReader>())
{
    // Once the last input was handed over, the informer still pops and hands out what it got:
    // checked every 20 ms until its queue and handler are empty.
    m_drain.setInterval(std::chrono::milliseconds(20));
    connect(&m_drain, &QTimer::timeout, this, [this] {
        const SharedIndexInformer::Counters counters = m_informer->counters();
        qsizetype backlog = counters.queue.depth;
        for (const qsizetype handler : counters.handlerBacklogs) {
            backlog += handler;
        }
        if (backlog == 0) {
            finish(0);
        }
    });
}

ReplayCommand::~ReplayCommand()
{
    if (m_informer) {
        m_informer->stop();
    }
}

void ReplayCommand::fail(const QString &message)
{
    m_err << "error: " << message << Qt::endl;
    finish(1);
}

void ReplayCommand::start()
{
    QString error;
    if (!m_reader->open(m_options.file, &error)) {
        fail(error);
        return;
    }
    const InformerRequest &request = m_options.get.request;
    std::optional<RecordedInformer> chosen;
    for (const RecordedInformer &informer : m_reader->informers()) {
        if (!namesResource(informer, request.resource)) {
            continue;
        }
        const bool exact = request.allNamespaces || informer.namespaceName == request.namespaceName;
        if (!chosen || (exact && chosen->namespaceName != request.namespaceName)) {
            chosen = informer;
        }
    }
    if (!chosen) {
        QStringList recorded;
        for (const RecordedInformer &informer : m_reader->informers()) {
            recorded.append(informer.name);
        }
        fail(u"the recording has no informer of \"%1\" (it has: %2)"_s.arg(request.resource, recorded.join(u", "_s)));
        return;
    }
    if (!request.allNamespaces && !request.namespaceName.isEmpty() && !chosen->namespaceName.isEmpty() && chosen->namespaceName != request.namespaceName) {
        fail(u"the recording has %1 of namespace %2 only, not of %3"_s.arg(chosen->resource.gvr.resource(), chosen->namespaceName, request.namespaceName));
        return;
    }
    m_resource = chosen->resource;

    ReplayListerWatcher::Options replayOptions;
    replayOptions.speed = m_options.speed;
    std::optional<qint64> atSeq;
    if (!m_options.at.isEmpty()) {
        QString atError;
        atSeq = m_reader->seqAt(m_options.at, &atError);
        if (!atSeq) {
            fail(atError);
            return;
        }
    }
    if (m_options.mode == Mode::Get) {
        replayOptions.startSeq = atSeq.value_or(m_reader->summary().lastSeq);
        replayOptions.stopSeq = *replayOptions.startSeq;
        replayOptions.speed = 0;
    } else {
        replayOptions.startSeq = atSeq;
    }
    auto replay = std::make_unique<ReplayListerWatcher>(*m_reader, chosen->id, replayOptions);
    m_replay = replay.get();

    SharedIndexInformer::Options informerOptions;
    informerOptions.name = chosen->name;
    informerOptions.queueKind = chosen->queueKind;
    informerOptions.indexers = InformerFactory::defaultIndexers(chosen->resource);
    // A replay answers lists from the recording, streaming lists included (ReplayListerWatcher).
    informerOptions.reflector.useWatchList = false;
    // Recorded watches may end at once (at speed 0 they all do): not an error here.
    informerOptions.reflector.veryShortWatch = std::chrono::milliseconds(0);
    // The recorded reflector backed off already, and the recorded pace has that wait in it.
    informerOptions.reflector.backoff.initial = std::chrono::milliseconds(1);
    informerOptions.reflector.backoff.cap = std::chrono::milliseconds(10);
    m_informer = std::make_unique<SharedIndexInformer>(std::move(replay), QThread::currentThread(), informerOptions);

    if (m_options.mode == Mode::Get) {
        connect(m_informer.get(), &SharedIndexInformer::synced, this, &ReplayCommand::printGet);
        m_informer->run();
        return;
    }
    m_batcher = new NotificationBatcher(NotificationBatcher::Mode::Every, this);
    m_batcher->setInterval(std::chrono::milliseconds(20));
    m_batcher->setCapacity(std::numeric_limits<int>::max());
    const QString onlyNamespace = chosen->namespaceName.isEmpty() && !request.allNamespaces ? request.namespaceName : QString();
    connect(m_batcher, &NotificationBatcher::notificationsReady, this, [this, onlyNamespace](const QList<Notification> &batch) {
        for (const Notification &notification : batch) {
            if (!onlyNamespace.isEmpty() && !notification.key.startsWith(onlyNamespace + u'/')) {
                continue;
            }
            const QJsonObject line{
                {u"type"_s, typeText(notification.type)},
                {u"key"_s, notification.key},
                {u"resourceVersion"_s, notification.object.isValid() ? notification.object.resourceVersion() : QString()},
            };
            m_out << QJsonDocument(line).toJson(QJsonDocument::Compact) << '\n';
            ++m_printed;
        }
        m_out.flush();
    });
    (void)m_informer->addEventHandler(m_batcher->handler());
    m_replay->setFinishedCallback([this] { m_drain.start(); });
    m_informer->run();
}

void ReplayCommand::printGet()
{
    GetCommand::Options options = m_options.get;
    const QString &ns = options.request.namespaceName;
    if (!options.request.allNamespaces && !ns.isEmpty() && m_resource.namespaced && options.indexName.isEmpty()) {
        // An informer of every namespace, asked for one: its namespace index answers.
        options.indexName = u"namespace"_s;
        options.indexValue = ns;
    }
    if (options.request.namespaceName.isEmpty()) {
        options.request.allNamespaces = true;
    }
    const bool printed = GetCommand::print(*m_informer, m_resource, ResourceColumns::forResource(m_resource), options, m_out, m_err);
    finish(printed ? 0 : 1);
}

void ReplayCommand::stop()
{
    finish(0);
}

void ReplayCommand::finish(int exitCode)
{
    if (m_done) {
        return;
    }
    m_done = true;
    m_drain.stop();
    // The replaying ListerWatcher belongs to the informer's reflector, which stop() deletes on
    // its thread: its position is read before.
    const auto position = m_replay ? m_replay->position() : 0;
    m_replay = nullptr;
    if (m_informer) {
        m_informer->stop();
    }
    if (m_batcher) {
        m_batcher->flush();
        m_err << "replayed " << position << " of the recording's inputs, notifications " << m_printed << Qt::endl;
    }
    Q_EMIT finished(exitCode);
}

} // namespace Cachescope
