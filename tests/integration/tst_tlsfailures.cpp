// TLS failures, one row per fault, against cachescope-sim processes serving a valid, an expired
// and a wrongly named certificate: cachescope-cli get fails at once (exit 1, far within its
// --timeout, as kubectl does) with one clear error naming the context and what is wrong, and
// shows no data; tls-server-name lets a client through to the wrongly named server, and
// insecure-skip-tls-verify works with a warning on stderr. Nothing of the credentials is printed.
#include "clirun.h"
#include "simprocess.h"

#include "testmain.h"
#include "testpaths.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::Literals::StringLiterals;

namespace {

QByteArray base64Of(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll().toBase64() : QByteArray();
}

QString certs(const QString &name)
{
    return QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/certs/") + name;
}

// A change to the simulator's kubeconfig, as the row needs it.
enum class Change { None, OtherCa, OtherCaSkipVerify, ServerName, ForeignClientCertificate, OtherClientKey };

QString changed(QString kubeconfig, Change change)
{
    const auto set = [&kubeconfig](const QString &key, const QByteArray &value) {
        kubeconfig.replace(QRegularExpression(u"(\\n\\s+)"_s + key + u": [^\\n]*"_s), u"\\1"_s + key + u": "_s + QString::fromLatin1(value));
    };
    switch (change) {
    case Change::None:
        break;
    case Change::OtherCa:
        set(u"certificate-authority-data"_s, base64Of(certs(u"other-ca.crt"_s)));
        break;
    case Change::OtherCaSkipVerify:
        set(u"certificate-authority-data"_s, base64Of(certs(u"other-ca.crt"_s)));
        kubeconfig.replace(QRegularExpression(u"(\\n(\\s+)server: [^\\n]*)"_s), u"\\1\n\\2insecure-skip-tls-verify: true"_s);
        break;
    case Change::ServerName:
        kubeconfig.replace(QRegularExpression(u"(\\n(\\s+)server: [^\\n]*)"_s), u"\\1\n\\2tls-server-name: elsewhere.cachescope.test"_s);
        break;
    case Change::ForeignClientCertificate:
        // Self-signed: not issued by the simulator's CA, so the server does not accept it.
        set(u"client-certificate-data"_s, base64Of(certs(u"client-rsa.crt"_s)));
        set(u"client-key-data"_s, base64Of(certs(u"client-rsa.key"_s)));
        break;
    case Change::OtherClientKey:
        set(u"client-key-data"_s, base64Of(certs(u"client-ec.key"_s)));
        break;
    }
    return kubeconfig;
}

} // namespace

class TestTlsFailures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        const QList<std::pair<QString, QString>> servers{{u"valid"_s, u"valid"_s}, {u"expired"_s, u"expired"_s}, {u"wrong-name"_s, u"wrong-name"_s}};
        for (const auto &[name, certificate] : servers) {
            auto sim = std::make_unique<SimProcess>();
            QString error;
            QVERIFY2(sim->start({u"--pods"_s, u"6"_s, u"--namespaces"_s, u"1"_s, u"--serving-certificate"_s, certificate}, &error), qPrintable(error));
            m_sims.emplace(name, std::move(sim));
        }
    }

    void failsAtOnceWithAClearError_data()
    {
        QTest::addColumn<QString>("server"); // the serving certificate
        QTest::addColumn<int>("change");
        QTest::addColumn<QString>("context");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("expect"); // on stderr

        QTest::newRow("unknown CA")
            << u"valid"_s << int(Change::OtherCa) << u"sim-token"_s << 1
            << u"context \"sim-token\": TLS with 127.0.0.1:* failed: *self-signed, and untrusted; check the cluster's certificate-authority"_s;
        QTest::newRow("expired server certificate") << u"expired"_s << int(Change::None) << u"sim-token"_s << 1
                                                    << u"TLS with *failed: The certificate has expired"_s;
        QTest::newRow("server name mismatch") << u"wrong-name"_s << int(Change::None) << u"sim-token"_s << 1
                                              << u"TLS with *failed: The host name did not match*tls-server-name"_s;
        QTest::newRow("tls-server-name fixes the name mismatch") << u"wrong-name"_s << int(Change::ServerName) << u"sim-token"_s << 0 << QString();
        QTest::newRow("client certificate refused") << u"valid"_s << int(Change::ForeignClientCertificate) << u"sim-cert"_s << 1
                                                    << u"context \"sim-cert\": Unauthorized (401)"_s;
        QTest::newRow("client key not matching its certificate") << u"valid"_s << int(Change::OtherClientKey) << u"sim-cert"_s << 1
                                                                 << u"context \"sim-cert\": the client key does not match the client certificate"_s;
        QTest::newRow("insecure-skip-tls-verify works, with a warning")
            << u"valid"_s << int(Change::OtherCaSkipVerify) << u"sim-token"_s << 0 << u"warning: TLS verification is off for cluster \"cachescope-sim\""_s;
    }

    void failsAtOnceWithAClearError()
    {
        QFETCH(QString, server);
        QFETCH(int, change);
        QFETCH(QString, context);
        QFETCH(int, exitCode);
        QFETCH(QString, expect);

        SimProcess &sim = *m_sims.at(server);
        QFile original(sim.kubeconfig());
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(original.readAll());
        QTemporaryDir dir;
        const QString path = dir.filePath(u"kubeconfig"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(changed(text, Change(change)).toUtf8());
        file.close();

        // A --timeout far longer than the test waits: only failing at once passes.
        const CachescopeTest::CliRun run =
            CachescopeTest::runCli(path, {u"get"_s, u"pods"_s, u"-A"_s, u"-o"_s, u"name"_s, u"--context"_s, context, u"--timeout"_s, u"10m"_s}, 60000);
        QVERIFY2(run.exitCode == exitCode, qPrintable(u"exit %1, stderr: %2"_s.arg(run.exitCode).arg(run.err)));
        if (exitCode == 0) {
            QVERIFY2(run.out.startsWith(u"pod/"_s), qPrintable(run.out));
        } else {
            QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
            // One error line. Qt 6.4 may print its own "QNetworkReplyImplPrivate::error: Internal
            // problem" line beside it when a TLS handshake fails over HTTP/2: not ours, tolerated.
            const QStringList errors = run.err.split(u'\n').filter(QRegularExpression(u"^error: "_s));
            QVERIFY2(errors.size() == 1, qPrintable(run.err));
            QVERIFY2(!run.err.contains(u"retrying"_s), qPrintable(run.err));
        }
        if (!expect.isEmpty()) {
            const QRegularExpression pattern(
                QRegularExpression::wildcardToRegularExpression(u"*"_s + expect + u"*"_s, QRegularExpression::UnanchoredWildcardConversion),
                QRegularExpression::DotMatchesEverythingOption);
            QVERIFY2(pattern.match(run.err).hasMatch(), qPrintable(run.err));
        }
        // The kubeconfig's secrets never reach the output.
        const QString token = sim.token();
        QVERIFY(!token.isEmpty());
        QVERIFY(!run.err.contains(token) && !run.out.contains(token));
        QVERIFY(!run.err.contains(u"PRIVATE KEY"_s));
    }

private:
    std::map<QString, std::unique_ptr<SimProcess>> m_sims;
};

CACHESCOPE_TEST_GUILESS_MAIN(TestTlsFailures)
#include "tst_tlsfailures.moc"
