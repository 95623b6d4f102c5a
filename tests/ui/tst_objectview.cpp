#include "ui/widgets/objectview.h"

#include <QApplication>
#include <QFile>
#include <QPalette>
#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace Qt::Literals::StringLiterals;

class TestObjectView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsYamlOfSamplePod();
    void highlightsKeys_data();
    void highlightsKeys();
    void invalidJsonShowsError();
    void themeFollowsPalette();
    void jsonFormat();

private:
    static QByteArray samplePod();
};

QByteArray TestObjectView::samplePod()
{
    QFile file(QStringLiteral(CACHESCOPE_TEST_DATA "/pod.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll();
}

void TestObjectView::showsYamlOfSamplePod()
{
    Cachescope::ObjectView view;
    view.setObject(samplePod());
    QFile expected(QStringLiteral(CACHESCOPE_TEST_DATA "/pod.yaml"));
    QVERIFY(expected.open(QIODevice::ReadOnly));
    QCOMPARE(view.text(), QString::fromUtf8(expected.readAll()));
}

void TestObjectView::highlightsKeys_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("key");
    QTest::newRow("top-level key") << u"apiVersion: v1"_s << u"apiVersion"_s;
    QTest::newRow("nested key") << u"  name: web-7d4b9c8f5d-x2k8p"_s << u"name"_s;
    QTest::newRow("key inside a list item") << u"        - containerPort: 8080"_s << u"containerPort"_s;
}

// The YAML definition gives keys their own format: after rendering, the characters of a key
// carry a format with a foreground colour that differs from the plain text's.
void TestObjectView::highlightsKeys()
{
    QFETCH(QString, line);
    QFETCH(QString, key);

    Cachescope::ObjectView view;
    view.setObject(samplePod());
    QTextDocument *document = view.document();
    QTextBlock block = document->begin();
    while (block.isValid() && block.text() != line) {
        block = block.next();
    }
    QVERIFY2(block.isValid(), qPrintable(u"line not found: "_s + line));

    const int keyStart = static_cast<int>(line.indexOf(key));
    const QList<QTextLayout::FormatRange> formats = block.layout()->formats();
    QVERIFY2(!formats.isEmpty(), "no highlighting formats on the line");
    bool keyFormatted = false;
    for (const QTextLayout::FormatRange &range : formats) {
        if (range.start <= keyStart && range.start + range.length >= keyStart + key.size() && range.format.hasProperty(QTextFormat::ForegroundBrush)) {
            keyFormatted = range.format.foreground().color() != view.palette().color(QPalette::Text);
        }
    }
    QVERIFY2(keyFormatted, "the key has no highlighting colour of its own");
}

void TestObjectView::invalidJsonShowsError()
{
    Cachescope::ObjectView view;
    view.setObject("{\"kind\": ");
    QVERIFY(view.text().contains(u"not valid JSON"_s));
}

void TestObjectView::themeFollowsPalette()
{
    Cachescope::ObjectView view;
    view.setObject(samplePod());

    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    light.setColor(QPalette::Text, Qt::black);
    view.setPalette(light);
    const QString lightTheme = view.themeName();

    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    view.setPalette(dark);
    const QString darkTheme = view.themeName();

    QVERIFY(!lightTheme.isEmpty());
    QVERIFY(!darkTheme.isEmpty());
    QVERIFY2(lightTheme != darkTheme, qPrintable(lightTheme + u" == "_s + darkTheme));
}

void TestObjectView::jsonFormat()
{
    Cachescope::ObjectView view;
    view.setObject(samplePod());
    view.setFormat(Cachescope::ObjectView::Format::Json);
    QVERIFY(view.text().startsWith(u"{\n    \"apiVersion\": \"v1\""_s));
}

QTEST_MAIN(TestObjectView)
#include "tst_objectview.moc"
