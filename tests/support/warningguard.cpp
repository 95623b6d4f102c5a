#include "warningguard.h"

#include <QDir>
#include <QFile>
#include <QMutexLocker>
#include <QTemporaryFile>
#include <QTest>

#include <cstdio>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace CachescopeTest {

namespace {

// What Qt says when an object, a timer or a connection is used from the wrong thread, or a
// connection or invocation cannot be made. Each is a bug in the code under test.
const QStringList &guardedPatterns()
{
    static const QStringList patterns{
        u"Timers cannot"_s, // startTimer/killTimer from another thread, or without a QThread
        u"QObject::startTimer"_s,
        u"QObject::killTimer"_s,
        u"QBasicTimer::"_s,
        u"QTimer::"_s,
        u"QSocketNotifier"_s,
        u"another thread"_s,
        u"different thread"_s,
        u"moveToThread"_s,
        u"QObject::connect"_s,
        u"QObject::disconnect"_s,
        u"QMetaObject::invokeMethod"_s,
        u"Cannot queue arguments"_s,
        u"QThread:"_s,
        u"QThread::"_s,
    };
    return patterns;
}

QMutex s_mutex;
QStringList s_lateWarnings; // guarded by s_mutex
QtMessageHandler s_previousHandler = nullptr;

} // namespace

WarningGuard::WarningGuard() = default;

WarningGuard::~WarningGuard()
{
    if (s_previousHandler) {
        qInstallMessageHandler(s_previousHandler);
        s_previousHandler = nullptr;
    }
}

bool WarningGuard::isGuarded(const QString &message)
{
    for (const QString &pattern : guardedPatterns()) {
        if (message.contains(pattern)) {
            return true;
        }
    }
    return false;
}

int WarningGuard::exec(QObject *testObject, int argc, char **argv)
{
    QTemporaryFile log(QDir::tempPath() + u"/cachescope-test-XXXXXX.txt"_s);
    std::vector<QByteArray> arguments(argv, argv + argc);
    bool canLog = log.open();
    bool hasOutput = false;
    for (int i = 1; i + 1 < argc; ++i) {
        if (qstrcmp(argv[i], "-o") == 0) {
            hasOutput = true;
            // The old "-o FILE" form cannot be combined with a second logger.
            canLog = canLog && QByteArray(argv[i + 1]).contains(',');
        }
    }
    if (canLog) {
        if (!hasOutput) {
            arguments.emplace_back("-o");
            arguments.emplace_back("-,txt");
        }
        arguments.emplace_back("-o");
        arguments.emplace_back(QFile::encodeName(log.fileName()) + ",txt");
    } else {
        std::fprintf(stderr, "WarningGuard: cannot add a log with these arguments; thread and timer warnings are not checked\n");
    }
    std::vector<char *> pointers;
    for (QByteArray &argument : arguments) {
        pointers.push_back(argument.data());
    }
    const int result = QTest::qExec(testObject, int(pointers.size()), pointers.data());
    // From here on QtTest no longer logs: our handler watches the test object's destruction.
    s_previousHandler = qInstallMessageHandler(&WarningGuard::handleMessage);
    if (!canLog) {
        return result;
    }

    QStringList guarded;
    QFile written(log.fileName());
    if (written.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = written.readAll().split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString line = QString::fromUtf8(lines.at(i));
            if ((line.startsWith(u"QWARN"_s) || line.startsWith(u"QCRITICAL"_s)) && isGuarded(line)) {
                const QString location = i + 1 < lines.size() ? QString::fromUtf8(lines.at(i + 1)).trimmed() : QString();
                guarded.append(location.startsWith(u"Loc:"_s) ? line + u"\n   "_s + location : line);
            }
        }
    }
    if (guarded.isEmpty()) {
        return result;
    }
    std::fprintf(stderr, "FAIL!  : %d Qt warning(s) about threads, timers or connections; each is a bug in the code under test:\n", int(guarded.size()));
    for (const QString &warning : std::as_const(guarded)) {
        std::fprintf(stderr, "%s\n", qPrintable(warning));
    }
    return result != 0 ? result : 1;
}

int WarningGuard::finish(int result)
{
    QMutexLocker locker(&s_mutex);
    if (s_lateWarnings.isEmpty()) {
        return result;
    }
    std::fprintf(stderr, "FAIL!  : Qt warned about threads, timers or connections after the tests ran:\n");
    for (const QString &warning : std::as_const(s_lateWarnings)) {
        std::fprintf(stderr, "  %s\n", qPrintable(warning));
    }
    return result != 0 ? result : 1;
}

void WarningGuard::handleMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if ((type == QtWarningMsg || type == QtCriticalMsg) && isGuarded(message)) {
        QMutexLocker locker(&s_mutex);
        s_lateWarnings.append(message);
    }
    if (s_previousHandler) {
        s_previousHandler(type, context, message);
    } else {
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
    }
}

} // namespace CachescopeTest
