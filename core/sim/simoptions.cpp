#include "core/sim/simoptions.h"

#include "core/sim/certificateauthority.h"
#include "core/sim/faultplan.h"

#include <QCommandLineParser>
#include <QHash>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

void SimOptions::addOptions(QCommandLineParser &parser)
{
    parser.addOption({u"listen"_s, u"Address and port to listen on (default 127.0.0.1:0, an ephemeral port)."_s, u"ADDR:PORT"_s});
    parser.addOption({u"tls"_s, u"Serve HTTPS with a generated CA (the default)."_s});
    parser.addOption({u"plain"_s, u"Serve plain HTTP (token authentication only)."_s});
    parser.addOption({u"serving-certificate"_s,
                      u"The serving certificate: valid (the default), expired (a day ago) or wrong-name (only %1), to try clients' TLS errors."_s.arg(
                          QString::fromLatin1(CertificateAuthority::OtherServingName)),
                      u"kind"_s,
                      u"valid"_s});
    parser.addOption({u"http1-only"_s, u"Speak HTTP/1.1 only: no h2 by ALPN over TLS, no h2c with prior knowledge over plain HTTP."_s});
    parser.addOption({u"kubeconfig-out"_s, u"Where to write the kubeconfig for clients."_s, u"FILE"_s});
    parser.addOption({u"namespaces"_s, u"Application namespaces to generate."_s, u"N"_s, u"3"_s});
    parser.addOption({u"nodes"_s, u"Nodes to generate."_s, u"N"_s, u"3"_s});
    parser.addOption({u"pods"_s, u"Pods to generate (in deployments)."_s, u"N"_s, u"30"_s});
    parser.addOption({u"churn"_s, u"Changes per second after start."_s, u"EVENTS_PER_S"_s, u"0"_s});
    parser.addOption({u"history"_s, u"Watch events kept for resumption at least; older versions get 410."_s, u"N"_s, u"10000"_s});
    parser.addOption(
        {u"history-window"_s, u"Seconds of watch events kept besides (the apiserver's watch cache keeps ~75); 0: only --history."_s, u"S"_s, u"75"_s});
    parser.addOption({u"faults"_s,
                      u"Fault plan, e.g. drop=0.02,throttle=0.05:1,latency=0.1:200,restart=30. Per request: drop, truncate, gone, throttle, error, "
                      u"latency, stall; on the whole connection (every HTTP/2 stream on it): reset, halfopen, goaway[:GRACE_MS]."_s,
                      u"SPEC"_s});
    parser.addOption({u"seed"_s, u"Seed of the workload and the fault plan."_s, u"S"_s, u"1"_s});
    parser.addOption({u"log-rate"_s, u"Lines a second each container's log writes (at most 500); 0: its image's pace."_s, u"LINES_PER_S"_s, u"0"_s});
    parser.addOption(
        {u"replay"_s, u"Serve a recording (cachescope-cli record) read-only instead of a generated workload: writes get 405 MethodNotAllowed."_s, u"FILE"_s});
    parser.addOption({u"at"_s, u"--replay: the instant to start from, RFC 3339 or an offset from the start (+90s); default: the start."_s, u"TIME"_s});
    parser.addOption({u"speed"_s, u"--replay: × the recorded pace of the events after --at; 0: all at once."_s, u"N"_s, u"1"_s});
    parser.addOption({u"bookmark-interval"_s, u"Milliseconds between watch bookmarks."_s, u"MS"_s, u"5000"_s});
    parser.addOption({u"continue-ttl"_s, u"Milliseconds a continue token stays valid."_s, u"MS"_s, u"300000"_s});
}

SimOptions SimOptions::forDemo(int pods, double churn)
{
    SimOptions options;
    options.pods = pods;
    options.churn = churn;
    options.namespaces = 6;
    options.nodes = std::max(3, pods / 100);
    return options;
}

std::optional<SimOptions> SimOptions::fromParser(const QCommandLineParser &parser, QString *error)
{
    SimOptions options;
    auto fail = [error](const QString &why) -> std::optional<SimOptions> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (parser.isSet(u"listen"_s)) {
        const QString listen = parser.value(u"listen"_s);
        const qsizetype colon = listen.lastIndexOf(u':');
        bool ok = false;
        const uint port = listen.mid(colon + 1).toUInt(&ok);
        QString host = colon >= 0 ? listen.left(colon) : listen;
        if (host.startsWith(u'[') && host.endsWith(u']'))
            host = host.mid(1, host.size() - 2);
        if (colon < 0 || !ok || port > 65535 || !options.address.setAddress(host))
            return fail(u"--listen wants ADDR:PORT, e.g. 127.0.0.1:0, got %1"_s.arg(listen));
        options.port = quint16(port);
    }
    if (parser.isSet(u"tls"_s) && parser.isSet(u"plain"_s))
        return fail(u"--tls and --plain exclude each other"_s);
    options.tls = !parser.isSet(u"plain"_s);
    static const QHash<QString, ServingCertificate> servingCertificates{
        {u"valid"_s, ServingCertificate::Valid}, {u"expired"_s, ServingCertificate::Expired}, {u"wrong-name"_s, ServingCertificate::WrongName}};
    if (!servingCertificates.contains(parser.value(u"serving-certificate"_s)))
        return fail(u"--serving-certificate wants valid, expired or wrong-name, got %1"_s.arg(parser.value(u"serving-certificate"_s)));
    options.servingCertificate = servingCertificates.value(parser.value(u"serving-certificate"_s));
    options.http1Only = parser.isSet(u"http1-only"_s);
    options.kubeconfigOut = parser.value(u"kubeconfig-out"_s);
    bool ok = true;
    auto number = [&](const QString &name, int minimum) {
        const int value = parser.value(name).toInt(&ok);
        if (value < minimum)
            ok = false;
        return value;
    };
    options.namespaces = number(u"namespaces"_s, 0);
    if (!ok)
        return fail(u"--namespaces wants a number"_s);
    options.nodes = number(u"nodes"_s, 0);
    if (!ok)
        return fail(u"--nodes wants a number"_s);
    options.pods = number(u"pods"_s, 0);
    if (!ok)
        return fail(u"--pods wants a number"_s);
    options.history = number(u"history"_s, 1);
    if (!ok)
        return fail(u"--history wants a positive number"_s);
    options.historyWindowMs = number(u"history-window"_s, 0) * 1000;
    if (!ok)
        return fail(u"--history-window wants seconds"_s);
    options.bookmarkIntervalMs = number(u"bookmark-interval"_s, 10);
    if (!ok)
        return fail(u"--bookmark-interval wants milliseconds"_s);
    options.continueTtlMs = number(u"continue-ttl"_s, 0);
    if (!ok)
        return fail(u"--continue-ttl wants milliseconds"_s);
    options.churn = parser.value(u"churn"_s).toDouble(&ok);
    if (!ok || options.churn < 0)
        return fail(u"--churn wants events per second"_s);
    options.seed = parser.value(u"seed"_s).toULongLong(&ok);
    if (!ok)
        return fail(u"--seed wants a number"_s);
    options.logLinesPerSecond = parser.value(u"log-rate"_s).toDouble(&ok);
    if (!ok || options.logLinesPerSecond < 0 || options.logLinesPerSecond > 500)
        return fail(u"--log-rate wants lines per second, 0 to 500"_s);
    options.replay = parser.value(u"replay"_s);
    options.replayAt = parser.value(u"at"_s);
    options.replaySpeed = parser.value(u"speed"_s).toDouble(&ok);
    if (!ok || options.replaySpeed < 0)
        return fail(u"--speed wants a factor, e.g. 2 or 0.5"_s);
    if (options.replay.isEmpty() && (parser.isSet(u"at"_s) || parser.isSet(u"speed"_s)))
        return fail(u"--at and --speed go with --replay"_s);
    if (!options.replay.isEmpty() && options.churn > 0)
        return fail(u"--churn and --replay exclude each other: a recording is served as it was"_s);
    options.faults = parser.value(u"faults"_s);
    FaultPlan probe;
    QString faultError;
    if (!probe.setSpec(options.faults, &faultError))
        return fail(u"--faults: "_s + faultError);
    return options;
}

} // namespace Cachescope::Sim
