// Workspace + ContextListModel: the contexts of a kubeconfig, several connected at once to the
// simulated cluster, each row showing its connection state; a server that does not answer shows
// "retrying" with the error; opening another kubeconfig disconnects everything.
#include "core/cache/cluster.h"
#include "core/cache/informerfactory.h"
#include "core/sim/simcluster.h"
#include "ui/models/contextlistmodel.h"
#include "ui/models/namespacelistmodel.h"
#include "ui/workspace.h"

#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestContextListModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        Sim::SimOptions options;
        options.pods = 20;
        m_sim = std::make_unique<Sim::SimCluster>(options);
        QString error;
        QVERIFY2(m_sim->start(&error), qPrintable(error));
    }

    void contextsConnectAndShowTheirState()
    {
        Workspace workspace;
        ContextListModel model(&workspace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        workspace.setKubeconfig(Kubeconfig::loadFiles({m_sim->kubeconfigPath()}, true));
        QCOMPARE(model.rowCount(), 3); // sim-token, sim-cert, sim-restricted
        const int tokenRow = model.rowOf({u"sim-token"_s, m_sim->kubeconfigPath()});
        const int certRow = model.rowOf({u"sim-cert"_s, m_sim->kubeconfigPath()});
        QVERIFY(tokenRow >= 0 && certRow >= 0);
        QCOMPARE(model.index(tokenRow, 0).data(ContextListModel::CurrentRole).toBool(), true);
        QCOMPARE(model.index(tokenRow, 0).data(ContextListModel::StateRole).toInt(), -1);

        // Both contexts at once, token and client certificate.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        Cluster *token = workspace.connectContext(model.contextAt(tokenRow));
        Cluster *cert = workspace.connectContext(model.contextAt(certRow));
        QVERIFY(token && cert && token != cert);
        QCOMPARE(workspace.connectContext(model.contextAt(tokenRow)), token);
        QTRY_COMPARE(model.index(tokenRow, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Connected));
        QTRY_COMPARE(model.index(certRow, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Connected));
        QCOMPARE(model.index(tokenRow, ContextListModel::StateColumn).data().toString(), u"connected"_s);
        QVERIFY(!changed.isEmpty());

        workspace.disconnectContext(model.contextAt(certRow));
        QTRY_COMPARE(model.index(certRow, 0).data(ContextListModel::ConnectedRole).toBool(), false);
        QCOMPARE(workspace.clusters(), QList<Cluster *>{token});
    }

    void unreachableServerShowsRetryingWithTheError()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close();
        const QByteArray yaml = "apiVersion: v1\nkind: Config\ncurrent-context: gone\n"
                                "clusters:\n- name: gone\n  cluster:\n    server: https://127.0.0.1:" +
            QByteArray::number(port) +
            "\n    insecure-skip-tls-verify: true\n"
            "users:\n- name: u\n  user:\n    token: secret-token-value\n"
            "contexts:\n- name: gone\n  context:\n    cluster: gone\n    user: u\n";
        Workspace workspace;
        ContextListModel model(&workspace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        workspace.setKubeconfig(Kubeconfig::fromYaml(yaml, u"/tmp/gone.yaml"_s));
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(workspace.connectContext(model.contextAt(0)));
        QTRY_COMPARE_WITH_TIMEOUT(model.index(0, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Retrying), 15000);
        const QString state = model.index(0, ContextListModel::StateColumn).data().toString();
        QVERIFY2(state.startsWith(u"retrying: "_s) && state.size() > 12, qPrintable(state));
        // The TLS warning is there; the credential is nowhere.
        QVERIFY(model.index(0, 0).data(ContextListModel::WarningRole).toString().contains(u"insecure-skip-tls-verify"_s));
        for (int column = 0; column < model.columnCount(); ++column) {
            QVERIFY(!model.index(0, column).data(Qt::ToolTipRole).toString().contains(u"secret-token-value"_s));
            QVERIFY(!model.index(0, column).data().toString().contains(u"secret-token-value"_s));
        }

        // Another kubeconfig: everything disconnects, rows are the new file's.
        workspace.setKubeconfig(Kubeconfig::loadFiles({m_sim->kubeconfigPath()}, true));
        QVERIFY(workspace.clusters().isEmpty());
        QCOMPARE(model.rowCount(), 3); // sim-token, sim-cert, sim-restricted
    }

    // Connected, but the server refuses a list: the context's state says an informer retries,
    // and its tooltip gives the server's message.
    void refusedListShowsOnTheContextsState()
    {
        Workspace workspace;
        ContextListModel model(&workspace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        workspace.setKubeconfig(Kubeconfig::loadFiles({m_sim->kubeconfigPath()}, true));
        const int row = model.rowOf({u"sim-restricted"_s, m_sim->kubeconfigPath()});
        QVERIFY(row >= 0);
        Cluster *cluster = workspace.connectContext(model.contextAt(row));
        QVERIFY(cluster);
        QTRY_COMPARE_WITH_TIMEOUT(model.index(row, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Connected), 20000);
        QCOMPARE(model.index(row, ContextListModel::StateColumn).data().toString(), u"connected"_s);
        SharedIndexInformer *pods = cluster->informerOf(u"pods"_s);
        QVERIFY(pods);
        cluster->informers()->start();
        QTRY_COMPARE_WITH_TIMEOUT(model.index(row, ContextListModel::StateColumn).data().toString(), u"connected; 1 informer(s) retrying"_s, 20000);
        const QString tip = model.index(row, ContextListModel::StateColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(u"pods: Forbidden (403): pods is forbidden"_s), qPrintable(tip));
    }

    void namespaceChoiceFollowsTheCluster()
    {
        Workspace workspace;
        workspace.setKubeconfig(Kubeconfig::loadFiles({m_sim->kubeconfigPath()}, true));
        Cluster *cluster = workspace.connectContext({u"sim-token"_s, m_sim->kubeconfigPath()});
        QVERIFY(cluster);
        QSignalSpy discovered(cluster, &Cluster::discovered);
        QVERIFY(discovered.wait(20000));
        InformerKey key;
        key.resource = std::get<ApiResource>(cluster->discovery().resolve(u"ns"_s));
        NamespaceListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setInformer(cluster->informers()->informer(key));
        cluster->informers()->start();
        QStringList expected = m_sim->truth(u"namespaces"_s).keys();
        std::sort(expected.begin(), expected.end());
        QVERIFY(expected.size() > 1);
        QTRY_COMPARE(model.namespaces(), expected);
        QCOMPARE(model.index(0).data().toString(), u"All namespaces"_s);
        QCOMPARE(model.index(0).data(NamespaceListModel::NamespaceRole).toString(), QString());
        QCOMPARE(model.rowOf(expected.constLast()), int(expected.size()));
    }

    // A context whose certificate authority file is missing Failed: the row says so and why,
    // nothing retries; once the file appears (or the user connects again) it connects.
    void failedContextConnectsOnceItsFileIsFixed_data()
    {
        QTest::addColumn<bool>("byUser");
        QTest::newRow("the missing file appears") << false;
        QTest::newRow("the user connects again") << true;
    }

    void failedContextConnectsOnceItsFileIsFixed()
    {
        QFETCH(bool, byUser);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile original(m_sim->kubeconfigPath());
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray yaml = original.readAll();
        const QByteArray inlineCa = "certificate-authority-data: " + m_sim->caCertificatePem().toBase64();
        yaml.replace(inlineCa, QByteArrayLiteral("certificate-authority: ca/ca.pem"));
        QVERIFY(yaml.contains("certificate-authority: ca/ca.pem"));
        const QString kubeconfigPath = dir.filePath(u"kubeconfig"_s);
        QFile kubeconfig(kubeconfigPath);
        QVERIFY(kubeconfig.open(QIODevice::WriteOnly));
        kubeconfig.write(yaml);
        kubeconfig.close();
        QVERIFY(QDir(dir.path()).mkdir(u"ca"_s));

        Workspace workspace;
        ContextListModel model(&workspace);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
        workspace.setKubeconfig(Kubeconfig::loadFiles({kubeconfigPath}, true));
        const int row = model.rowOf({u"sim-token"_s, kubeconfigPath});
        QVERIFY(row >= 0);
        Cluster *first = workspace.connectContext(model.contextAt(row));
        QVERIFY(first != nullptr);
        QSignalSpy failures(first, &Cluster::discoveryFailed);
        QTRY_COMPARE_WITH_TIMEOUT(model.index(row, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Failed), 15000);
        const QString state = model.index(row, ContextListModel::StateColumn).data().toString();
        QVERIFY2(state.startsWith(u"failed: "_s) && state.contains(u"ca.pem"_s), qPrintable(state));
        QVERIFY(model.index(row, 0).data(Qt::ToolTipRole).toString().contains(u"Not retried"_s));
        QTest::qWait(1500);
        QCOMPARE(failures.count(), 1);
        QCOMPARE(workspace.cluster(model.contextAt(row)), first);

        // The fix: the certificate authority's file is written where the kubeconfig says.
        QFile ca(dir.filePath(u"ca/ca.pem"_s));
        QVERIFY(ca.open(QIODevice::WriteOnly));
        ca.write(m_sim->caCertificatePem());
        ca.close();
        if (byUser) {
            QVERIFY(workspace.reconnectContext(model.contextAt(row)) != nullptr);
        }
        QTRY_COMPARE_WITH_TIMEOUT(model.index(row, 0).data(ContextListModel::StateRole).toInt(), int(Cluster::State::Connected), 15000);
        QVERIFY(workspace.cluster(model.contextAt(row)) != nullptr);
        QCOMPARE(workspace.clusters().size(), 1);
        QCOMPARE(model.index(row, ContextListModel::StateColumn).data().toString(), u"connected"_s);
    }

    void cleanupTestCase() { m_sim.reset(); }

private:
    std::unique_ptr<Sim::SimCluster> m_sim;
};

CACHESCOPE_TEST_MAIN(TestContextListModel)
#include "tst_contextlistmodel.moc"
