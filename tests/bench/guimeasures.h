#pragma once

// What the GUI benches measure of a running application: the GUI thread's CPU time, the event
// loop's latency (LatencyProbe), the process's resident memory, and an idle run of the loop.

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <utility>
#include <vector>

namespace CachescopeBench {

// The GUI thread's CPU time in ms: on a shared machine, wall time alone mixes in other load.
inline double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// LatencyProbe measures how late a 1 ms repeating timer fires on the GUI thread: whatever
// blocks the event loop (applying a batch, re-sorting, painting) shows up as lateness.
class LatencyProbe
{
public:
    LatencyProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last >= 0) {
                m_samples.push_back(std::max<qint64>(0, now - m_last - 1000000) / 1000); // µs late
            }
            m_last = now;
        });
    }

    void start()
    {
        m_cpuStart = threadCpuMs();
        m_wall.start();
        m_samples.clear();
        m_last = -1;
        m_clock.start();
        m_timer.start();
    }

    // skip() leaves the time until the next tick out: the benchmark's own work on the GUI thread
    // (bench_soak's memory samples), which it times and reports on its own.
    void skip() { m_last = -1; }

    struct Figures
    {
        double p50 = 0;
        double p99 = 0;
        double max = 0;
        size_t samples = 0;
        double cpuPercent = 0; // of the GUI thread over the phase
    };

    Figures stop()
    {
        m_timer.stop();
        Figures figures;
        figures.cpuPercent = 100.0 * (threadCpuMs() - m_cpuStart) / std::max<double>(1.0, double(m_wall.elapsed()));
        if (m_samples.empty()) {
            return figures;
        }
        std::sort(m_samples.begin(), m_samples.end());
        const auto at = [this](double q) {
            return double(m_samples[std::min(m_samples.size() - 1, size_t(q * double(m_samples.size())))]) / 1000.0;
        };
        figures.p50 = at(0.50);
        figures.p99 = at(0.99);
        figures.max = double(m_samples.back()) / 1000.0;
        figures.samples = m_samples.size();
        return figures;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    QElapsedTimer m_wall;
    double m_cpuStart = 0;
    qint64 m_last = -1;
    std::vector<qint64> m_samples;
};

// residentMb() is the process's resident set now and at its peak (VmRSS, VmHWM), in MB.
inline std::pair<double, double> residentMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    double now = 0;
    double peak = 0;
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            const auto kb = [&line] {
                return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
            };
            if (line.startsWith("VmRSS:")) {
                now = kb();
            } else if (line.startsWith("VmHWM:")) {
                peak = kb();
            }
        }
    }
    return {now, peak};
}

inline void printResident(const char *stage)
{
    const auto [now, peak] = residentMb();
    std::printf("RSS %-30s %8.0f MB (peak %.0f MB)\n", stage, now, peak);
}

// spin() runs the event loop for ms, idle when nothing is due (a processEvents() loop would
// busy-wait and count as GUI CPU).
inline void spin(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace CachescopeBench
