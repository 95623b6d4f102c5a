#pragma once

#include "testpaths.h"
// SimProcess runs the cachescope-sim binary for an integration test: it starts it with the
// given arguments, waits for its three announced lines (url, kubeconfig, ready) and stops it
// with SIGTERM, reporting the exit code, which must be 0. Test thread only (blocking waits).

#include <QDeadlineTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <csignal>

using namespace Qt::Literals::StringLiterals;

class SimProcess
{
public:
    bool start(const QStringList &arguments, QString *error)
    {
        m_process.setProgram(QStringLiteral(CACHESCOPE_BIN_DIR "/cachescope-sim"));
        m_process.setArguments(QStringList{u"--kubeconfig-out"_s, m_dir.filePath(u"kubeconfig"_s)} + arguments);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start();
        if (!m_process.waitForStarted(10000)) {
            *error = m_process.errorString();
            return false;
        }
        const QDeadlineTimer deadline(60000);
        QByteArray output;
        while (!output.contains("ready\n")) {
            if (deadline.hasExpired() || m_process.state() != QProcess::Running) {
                *error = u"cachescope-sim did not get ready: "_s + QString::fromUtf8(output + m_process.readAllStandardError());
                return false;
            }
            m_process.waitForReadyRead(200);
            output += m_process.readAllStandardOutput();
        }
        const QList<QByteArray> lines = output.split('\n');
        if (lines.size() < 3 || !lines.at(0).startsWith("url: ") || !lines.at(1).startsWith("kubeconfig: ") || lines.at(2) != "ready") {
            *error = u"unexpected announcement: "_s + QString::fromUtf8(output);
            return false;
        }
        m_url = QString::fromUtf8(lines.at(0).mid(5));
        m_kubeconfig = QString::fromUtf8(lines.at(1).mid(12));
        return true;
    }

    // SIGTERM, then the exit code (-1 if it did not exit normally). Any other end than a clean
    // exit prints how it ended and the end of what the simulator wrote to stderr (a sanitizer's
    // report, say): a failing comparison alone would not tell a crash from a hang.
    int stop()
    {
        if (m_process.state() == QProcess::NotRunning) {
            if (!m_stopped)
                report(u"had already ended"_s);
            m_stopped = true;
            return -1;
        }
        m_stopped = true;
        ::kill(pid_t(m_process.processId()), SIGTERM);
        if (!m_process.waitForFinished(20000)) {
            m_process.kill();
            m_process.waitForFinished();
            report(u"did not exit within 20 s of SIGTERM"_s);
            return -1;
        }
        const int code = m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        if (code != 0)
            report(m_process.exitStatus() == QProcess::NormalExit ? u"exited with %1"_s.arg(code) : u"crashed"_s);
        return code;
    }

    ~SimProcess() { stop(); }

    [[nodiscard]] QString url() const { return m_url; }
    [[nodiscard]] QString kubeconfig() const { return m_kubeconfig; }
    [[nodiscard]] QString home() const { return m_dir.path(); }
    [[nodiscard]] QString token() const
    {
        QFile file(m_kubeconfig);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray &line : file.readAll().split('\n')) {
            if (line.trimmed().startsWith("token: "))
                return QString::fromUtf8(line.trimmed().mid(7));
        }
        return {};
    }

    // An environment for clients: a private HOME and KUBECONFIG pointing at ours.
    [[nodiscard]] QProcessEnvironment clientEnvironment() const
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"HOME"_s, m_dir.path());
        environment.insert(u"KUBECONFIG"_s, m_kubeconfig);
        environment.remove(u"http_proxy"_s);
        environment.remove(u"https_proxy"_s);
        environment.remove(u"HTTPS_PROXY"_s);
        environment.remove(u"HTTP_PROXY"_s);
        return environment;
    }

private:
    void report(const QString &how)
    {
        qWarning("cachescope-sim %s; the end of its stderr:\n%s", qPrintable(how), m_process.readAllStandardError().right(4096).constData());
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    bool m_stopped = false; // stop() ran (the destructor's call reports nothing again)
    QString m_url;
    QString m_kubeconfig;
};
