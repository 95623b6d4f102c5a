#include "core/cli/controlcommand.h"

#include "core/cli/tableprinter.h"
#include "core/controller/controller.h"
#include "core/controller/durationtext.h"
#include "core/controller/findingsstore.h"
#include "core/controller/processfunctionregistry.h"

#include <QTextStream>
#include <QTimer>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

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
    QString error;
    std::optional<ProcessFunctionParameters> parameters = ProcessFunctionParameters::fromAssignments(m_options.parameters, &error);
    if (parameters) {
        parameters->ownerLookup = m_options.ownerLookup;
    }
    std::unique_ptr<ProcessFunction> function = parameters ? makeProcessFunction(m_options.controller, *parameters, &error) : nullptr;
    if (!function) {
        m_err << "error: " << error << '\n';
        done(1);
        return;
    }
    m_controller = std::make_unique<Controller>(m_informer, std::shared_ptr<ProcessFunction>(std::move(function)), m_options.settings);
    connect(m_controller.get(), &Controller::gaveUp, this, [this](const QString &key, const QString &message) {
        m_err << "warning: gave up on " << key << " after " << m_options.settings.maxRetries << " retries: " << message << '\n';
        m_err.flush();
    });
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
            help += u"  %1: owners are looked up in informers of ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs and Nodes\n"_s.arg(name);
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
    m_out.flush();
    m_err.flush();
    // Reported from the event loop so that a caller connecting after start() still hears it.
    QTimer::singleShot(0, this, [this, exitCode] { Q_EMIT finished(exitCode); });
}

} // namespace Cachescope
