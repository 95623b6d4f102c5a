#pragma once

// Running cachescope-cli as a process from an integration test: its exit code and both outputs.

#include "testpaths.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace CachescopeTest {

struct CliRun
{
    int exitCode = -1; // -1: it crashed or did not finish within the wait
    QString out;
    QString err;
};

// runCli() runs cachescope-cli with KUBECONFIG set to kubeconfigEnv, waiting at most waitMs.
inline CliRun runCli(const QString &kubeconfigEnv, const QStringList &arguments, int waitMs = 90000)
{
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfigEnv);
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-cli"), arguments);
    CliRun run;
    if (!cli.waitForFinished(waitMs)) {
        cli.kill();
        cli.waitForFinished();
        return run;
    }
    run.exitCode = cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
    run.out = QString::fromUtf8(cli.readAllStandardOutput());
    run.err = QString::fromUtf8(cli.readAllStandardError());
    return run;
}

} // namespace CachescopeTest
