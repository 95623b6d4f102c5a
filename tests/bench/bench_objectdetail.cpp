// bench_objectdetail: cost of the event stream, the object history and the line diff on the GUI
// thread, run by hand (not a test; nothing is asserted).
//   build/dev/bench/bench_objectdetail
// Prints notifications per second through EventStreamModel (summaries of pod updates, a full
// 50k-row buffer shedding its oldest rows, behind an EventStreamFilter with a text filter) and
// through ObjectHistory (100k keys against the global cap), and the time of LineDiff on a pod,
// on a 10k-line text with scattered changes, and on two unrelated texts (the edit-distance cap).
// Rates are per second of this thread's CPU time, so a busy shared machine does not skew them;
// the GUI thread pays exactly that time.
#include "core/cache/kubeobject.h"
#include "core/cache/notification.h"
#include "core/util/linediff.h"
#include "ui/models/eventstreamfilter.h"
#include "ui/models/eventstreammodel.h"
#include "ui/models/objecthistory.h"

#include <QCoreApplication>
#include <QTextStream>

#include <ctime>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

// CpuTimer measures the calling thread's CPU time, like QElapsedTimer measures wall time.
class CpuTimer
{
public:
    CpuTimer() { restart(); }
    void restart() { m_start = now(); }
    [[nodiscard]] qint64 nsecsElapsed() const { return now() - m_start; }

private:
    static qint64 now()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
    qint64 m_start = 0;
};

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

void report(const QString &what, qint64 operations, qint64 nanoseconds)
{
    const double seconds = static_cast<double>(nanoseconds) / 1e9;
    out() << what << u": "_s << operations << u" in "_s << QString::number(seconds, 'f', 3) << u" s CPU = "_s
          << QString::number(static_cast<double>(operations) / seconds, 'f', 0) << u" /s"_s << Qt::endl;
}

KubeObject pod(int i, int rv, bool running)
{
    const QString json = uR"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-%1","namespace":"ns-%2","uid":"uid-%1","resourceVersion":"%3",)"
                         uR"("labels":{"app":"web","pod-template-hash":"7d4b9c8f5d"}},"spec":{"nodeName":"node-%4","containers":[{"name":"web",)"
                         uR"("image":"registry.example/shop/web:1.14.2","ports":[{"containerPort":8080}]}]},"status":{"phase":"%5","podIP":"10.0.%6.%7",)"
                         uR"("conditions":[{"type":"Ready","status":"%8"}]}})"_s.arg(QString::number(i),
                                                                                     QString::number(i % 50),
                                                                                     QString::number(rv),
                                                                                     QString::number(i % 100),
                                                                                     running ? u"Running"_s : u"Pending"_s,
                                                                                     QString::number(i / 256 % 256),
                                                                                     QString::number(i % 256),
                                                                                     running ? u"True"_s : u"False"_s);
    return *KubeObject::fromJson(json.toUtf8());
}

void eventStream()
{
    constexpr int keys = 10'000;
    constexpr int batches = 400;
    constexpr int batchSize = 250; // 30 flushes a second would carry 7.5k notifications/s
    std::vector<KubeObject> pending;
    std::vector<KubeObject> running;
    for (int i = 0; i < keys; ++i) {
        pending.push_back(pod(i, 2 * i, false));
        running.push_back(pod(i, 2 * i + 1, true));
    }
    std::vector<QList<Notification>> stream;
    int n = 0;
    for (int b = 0; b < batches; ++b) {
        QList<Notification> batch;
        batch.reserve(batchSize);
        for (int j = 0; j < batchSize; ++j, ++n) {
            const auto i = static_cast<size_t>(n % keys);
            const bool up = (n / keys) % 2 == 0;
            batch << Notification::update(u"ns/web-"_s + QString::number(n % keys), up ? pending[i] : running[i], up ? running[i] : pending[i]);
        }
        stream.push_back(std::move(batch));
    }

    CpuTimer timer;
    qsizetype length = 0;
    for (const QList<Notification> &batch : stream) {
        for (const Notification &notification : batch) {
            length += EventStreamModel::summary(notification, u"pods"_s).size();
        }
    }
    report(u"event stream: summaries of pod updates alone"_s, n, timer.nsecsElapsed());

    for (const bool filtered : {false, true}) {
        EventStreamModel model;
        EventStreamFilter filter;
        if (filtered) {
            filter.setSourceModel(&model);
            filter.setText(u"node-7"_s);
        }
        timer.restart();
        for (const QList<Notification> &batch : stream) {
            model.append(u"pods"_s, batch);
        }
        report(filtered ? u"event stream: appended to a full 50k buffer behind a text filter"_s : u"event stream: appended to a full 50k buffer, no proxy"_s,
               n,
               timer.nsecsElapsed());
    }
}

void objectHistory()
{
    constexpr int keys = 100'000;
    std::vector<KubeObject> objects;
    for (int i = 0; i < keys; ++i) {
        objects.push_back(pod(i, i, true));
    }
    ObjectHistory history;
    history.setCurrentKey(u"pods"_s, u"ns/web-7"_s);
    CpuTimer timer;
    QList<Notification> batch;
    for (int i = 0; i < keys; ++i) {
        batch << Notification::add(u"ns/web-"_s + QString::number(i), objects[static_cast<size_t>(i)], true);
        if (batch.size() == 1000) {
            history.append(u"pods"_s, batch);
            batch.clear();
        }
    }
    report(u"object history: initial list of 100k keys, 20k-version cap"_s, keys, timer.nsecsElapsed());
}

QStringList numberedLines(int count, const QString &prefix)
{
    QStringList lines;
    for (int i = 0; i < count; ++i) {
        lines << prefix + QString::number(i);
    }
    return lines;
}

void lineDiff()
{
    const auto time = [](const QString &what, const QStringList &a, const QStringList &b, int repeat) {
        CpuTimer timer;
        qsizetype edits = 0;
        for (int r = 0; r < repeat; ++r) {
            edits += LineDiff::hunks(LineDiff::edits(a, b)).size();
        }
        report(what + u" ("_s + QString::number(edits / repeat) + u" hunks)"_s, repeat, timer.nsecsElapsed());
    };
    QStringList podOld = numberedLines(70, u"  field: "_s);
    QStringList podNew = podOld;
    podNew[20] = u"  resourceVersion: changed"_s;
    podNew[67] = u"  phase: Running"_s;
    time(u"line diff: 70-line pod, 2 changes"_s, podOld, podNew, 20'000);

    const QStringList bigOld = numberedLines(10'000, u"line "_s);
    QStringList bigNew = bigOld;
    for (int i = 50; i < bigNew.size(); i += 100) {
        bigNew[i] = u"changed "_s + QString::number(i);
    }
    time(u"line diff: 10k lines, 100 changes"_s, bigOld, bigNew, 20);
    time(u"line diff: 2k lines against 2k unrelated lines (edit-distance cap)"_s, numberedLines(2000, u"a"_s), numberedLines(2000, u"b"_s), 5);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    eventStream();
    objectHistory();
    lineDiff();
    return 0;
}
