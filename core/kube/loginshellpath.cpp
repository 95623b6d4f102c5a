#include "core/kube/loginshellpath.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QPointer>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QMutex cacheMutex;
QHash<QString, QStringList> cache; // shell → its login PATH, guarded by cacheMutex

// A login shell that sources a slow rc file (nvm, conda) still answers within seconds; past
// this, searching without its PATH beats hanging the first request.
constexpr int shellTimeoutMs = 5000;

QStringList withFallbacks(const QStringList &loginPath)
{
    QStringList result;
    const auto add = [&result](const QString &dir) {
        if (!dir.isEmpty() && !result.contains(dir)) {
            result.append(dir);
        }
    };
    for (const QString &dir : loginPath) {
        add(dir);
    }
    for (const QString &dir : QString::fromLocal8Bit(qgetenv("PATH")).split(u':', Qt::SkipEmptyParts)) {
        add(dir);
    }
    for (const QString &dir : LoginShellPath::commonDirectories()) {
        add(dir);
    }
    return result;
}

} // namespace

QStringList LoginShellPath::commonDirectories()
{
    const QString home = QDir::homePath();
    return {home + u"/.local/bin"_s,
            home + u"/bin"_s,
            home + u"/go/bin"_s,
            home + u"/.krew/bin"_s,
            home + u"/google-cloud-sdk/bin"_s,
            u"/usr/local/bin"_s,
            u"/usr/local/sbin"_s,
            u"/opt/homebrew/bin"_s,
            u"/home/linuxbrew/.linuxbrew/bin"_s,
            u"/snap/bin"_s,
            u"/usr/bin"_s,
            u"/bin"_s};
}

void LoginShellPath::directories(QObject *context, Callback callback)
{
    const QString shell = QString::fromLocal8Bit(qgetenv("SHELL"));
    {
        QMutexLocker locker(&cacheMutex);
        const auto it = cache.constFind(shell);
        if (it != cache.constEnd()) {
            const QStringList dirs = withFallbacks(*it);
            // Queued even when cached, so callers see one behaviour (never re-entrant).
            QMetaObject::invokeMethod(
                context, [callback, dirs] { callback(dirs); }, Qt::QueuedConnection);
            return;
        }
    }
    if (shell.isEmpty()) {
        QMutexLocker locker(&cacheMutex);
        cache.insert(shell, {});
        locker.unlock();
        directories(context, std::move(callback));
        return;
    }

    auto *process = new QProcess(context); // owned by context; deleted when done
    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    auto done = std::make_shared<bool>(false);
    const auto finish = [process, shell, callback, done](const QStringList &loginPath) {
        if (*done) {
            return;
        }
        *done = true;
        {
            QMutexLocker locker(&cacheMutex);
            cache.insert(shell, loginPath);
        }
        callback(withFallbacks(loginPath));
        process->deleteLater();
    };
    QObject::connect(process, &QProcess::finished, process, [process, finish](int exitCode, QProcess::ExitStatus status) {
        QStringList dirs;
        if (status == QProcess::NormalExit && exitCode == 0) {
            // Login shells may print banners before our printf; the PATH is the last line.
            const QByteArray out = process->readAllStandardOutput().trimmed();
            const QByteArray last = out.mid(out.lastIndexOf('\n') + 1);
            dirs = QString::fromLocal8Bit(last).split(u':', Qt::SkipEmptyParts);
        }
        finish(dirs);
    });
    QObject::connect(process, &QProcess::errorOccurred, process, [finish](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            finish({});
        }
    });
    QObject::connect(timer, &QTimer::timeout, process, [process, finish] {
        process->kill();
        finish({});
    });
    process->setStandardInputFile(QProcess::nullDevice());
    process->setProcessChannelMode(QProcess::SeparateChannels);
    timer->start(shellTimeoutMs);
    process->start(shell, {u"-lc"_s, u"printf %s \"$PATH\""_s});
}

QString LoginShellPath::findExecutable(const QString &command, const QStringList &directories)
{
    if (command.isEmpty()) {
        return {};
    }
    if (command.contains(u'/')) {
        const QFileInfo info(command);
        return info.isFile() && info.isExecutable() ? info.absoluteFilePath() : QString();
    }
    return QStandardPaths::findExecutable(command, directories);
}

} // namespace Cachescope
