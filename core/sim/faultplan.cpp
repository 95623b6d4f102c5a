#include "core/sim/faultplan.h"

#include <QMutexLocker>
#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {
int index(FaultPlan::Fault fault)
{
    return int(fault);
}
} // namespace

FaultPlan::FaultPlan(quint64 seed)
    : m_random(seed)
{
    m_clock.start();
}

void FaultPlan::reseed(quint64 seed)
{
    QMutexLocker locker(&m_mutex);
    m_random.seed(seed);
}

void FaultPlan::clear()
{
    QMutexLocker locker(&m_mutex);
    m_probability.fill(0);
    m_forced.fill(0);
    m_restartIntervalMs = 0;
}

QString FaultPlan::name(Fault fault)
{
    switch (fault) {
    case Fault::Drop:
        return u"drop"_s;
    case Fault::Truncate:
        return u"truncate"_s;
    case Fault::Gone:
        return u"gone"_s;
    case Fault::Throttle:
        return u"throttle"_s;
    case Fault::ServerError:
        return u"error"_s;
    case Fault::Latency:
        return u"latency"_s;
    case Fault::Stall:
        return u"stall"_s;
    case Fault::Restart:
        return u"restart"_s;
    case Fault::Reset:
        return u"reset"_s;
    case Fault::HalfOpen:
        return u"halfopen"_s;
    case Fault::GoAway:
        return u"goaway"_s;
    }
    return {};
}

std::optional<FaultPlan::Fault> FaultPlan::fromName(const QString &name)
{
    for (int i = 0; i < FaultCount; ++i) {
        if (FaultPlan::name(Fault(i)) == name)
            return Fault(i);
    }
    return std::nullopt;
}

bool FaultPlan::appliesTo(Fault fault, RequestKind kind)
{
    switch (fault) {
    case Fault::Drop:
    case Fault::Throttle:
    case Fault::ServerError:
    case Fault::Latency:
        return true;
    case Fault::Truncate:
        return kind != RequestKind::Get;
    case Fault::Gone:
    case Fault::Stall:
        return kind == RequestKind::Watch;
    case Fault::Restart:
        return false;
    case Fault::Reset:
    case Fault::HalfOpen:
    case Fault::GoAway:
        return true;
    }
    return false;
}

bool FaultPlan::isConnectionFault(Fault fault)
{
    return fault == Fault::Reset || fault == Fault::HalfOpen || fault == Fault::GoAway;
}

bool FaultPlan::setSpec(const QString &spec, QString *error)
{
    std::array<double, FaultCount> probability{};
    int latencyMs = 100;
    int retryAfter = 1;
    int errorCode = 500;
    int goAwayGraceMs = 1000;
    int restartMs = 0;
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QStringList items = spec.split(u',', Qt::SkipEmptyParts);
    for (const QString &item : items) {
        const qsizetype eq = item.indexOf(u'=');
        if (eq <= 0)
            return fail(u"fault item \"%1\" is not NAME=VALUE"_s.arg(item));
        const QString key = item.left(eq).trimmed();
        const QStringList values = item.mid(eq + 1).split(u':');
        const std::optional<Fault> fault = fromName(key);
        if (!fault)
            return fail(u"unknown fault \"%1\" (drop, truncate, gone, throttle, error, latency, stall, restart, reset, halfopen, goaway)"_s.arg(key));
        bool ok = false;
        if (*fault == Fault::Restart) {
            const double seconds = values.value(0).toDouble(&ok);
            if (!ok || seconds < 0)
                return fail(u"restart needs a number of seconds"_s);
            restartMs = int(seconds * 1000);
            continue;
        }
        const double p = values.value(0).toDouble(&ok);
        if (!ok || p < 0 || p > 1)
            return fail(u"probability of %1 must be within [0,1]"_s.arg(key));
        probability[index(*fault)] = p;
        if (values.size() > 1) {
            const int parameter = values.at(1).toInt(&ok);
            if (!ok || parameter < 0)
                return fail(u"bad parameter for %1"_s.arg(key));
            if (*fault == Fault::Latency)
                latencyMs = parameter;
            else if (*fault == Fault::Throttle)
                retryAfter = parameter;
            else if (*fault == Fault::ServerError)
                errorCode = parameter;
            else if (*fault == Fault::GoAway)
                goAwayGraceMs = parameter;
        }
    }
    QMutexLocker locker(&m_mutex);
    m_probability = probability;
    m_latencyMs = latencyMs;
    m_retryAfterSeconds = retryAfter;
    m_errorCode = errorCode;
    m_goAwayGraceMs = goAwayGraceMs;
    m_restartIntervalMs = restartMs;
    return true;
}

QString FaultPlan::spec() const
{
    QMutexLocker locker(&m_mutex);
    QStringList items;
    for (int i = 0; i < FaultCount; ++i) {
        const Fault fault = Fault(i);
        if (fault == Fault::Restart || m_probability[i] <= 0)
            continue;
        QString item = name(fault) + u'=' + QString::number(m_probability[i]);
        if (fault == Fault::Latency)
            item += u':' + QString::number(m_latencyMs);
        else if (fault == Fault::Throttle)
            item += u':' + QString::number(m_retryAfterSeconds);
        else if (fault == Fault::ServerError)
            item += u':' + QString::number(m_errorCode);
        else if (fault == Fault::GoAway)
            item += u':' + QString::number(m_goAwayGraceMs);
        items.append(item);
    }
    if (m_restartIntervalMs > 0)
        items.append(u"restart="_s + QString::number(m_restartIntervalMs / 1000.0));
    return items.join(u',');
}

void FaultPlan::setProbability(Fault fault, double probability)
{
    QMutexLocker locker(&m_mutex);
    m_probability[index(fault)] = qBound(0.0, probability, 1.0);
}

double FaultPlan::probability(Fault fault) const
{
    QMutexLocker locker(&m_mutex);
    return m_probability[index(fault)];
}

void FaultPlan::setLatencyMs(int ms)
{
    QMutexLocker locker(&m_mutex);
    m_latencyMs = qMax(0, ms);
}

void FaultPlan::setRetryAfterSeconds(int seconds)
{
    QMutexLocker locker(&m_mutex);
    m_retryAfterSeconds = qMax(0, seconds);
}

void FaultPlan::setErrorCode(int code)
{
    QMutexLocker locker(&m_mutex);
    m_errorCode = code;
}

void FaultPlan::setGoAwayGraceMs(int ms)
{
    QMutexLocker locker(&m_mutex);
    m_goAwayGraceMs = qMax(0, ms);
}

void FaultPlan::setRestartIntervalMs(int ms)
{
    QMutexLocker locker(&m_mutex);
    m_restartIntervalMs = qMax(0, ms);
}

int FaultPlan::restartIntervalMs() const
{
    QMutexLocker locker(&m_mutex);
    return m_restartIntervalMs;
}

void FaultPlan::injectNext(Fault fault, int count)
{
    QMutexLocker locker(&m_mutex);
    m_forced[index(fault)] += count;
}

FaultPlan::Decision FaultPlan::decide(RequestKind kind, const QString &target)
{
    QMutexLocker locker(&m_mutex);
    Decision decision;
    decision.retryAfterSeconds = m_retryAfterSeconds;
    decision.errorCode = m_errorCode;
    decision.goAwayGraceMs = m_goAwayGraceMs;
    // Two draws per request, always, whatever the outcome: the sequence of draws (and so every
    // later decision) depends only on the seed and the number of requests, not on the rules.
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const double faultDraw = uniform(m_random);
    const double latencyDraw = uniform(m_random);

    if (m_forced[index(Fault::Latency)] > 0) {
        --m_forced[index(Fault::Latency)];
        decision.latencyMs = m_latencyMs;
    } else if (latencyDraw < m_probability[index(Fault::Latency)]) {
        decision.latencyMs = m_latencyMs;
    }

    static constexpr const char *KindNames[] = {"list", "get", "watch"};
    const auto logDecision = [&] {
        QString line = QString::number(m_clock.elapsed() / 1000.0, 'f', 3) + u' ' + QLatin1String(KindNames[int(kind)]) + u' ' + target;
        if (const std::optional<Fault> fault = decision.fault ? decision.fault : decision.connectionFault)
            line += u" -> "_s + name(*fault) + (decision.forced ? u" (forced)"_s : QString());
        if (decision.latencyMs > 0)
            line += u" +%1 ms"_s.arg(decision.latencyMs);
        log(line);
    };
    for (int i = 0; i < FaultCount; ++i) {
        const Fault fault = Fault(i);
        if (fault != Fault::Latency && m_forced[i] > 0 && appliesTo(fault, kind)) {
            --m_forced[i];
            (isConnectionFault(fault) ? decision.connectionFault : decision.fault) = fault;
            decision.forced = true;
            logDecision();
            return decision;
        }
    }
    double cumulative = 0;
    for (int i = 0; i < FaultCount; ++i) {
        const Fault fault = Fault(i);
        if (fault == Fault::Latency || !appliesTo(fault, kind))
            continue;
        cumulative += m_probability[i];
        if (faultDraw < cumulative) {
            (isConnectionFault(fault) ? decision.connectionFault : decision.fault) = fault;
            break;
        }
    }
    logDecision();
    return decision;
}

void FaultPlan::release(const Decision &decision, const QString &why)
{
    if (!decision.fault || !decision.forced)
        return;
    QMutexLocker locker(&m_mutex);
    ++m_forced[index(*decision.fault)];
    log(QString::number(m_clock.elapsed() / 1000.0, 'f', 3) + u" forced "_s + name(*decision.fault) + u" handed back: "_s + why);
}

void FaultPlan::log(const QString &line)
{
    if (m_log.size() < LogSize) {
        m_log.append(line);
        return;
    }
    m_log[m_logNext] = line;
    m_logNext = (m_logNext + 1) % LogSize;
}

QStringList FaultPlan::recentRequests() const
{
    QMutexLocker locker(&m_mutex);
    return m_log.mid(m_logNext) + m_log.first(m_logNext);
}

void FaultPlan::recordInjected(Fault fault)
{
    QMutexLocker locker(&m_mutex);
    ++m_injected[index(fault)];
}

int FaultPlan::injectedCount(Fault fault) const
{
    QMutexLocker locker(&m_mutex);
    return m_injected[index(fault)];
}

} // namespace Cachescope::Sim
