#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

namespace Cachescope::Sim {

// ContainerLogGenerator is the log of one instance of one container, made up on demand: line i
// and its time are pure functions of (seed, i), so a container that has run for hours answers
// tailLines, sinceSeconds and follow without the simulator keeping a byte of it. The lines are
// what the container's image suggests: a web server (nginx, web, api images) writes access
// lines, anything else a worker's job lines; both start with a burst of startup lines (one that
// says the container was restarted, when it was), fail now and then, and an instance that has
// terminated ends with the warnings and the fatal error that killed it (exit 137: OOMKilled).
//
// Times are milliseconds since the epoch. Lines are in time order, never two in the same
// millisecond; lineCountAt() and firstLineAtOrAfter() are O(1). A value type, cheap to copy;
// any thread.
class ContainerLogGenerator final
{
public:
    enum class Style { WebServer, Worker };

    struct Instance
    {
        quint64 seed = 0;
        Style style = Style::Worker;
        QString image;
        qint64 startMs = 0;
        qint64 endMs = -1; // when it terminated; -1: still running
        int restartCount = 0; // how many instances came before this one
        QString exitReason; // of a terminated instance ("OOMKilled", "Error", "Completed")
        // Milliseconds between steady lines (at least 2); 0: the style's pace (a web server a
        // line a second, a worker one every 2.5 s). Benchmarks ask for more (--log-rate).
        qint64 periodMs = 0;
    };

    ContainerLogGenerator() = default;
    explicit ContainerLogGenerator(const Instance &instance);

    // The style an image suggests: nginx, httpd, web and api images are web servers.
    [[nodiscard]] static Style styleForImage(const QString &image);
    // A seed for one instance of one container, from the simulator's seed and the names.
    [[nodiscard]] static quint64 seedFor(quint64 clusterSeed, const QString &namespaceName, const QString &pod, const QString &container, int restartCount);

    [[nodiscard]] const Instance &instance() const { return m_instance; }
    [[nodiscard]] bool isTerminated() const { return m_instance.endMs >= 0; }

    // How many lines were written at or before timeMs (for a terminated instance, never more
    // than it wrote before its end).
    [[nodiscard]] qint64 lineCountAt(qint64 timeMs) const;
    // The index of the first line written at or after timeMs.
    [[nodiscard]] qint64 firstLineAtOrAfter(qint64 timeMs) const { return lineCountAt(timeMs - 1); }
    // When line index was written, in milliseconds since the epoch.
    [[nodiscard]] qint64 timeOf(qint64 index) const;
    // Line index without its newline.
    [[nodiscard]] QByteArray line(qint64 index) const;
    // The kubelet's prefix for --timestamps: RFC 3339 with nine fraction digits, a space.
    [[nodiscard]] QByteArray timestampPrefix(qint64 index) const;

private:
    [[nodiscard]] quint64 hash(qint64 index, quint64 salt = 0) const;
    [[nodiscard]] qint64 steadyStartMs() const;
    [[nodiscard]] qint64 periodMs() const;
    [[nodiscard]] QByteArray startupLine(qint64 index) const;
    [[nodiscard]] QByteArray steadyLine(qint64 index) const;
    [[nodiscard]] QByteArray crashLine(int fromEnd) const;

    Instance m_instance;
    QByteArray m_version; // the image's tag
    qint64 m_startupLines = 0;
    qint64 m_total = -1; // a terminated instance's line count
};

} // namespace Cachescope::Sim
