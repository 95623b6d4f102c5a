#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QObject;

namespace Cachescope {

// LoginShellPath finds programs the way the user's terminal would. A desktop app started from a
// launcher inherits a minimal PATH, so credential plugins installed by Homebrew, gcloud, asdf,
// ~/.local/bin and the like are "not found" (a known failure of every peer GUI). The first
// lookup runs `$SHELL -lc 'printf %s "$PATH"'` asynchronously (QProcess, never blocking the
// event loop, bounded by a timeout) and caches the answer per shell for the life of the process;
// the directories searched are that PATH, then the process's own PATH, then common install
// directories. Callable from any thread that runs an event loop; the callback runs on the
// thread of `context`, and not at all if `context` is destroyed first.
class LoginShellPath
{
public:
    using Callback = std::function<void(const QStringList &directories)>;

    // directories() delivers the search path to callback (asynchronously, also when cached).
    static void directories(QObject *context, Callback callback);

    // findExecutable() resolves a plugin command against directories: an absolute path is kept
    // if executable, a bare name is searched; empty when not found.
    [[nodiscard]] static QString findExecutable(const QString &command, const QStringList &directories);

    // commonDirectories() are the install locations searched after the PATHs.
    [[nodiscard]] static QStringList commonDirectories();
};

} // namespace Cachescope
