#include "core/controller/simulatedwork.h"

#include <QHashFunctions>

#include <random>
#include <thread>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

SimulatedWork::SimulatedWork(const Settings &settings)
    : m_settings(settings)
{
}

QString SimulatedWork::name() const
{
    return u"simulated-work"_s;
}

bool SimulatedWork::fails(const QString &key, int attempt) const
{
    if (m_settings.failureRate <= 0.0) {
        return false;
    }
    if (m_settings.failureRate >= 1.0) {
        return true;
    }
    // qHash with a fixed seed is stable within and across runs of one build, which is what
    // "the same settings fail the same attempts" needs.
    const size_t keyHash = qHash(key, size_t(0x5eed));
    std::seed_seq seeds{quint32(m_settings.seed), quint32(m_settings.seed >> 32), quint32(keyHash), quint32(quint64(keyHash) >> 32), quint32(attempt)};
    std::mt19937_64 random(seeds);
    return std::uniform_real_distribution<double>(0.0, 1.0)(random) < m_settings.failureRate;
}

ProcessResult SimulatedWork::process(const QString &key, const KubeObject &object, const ProcessContext &context)
{
    Q_UNUSED(object)
    if (m_settings.duration.count() > 0) {
        // A worker thread, never the GUI thread: sleeping is the work being simulated.
        std::this_thread::sleep_for(m_settings.duration);
    }
    if (fails(key, context.attempt)) {
        return ProcessResult::error(u"simulated failure (attempt %1)"_s.arg(context.attempt + 1), m_settings.retryable);
    }
    return ProcessResult::ok();
}

ControllerInfo SimulatedWork::info()
{
    ControllerInfo info;
    info.name = u"simulated-work"_s;
    info.description =
        QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "Works for a while and fails at random on purpose, to show backoff and retries."));
    info.parameters = {
        {u"durationMs"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "how long each attempt works, in milliseconds")), u"50"_s},
        {u"failureRate"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "probability that an attempt fails, 0 to 1")), u"0.3"_s},
        {u"seed"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "seed of the failures")), u"1"_s},
        {u"retryable"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "whether failures are retried (true) or dropped (false)")), u"true"_s},
    };
    return info;
}

std::unique_ptr<ProcessFunction> SimulatedWork::create(const ProcessFunctionParameters &parameters, QString *error)
{
    Settings settings;
    const auto duration = parameters.integer(u"durationMs"_s, 50, 0, 3600 * 1000, error);
    const auto rate = duration ? parameters.number(u"failureRate"_s, settings.failureRate, 0.0, 1.0, error) : std::nullopt;
    const auto seed = rate ? parameters.integer(u"seed"_s, 1, 0, std::numeric_limits<qint64>::max(), error) : std::nullopt;
    const auto retryable = seed ? parameters.boolean(u"retryable"_s, true, error) : std::nullopt;
    if (!retryable) {
        return nullptr;
    }
    settings.duration = std::chrono::milliseconds(*duration);
    settings.failureRate = *rate;
    settings.seed = quint64(*seed);
    settings.retryable = *retryable;
    return std::make_unique<SimulatedWork>(settings);
}

} // namespace Cachescope
