#include "core/cli/eventscommand.h"

#include "core/printers/duration.h"
#include "core/printers/tableprinter.h"
#include "core/relations/objectevents.h"

#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString since(const QDateTime &time, const QDateTime &now)
{
    // kubectl prints <unknown> for a zero timestamp.
    return time.isValid() ? humanDuration(std::chrono::milliseconds(time.msecsTo(now))) : u"<unknown>"_s;
}

} // namespace

EventsCommand::EventsCommand(
    const Kubeconfig &config, const QString &context, const ObjectLookup::Target &target, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_target(target)
    , m_out(out)
    , m_err(err)
    , m_lookup(std::make_unique<ObjectLookup>(config, context, target, err))
{
    connect(m_lookup.get(), &ObjectLookup::failed, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        m_done = true;
        Q_EMIT finished(1);
    });
    connect(m_lookup.get(), &ObjectLookup::found, this, &EventsCommand::onFound);
}

EventsCommand::~EventsCommand() = default;

void EventsCommand::start()
{
    m_lookup->start();
}

void EventsCommand::onFound(const ObjectRef &object)
{
    m_object = object;
    m_events = std::make_unique<ObjectEvents>(m_lookup->cluster(), object.namespaceName);
    if (!m_events->isAvailable()) {
        m_err << "error: the server serves no events this client may list and watch" << Qt::endl;
        m_done = true;
        Q_EMIT finished(1);
        return;
    }
    connect(m_events.get(), &ObjectEvents::synced, this, [this] {
        if (!m_done) {
            print();
        }
    });
    QTimer::singleShot(m_target.request.timeout, this, [this] {
        if (!m_done) {
            m_err << "error: the events did not sync in time" << Qt::endl;
            m_done = true;
            Q_EMIT finished(1);
        }
    });
}

void EventsCommand::print()
{
    m_done = true;
    const QList<EventRecord> events = m_events->eventsFor(m_object);
    if (events.isEmpty()) {
        m_err << "No events found in " << (m_object.namespaceName.isEmpty() ? u"default"_s : m_object.namespaceName) << " namespace." << Qt::endl;
    } else {
        printEvents(events, QDateTime::currentDateTimeUtc(), m_out);
        m_out.flush();
    }
    Q_EMIT finished(0);
}

void EventsCommand::printEvents(const QList<EventRecord> &events, const QDateTime &now, QTextStream &out)
{
    TablePrinter table({u"LAST SEEN"_s, u"TYPE"_s, u"REASON"_s, u"OBJECT"_s, u"MESSAGE"_s});
    // kubectl events prints the oldest first, so the newest is next to the prompt.
    for (auto it = events.crbegin(); it != events.crend(); ++it) {
        QString lastSeen = since(it->lastSeen, now);
        if (it->count > 1) {
            lastSeen += u" (x%1 over %2)"_s.arg(it->count).arg(since(it->firstSeen, now));
        }
        table.addRow({lastSeen, it->type, it->reason, it->objectKind.toLower() + u'/' + it->objectName, it->message.trimmed()});
    }
    table.print(out);
}

} // namespace Cachescope
