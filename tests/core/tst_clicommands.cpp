#include "core/cli/contextscommand.h"
#include "core/printers/tableprinter.h"

#include "testmain.h"
#include "testpaths.h"

#include <QTest>
#include <QTextStream>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

class TestCliCommands : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void tableLayout();
    void contexts_data();
    void contexts();
};

void TestCliCommands::tableLayout()
{
    TablePrinter table({u"CURRENT"_s, u"NAME"_s, u"X"_s});
    table.addRow({u"*"_s, u"a-long-name"_s, u""_s});
    table.addRow({QString(), u"b"_s, u"x"_s});
    QString text;
    QTextStream out(&text);
    table.print(out);
    out.flush();
    QCOMPARE(text, u"CURRENT   NAME          X\n*         a-long-name\n          b             x\n"_s);
}

void TestCliCommands::contexts_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QStringList>("lines"); // expected lines after the header, each trimmed of the file path
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stderrText");

    const QString dir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/");
    QTest::newRow("current marked, file shown") << QStringList{dir + u"first.yaml"_s}
                                                << QStringList{u"*         alpha    shared    shared-user   alpha-ns    first.yaml"_s,
                                                               u"          common   shared    shared-user               first.yaml"_s}
                                                << 0 << QString();
    QTest::newRow("same-named context from a later file kept and marked")
        << QStringList{dir + u"first.yaml"_s, dir + u"sub/second.yaml"_s}
        << QStringList{u"*         alpha    shared        shared-user   alpha-ns      first.yaml"_s,
                       u"          common   shared        shared-user                 first.yaml"_s,
                       u"          beta     only-second   second-user                 second.yaml"_s,
                       u"          common   shared        shared-user   from-second   second.yaml (shadowed)"_s}
        << 0 << QString();
    QTest::newRow("malformed file is an error with exit code 1") << QStringList{dir + u"malformed.yaml"_s, dir + u"first.yaml"_s}
                                                                 << QStringList{u"*         alpha    shared    shared-user   alpha-ns    first.yaml"_s,
                                                                                u"          common   shared    shared-user               first.yaml"_s}
                                                                 << 1 << u"error: "_s + dir + u"malformed.yaml:7:6: not valid YAML"_s;
}

void TestCliCommands::contexts()
{
    QFETCH(QStringList, files);
    QFETCH(QStringList, lines);
    QFETCH(int, exitCode);
    QFETCH(QString, stderrText);

    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(ContextsCommand::run(Kubeconfig::loadFiles(files, false), out, err), exitCode);
    QStringList actual = outText.split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(!actual.isEmpty());
    QVERIFY(actual.takeFirst().startsWith(u"CURRENT   NAME"_s));
    const QString dir = QStringLiteral(CACHESCOPE_TEST_DATA "/kubeconfig/");
    for (QString &line : actual) {
        line.replace(dir + u"sub/"_s, QString()).replace(dir, QString());
    }
    QCOMPARE(actual, lines);
    QCOMPARE(errText.isEmpty(), stderrText.isEmpty());
    QVERIFY2(errText.startsWith(stderrText), qPrintable(errText));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestCliCommands)
#include "tst_clicommands.moc"
