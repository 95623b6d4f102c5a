#include "core/cli/contextscommand.h"
#include "core/cli/recordinginfocommand.h"
#include "core/printers/tableprinter.h"
#include "core/record/recordingqueue.h"
#include "core/record/recordingwriter.h"

#include "testmain.h"
#include "testpaths.h"

#include <QTemporaryDir>
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
    void recordingInfo_data();
    void recordingInfo();
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

void TestCliCommands::recordingInfo_data()
{
    QTest::addColumn<QString>("file"); // empty: a whole recording written here
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("errorText");
    QTest::newRow("a whole recording: its summary, exit code 0") << QString() << 0 << QString();
    // fuzz_recording's find: a damaged page fails the summary's queries part way.
    QTest::newRow("a damaged page: what could be read, the reader's error, exit code 1")
        << QStringLiteral(CACHESCOPE_TEST_DATA "/../fuzz/corpus/fuzz_recording/damaged-page-partial-inputs.db") << 1
        << u"error: the recording is damaged, the counts above are what could be read: "_s;
}

void TestCliCommands::recordingInfo()
{
    QFETCH(QString, file);
    QFETCH(int, exitCode);
    QFETCH(QString, errorText);

    QTemporaryDir dir;
    if (file.isEmpty()) {
        file = dir.filePath(u"whole.cachescope"_s);
        RecordingWriter writer({});
        QString error;
        QVERIFY2(writer.open(file, {}, &error), qPrintable(error));
        RecordedInformer informer;
        informer.name = u"pods"_s;
        informer.resource.gvr = GroupVersionResource(QString(), u"v1"_s, u"pods"_s);
        informer.resource.kind = u"Pod"_s;
        informer.resource.namespaced = true;
        RecordedInput list;
        list.informerId = writer.queue()->addInformer(informer);
        list.kind = RecordedInput::Kind::List;
        writer.queue()->append(list);
        writer.close();
        QVERIFY2(writer.errorString().isEmpty(), qPrintable(writer.errorString()));
    }
    QString outText;
    QString errText;
    QTextStream out(&outText);
    QTextStream err(&errText);
    QCOMPARE(RecordingInfoCommand::run(file, out, err), exitCode);
    QVERIFY2(outText.contains(u"inputs:"_s), qPrintable(outText)); // the summary is printed either way
    if (errorText.isEmpty()) {
        QVERIFY2(errText.isEmpty(), qPrintable(errText));
        QVERIFY2(outText.contains(u"inputs:          1\n"_s), qPrintable(outText));
    } else {
        QVERIFY2(errText.startsWith(errorText), qPrintable(errText));
        QVERIFY2(errText.size() > errorText.size() + 1, "the reader's error is not named");
    }
}

CACHESCOPE_TEST_GUILESS_MAIN(TestCliCommands)
#include "tst_clicommands.moc"
