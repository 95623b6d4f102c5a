// The corpus of broken kubeconfig files (tests/data/kubeconfig/broken), one row per file, named
// after what is wrong with it. Each file says in its header what is broken, at which stage it
// shows (load: the file itself; resolve: the context's references; connect: the TLS material or
// credentials it names), the text the error must hold and, where YAML has one, its line.
// cachescope-cli, with the file merged before a working simulated cluster's kubeconfig, fails at
// once (exit 1, no retrying, far within its --timeout) with one error naming the file and line,
// the context it breaks and the reason, and nothing of the credentials; the working contexts of
// the same merge stay usable — in the app always (the loaded Kubeconfig still resolves them), in
// the CLI unless the file itself is unreadable, where kubectl refuses the whole merge too.
#include "clirun.h"
#include "core/kube/kubeconfig.h"
#include "core/kube/restconfig.h"
#include "simprocess.h"

#include "testmain.h"
#include "testpaths.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

using namespace Cachescope;

namespace {

struct Header
{
    QString broken;
    QString stage;
    QString expect;
    int line = 0;
};

Header headerOf(const QString &path)
{
    QFile file(path);
    Header header;
    if (!file.open(QIODevice::ReadOnly)) {
        return header;
    }
    static const QRegularExpression field(uR"(^# (\w+): (.*)$)"_s);
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        const QRegularExpressionMatch match = field.match(line);
        if (!match.hasMatch()) {
            break;
        }
        const QString value = match.captured(2).trimmed();
        if (match.captured(1) == u"broken"_s) {
            header.broken = value;
        } else if (match.captured(1) == u"stage"_s) {
            header.stage = value;
        } else if (match.captured(1) == u"expect"_s) {
            header.expect = value;
        } else if (match.captured(1) == u"line"_s) {
            header.line = value.toInt();
        }
    }
    return header;
}

// A timeout far longer than the test waits: only failing at once passes.
CachescopeTest::CliRun runCli(const QString &kubeconfigEnv, const QStringList &arguments)
{
    return CachescopeTest::runCli(kubeconfigEnv, arguments + QStringList{u"--timeout"_s, u"10m"_s});
}

} // namespace

class TestKubeconfigCorpus : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_sim.start({u"--pods"_s, u"12"_s, u"--namespaces"_s, u"2"_s}, &error), qPrintable(error));
        const QStringList files = QDir(corpusDir()).entryList({u"*.yaml"_s}, QDir::Files, QDir::Name);
        QVERIFY2(files.size() >= 30, qPrintable(u"the corpus has %1 files"_s.arg(files.size())));
    }

    void brokenFile_data()
    {
        QTest::addColumn<QString>("path");
        for (const QString &name : QDir(corpusDir()).entryList({u"*.yaml"_s}, QDir::Files, QDir::Name)) {
            const QString path = QDir(corpusDir()).filePath(name);
            QTest::newRow(qPrintable(headerOf(path).broken.isEmpty() ? name : headerOf(path).broken)) << path;
        }
    }

    void brokenFile()
    {
        QFETCH(QString, path);
        const Header header = headerOf(path);
        QVERIFY2(!header.broken.isEmpty() && !header.expect.isEmpty(), "every file says what is broken and what the error says");
        QVERIFY2(header.stage == u"load"_s || header.stage == u"resolve"_s || header.stage == u"connect"_s, qPrintable(header.stage));
        const QString merge = path + u':' + m_sim.kubeconfig();

        // The CLI: one error, at once, naming the file (and line), the context and the reason.
        const CachescopeTest::CliRun broken = runCli(merge, {u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s});
        QCOMPARE(broken.exitCode, 1);
        QVERIFY2(broken.out.isEmpty(), qPrintable(broken.out));
        const QString prefix = u"error: "_s + path + u':' + (header.line > 0 ? QString::number(header.line) + u':' : QString());
        QVERIFY2(broken.err.startsWith(prefix), qPrintable(u"expected \"%1\" in:\n%2"_s.arg(prefix, broken.err)));
        QVERIFY2(broken.err.contains(header.expect), qPrintable(broken.err));
        if (header.stage != u"load"_s) {
            QVERIFY2(broken.err.contains(u"\"broken\""_s), qPrintable(broken.err));
        }
        QVERIFY2(!broken.err.contains(u"retrying"_s), qPrintable(broken.err));
        QVERIFY2(!broken.err.contains(u"not-a-real-token"_s), "credentials stay out of errors");

        // The app: the rest of the merge still loads and resolves.
        const Kubeconfig kubeconfig = Kubeconfig::loadFiles({path, m_sim.kubeconfig()}, false);
        const auto working = kubeconfig.restConfig(u"sim-token"_s);
        if (const auto *problem = std::get_if<KubeconfigError>(&working)) {
            QFAIL(qPrintable(problem->toString()));
        }
        if (header.stage == u"load"_s) {
            QVERIFY2(kubeconfig.hasErrors(), "the file's problem is reported");
            QVERIFY(kubeconfig.errors().constFirst().toString().contains(QFileInfo(path).fileName()));
            return;
        }
        // The CLI too, for a file that loads: another context of the merge works.
        const CachescopeTest::CliRun other = runCli(merge, {u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s, u"--context"_s, u"sim-token"_s});
        QVERIFY2(other.exitCode == 0, qPrintable(other.err));
        const QStringList names = other.out.split(u'\n', Qt::SkipEmptyParts);
        QVERIFY(!names.isEmpty());
        QVERIFY(std::all_of(names.cbegin(), names.cend(), [](const QString &name) { return name.startsWith(u"pod/"_s); }));
    }

private:
    static QString corpusDir() { return QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/broken"); }

    SimProcess m_sim;
};

CACHESCOPE_TEST_GUILESS_MAIN(TestKubeconfigCorpus)
#include "tst_kubeconfigcorpus.moc"
