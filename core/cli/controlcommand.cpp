#include "core/cli/controlcommand.h"

#include "core/cli/informersession.h"
#include "core/controller/controller.h"
#include "core/controller/controllersession.h"
#include "core/controller/findingsstore.h"
#include "core/controller/ownerinformers.h"
#include "core/controller/processfunctionregistry.h"
#include "core/controller/processlog.h"
#include "core/printers/duration.h"
#include "core/printers/tableprinter.h"

#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

void ControlCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOption({u"controller"_s, u"control: the built-in controller to run (see control --help)."_s, u"name"_s});
    parser.addOption({u"param"_s, u"control: a parameter of the controller, name=value (repeatable)."_s, u"name=value"_s});
    parser.addOption({u"workers"_s, u"control: worker threads (default 2)."_s, u"n"_s, u"2"_s});
    parser.addOption({u"max-retries"_s, u"control: failures of a key before it is given up on (default 5)."_s, u"n"_s, u"5"_s});
}

std::optional<ControlCommand::Options> ControlCommand::fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage)
{
    const auto request = InformerRequest::fromParser(parser, resource, errorMessage);
    if (!request) {
        return std::nullopt;
    }
    if (request->resource.contains(u',')) {
        *errorMessage = u"control runs a controller on one resource, not \"%1\""_s.arg(request->resource);
        return std::nullopt;
    }
    Options options;
    options.request = *request;
    options.controller = parser.value(u"controller"_s);
    if (options.controller.isEmpty()) {
        *errorMessage = u"control needs --controller NAME (one of: %1)"_s.arg(controllerNames().join(u", "_s));
        return std::nullopt;
    }
    options.parameters = parser.values(u"param"_s);
    auto parameters = ProcessFunctionParameters::fromAssignments(options.parameters, errorMessage);
    if (!parameters) {
        return std::nullopt;
    }
    // The real lookup exists only once the owners' informers run; this one lets the check of
    // the name and parameters pass for owner-references.
    parameters->ownerLookup = [](const QString &, const KubeObject::OwnerReference &) {
        return std::optional<KubeObject>();
    };
    if (!makeProcessFunction(options.controller, *parameters, errorMessage)) {
        return std::nullopt;
    }
    bool ok = false;
    options.settings.workers = parser.value(u"workers"_s).toInt(&ok);
    if (!ok || options.settings.workers < 1 || options.settings.workers > 256) {
        *errorMessage = u"--workers: expected a number from 1 to 256, got \"%1\""_s.arg(parser.value(u"workers"_s));
        return std::nullopt;
    }
    options.settings.maxRetries = parser.value(u"max-retries"_s).toInt(&ok);
    if (!ok || options.settings.maxRetries < 0) {
        *errorMessage = u"--max-retries: expected a number from 0, got \"%1\""_s.arg(parser.value(u"max-retries"_s));
        return std::nullopt;
    }
    if (parser.isSet(u"for"_s)) {
        const auto duration = parseDuration(parser.value(u"for"_s));
        if (!duration || duration->count() <= 0) {
            *errorMessage = u"--for: expected a duration such as 30s or 5m, got \"%1\""_s.arg(parser.value(u"for"_s));
            return std::nullopt;
        }
        options.duration = *duration;
    }
    return options;
}

ControlCommand::ControlCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_out(out)
    , m_err(err)
    , m_session(std::make_unique<InformerSession>(config, context, options.request, err))
{
    connect(m_session.get(), &InformerSession::failed, this, [this](const QString &message) {
        m_err << "error: " << message << '\n';
        done(1);
    });
    connect(m_session.get(), &InformerSession::ready, this, &ControlCommand::onSessionReady);
}

ControlCommand::ControlCommand(SharedIndexInformer *informer, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_informer(informer)
    , m_options(options)
    , m_out(out)
    , m_err(err)
{
}

ControlCommand::~ControlCommand() = default;

void ControlCommand::start()
{
    if (m_session) {
        m_session->start();
        return;
    }
    runController();
}

void ControlCommand::onSessionReady()
{
    m_informer = m_session->informer();
    const auto info = controllerInfo(m_options.controller);
    if (info && info->needsOwnerLookup && !m_options.ownerLookup) {
        startOwnerInformers();
        return;
    }
    runController();
}

void ControlCommand::startOwnerInformers()
{
    const InformerRequest &request = m_session->request();
    m_owners = new OwnerInformers(m_session->cluster(), request.allNamespaces ? QString() : request.namespaceName, this);
    m_options.ownerLookup = m_owners->lookup();
    connect(m_owners, &OwnerInformers::synced, this, [this] {
        if (!m_controller && !m_ended) {
            runController();
        }
    });
    // The request's timeout bounds the owners' sync as it bounded the resource's.
    QTimer::singleShot(request.timeout, this, [this] {
        if (!m_controller && !m_ended) {
            m_err << "error: the informers of the owners did not sync in time (" << m_owners->pendingKinds().join(u", "_s) << ")\n";
            done(1);
        }
    });
}

void ControlCommand::runController()
{
    QString error;
    m_controller = ControllerSession::makeController(m_informer, m_options.controller, m_options.parameters, m_options.ownerLookup, m_options.settings, &error);
    if (!m_controller) {
        m_err << "error: " << error << '\n';
        done(1);
        return;
    }
    m_controller->start();
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &ControlCommand::finish);
    m_timer->start(m_options.duration);
}

void ControlCommand::finish()
{
    // The gauges (unfinished work, longest running) mean something only while work is going
    // on: take the metrics as the duration ends, before the drain empties the queue.
    const QueueMetrics metrics = m_controller->metrics();
    m_controller->stop();
    // From the process log once the workers are joined, so that every give-up is reported,
    // those of the drain included.
    for (const ProcessRecord &record : m_controller->processLog().since(0).entries) {
        if (record.outcome == ProcessOutcome::GaveUp) {
            m_err << "warning: gave up on " << record.key << " after " << record.attempt << " retries: " << record.message << '\n';
        }
    }
    printFindings(*m_controller->findings(), m_out);
    m_out << '\n';
    printMetrics(metrics, m_out);
    const Controller::Counters counters = m_controller->counters();
    m_out << '\n'
          << "Processed " << counters.processed << ": " << counters.succeeded << " succeeded, " << counters.retried << " retried, " << counters.gaveUp
          << " gave up, " << counters.dropped << " dropped\n";
    done(0);
}

QString ControlCommand::controllersHelp()
{
    QString help = u"Controllers:\n"_s;
    const QStringList names = controllerNames();
    qsizetype width = 0;
    for (const QString &name : names) {
        width = std::max(width, name.size());
    }
    for (const QString &name : names) {
        const ControllerInfo info = *controllerInfo(name);
        help += u"  "_s + name.leftJustified(width + 2) + info.description + u'\n';
    }
    help += u"\nParameters (--param name=value):\n"_s;
    for (const QString &name : names) {
        const ControllerInfo info = *controllerInfo(name);
        for (const ControllerInfo::Parameter &parameter : info.parameters) {
            help += u"  %1 %2: %3 (default %4)\n"_s.arg(name, parameter.name, parameter.description, parameter.defaultValue);
        }
        if (info.needsOwnerLookup) {
            help += u"  %1: owners are looked up in informers of %2\n"_s.arg(name, OwnerInformers::kinds().join(u", "_s));
        }
    }
    return help;
}

void ControlCommand::printFindings(const FindingsStore &findings, QTextStream &out)
{
    const QHash<QString, QList<Finding>> all = findings.all();
    if (all.isEmpty()) {
        out << "No findings.\n";
        return;
    }
    QStringList keys = all.keys();
    std::sort(keys.begin(), keys.end());
    TablePrinter table({u"KEY"_s, u"SEVERITY"_s, u"REASON"_s, u"MESSAGE"_s});
    for (const QString &key : std::as_const(keys)) {
        for (const Finding &finding : all.value(key)) {
            table.addRow({key, findingSeverityName(finding.severity), finding.reason, finding.message});
        }
    }
    table.print(out);
}

void ControlCommand::printMetrics(const QueueMetrics &metrics, QTextStream &out)
{
    const auto p50p99 = [](const DurationHistogram &histogram) {
        if (histogram.count() == 0) {
            return u"-"_s;
        }
        return u"p50 %1, p99 %2"_s.arg(durationText(histogram.quantile(0.5)), durationText(histogram.quantile(0.99)));
    };
    TablePrinter table({u"METRIC"_s, u"VALUE"_s});
    table.addRow({u"depth"_s, QString::number(metrics.depth)});
    table.addRow({u"adds"_s, QString::number(metrics.adds)});
    table.addRow({u"retries"_s, QString::number(metrics.retries)});
    table.addRow({u"queue latency"_s, p50p99(metrics.queueLatency)});
    table.addRow({u"work duration"_s, p50p99(metrics.workDuration)});
    table.addRow({u"unfinished work"_s, durationText(metrics.unfinishedWork)});
    table.addRow({u"longest running"_s, durationText(metrics.longestRunningProcessor)});
    table.print(out);
}

void ControlCommand::done(int exitCode)
{
    m_ended = true;
    m_out.flush();
    m_err.flush();
    // Reported from the event loop so that a caller connecting after start() still hears it.
    QTimer::singleShot(0, this, [this, exitCode] { Q_EMIT finished(exitCode); });
}

} // namespace Cachescope
