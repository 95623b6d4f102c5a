#include "ui/widgets/objectview.h"

#include "core/cache/kubeobject.h"
#include "core/cache/notification.h"
#include "ui/models/objecthistory.h"
#include "ui/widgets/objectdiffview.h"
#include "ui/widgets/objecthistoryview.h"

#include "testmain.h"
#include "testpaths.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QPalette>
#include <QPlainTextEdit>
#include <QScrollBar>
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
    void secretValuesAreMasked_data();
    void secretValuesAreMasked();
    void revealEndsWhenAnotherObjectIsShown();
    void nonSecretsAreNotMasked();
    void copyName();
    void historyDiffOfAnUpdate();
    void historyDiffMasksSecrets();
    void followsUpdatesAndADelete();
    void pinningKeepsTheShownVersion();
    void marksFadeAndAnotherObjectEndsFollowing();

private:
    // podVersion() is the sample pod at resourceVersion rv in phase `phase`.
    static Cachescope::KubeObject podVersion(int rv, const QString &phase);
    static QByteArray samplePod();
    static QByteArray secret(const QString &name, const QString &password, int resourceVersion = 1, bool withKind = true);
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

// The password "hunter2" is aHVudGVyMg== in base64; stringData holds a plain token.
QByteArray TestObjectView::secret(const QString &name, const QString &password, int resourceVersion, bool withKind)
{
    return uR"({%1"apiVersion":"v1","metadata":{"name":"%2","namespace":"shop","uid":"uid-%2","resourceVersion":"%3"},"type":"Opaque","data":{"password":"%4","username":"YWRtaW4="},"stringData":{"token":"tok-plain-42"}})"_s
        .arg(withKind ? uR"("kind":"Secret",)"_s : QString(), name, QString::number(resourceVersion), password)
        .toUtf8();
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

void TestObjectView::secretValuesAreMasked_data()
{
    QTest::addColumn<Cachescope::ObjectView::Format>("format");
    QTest::addColumn<bool>("withKind");
    QTest::newRow("YAML") << Cachescope::ObjectView::Format::Yaml << true;
    QTest::newRow("JSON") << Cachescope::ObjectView::Format::Json << true;
    QTest::newRow("listed Secret without kind, known by its resource") << Cachescope::ObjectView::Format::Yaml << false;
}

void TestObjectView::secretValuesAreMasked()
{
    QFETCH(Cachescope::ObjectView::Format, format);
    QFETCH(bool, withKind);
    const QStringList values{u"aHVudGVyMg=="_s, u"YWRtaW4="_s, u"tok-plain-42"_s};

    Cachescope::ObjectView view;
    view.setFormat(format);
    view.setObject(secret(u"db"_s, u"aHVudGVyMg=="_s, 1, withKind), u"secrets"_s);
    QVERIFY(view.isSecret());
    QVERIFY(view.revealAction()->isEnabled());
    QGuiApplication::clipboard()->clear();
    view.copyTextAction()->trigger();
    const QString copied = QGuiApplication::clipboard()->text();
    QVERIFY(!copied.isEmpty());
    for (const QString &value : values) {
        QVERIFY2(!view.text().contains(value), qPrintable(value));
        QVERIFY2(!copied.contains(value), qPrintable(value));
    }
    // The keys stay visible, each value replaced by the mask.
    QVERIFY(view.text().contains(u"password"_s));
    QVERIFY(view.text().contains(u"token"_s));
    QCOMPARE(view.text().count(Cachescope::ObjectHistory::MaskedValue), 3);
    QCOMPARE(copied, view.text());

    view.revealAction()->trigger();
    QVERIFY(view.secretsRevealed());
    view.copyTextAction()->trigger();
    for (const QString &value : values) {
        QVERIFY2(view.text().contains(value), qPrintable(value));
        QVERIFY2(QGuiApplication::clipboard()->text().contains(value), qPrintable(value));
    }

    view.revealAction()->trigger();
    QVERIFY(!view.secretsRevealed());
    QVERIFY(!view.text().contains(values.first()));
}

void TestObjectView::revealEndsWhenAnotherObjectIsShown()
{
    Cachescope::ObjectView view;
    view.setObject(secret(u"db"_s, u"aHVudGVyMg=="_s, 1));
    view.setSecretsRevealed(true);
    QVERIFY(view.text().contains(u"aHVudGVyMg=="_s));

    // A new version of the same Secret stays revealed: the user is watching it change.
    view.setObject(secret(u"db"_s, u"c3dvcmRmaXNo"_s, 2));
    QVERIFY(view.secretsRevealed());
    QVERIFY(view.text().contains(u"c3dvcmRmaXNo"_s));

    view.setObject(secret(u"api"_s, u"aHVudGVyMg=="_s, 3));
    QVERIFY(!view.secretsRevealed());
    QVERIFY(!view.revealAction()->isChecked());
    QVERIFY(!view.text().contains(u"aHVudGVyMg=="_s));
}

void TestObjectView::nonSecretsAreNotMasked()
{
    Cachescope::ObjectView view;
    view.setObject(R"({"kind":"ConfigMap","metadata":{"name":"c"},"data":{"key":"visible-value"}})", u"configmaps"_s);
    QVERIFY(!view.isSecret());
    QVERIFY(!view.revealAction()->isEnabled());
    QVERIFY(view.text().contains(u"visible-value"_s));
    view.setSecretsRevealed(true);
    QVERIFY(!view.secretsRevealed());
}

void TestObjectView::copyName()
{
    Cachescope::ObjectView view;
    QVERIFY(!view.copyNameAction()->isEnabled());
    view.setObject(samplePod());
    QVERIFY(view.copyNameAction()->isEnabled());
    view.copyNameAction()->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), u"web-7d4b9c8f5d-x2k8p"_s);
    QCOMPARE(view.copyTextAction()->text(), u"Copy YAML"_s);
    view.setFormat(Cachescope::ObjectView::Format::Json);
    QCOMPARE(view.copyTextAction()->text(), u"Copy JSON"_s);
}

void TestObjectView::historyDiffOfAnUpdate()
{
    using Cachescope::KubeObject;
    using Cachescope::Notification;
    Cachescope::ObjectHistory history;
    QAbstractItemModelTester tester(&history, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Cachescope::ObjectView view;
    view.setHistory(&history);

    const QByteArray pending = samplePod().replace(R"("phase":"Running")", R"("phase":"Pending")").replace(R"("184231")", R"("184230")");
    const KubeObject before = *KubeObject::fromJson(pending);
    const KubeObject after = *KubeObject::fromJson(samplePod());
    const QString key = u"shop/web-7d4b9c8f5d-x2k8p"_s;
    history.append(u"pods"_s, {Notification::add(key, before, true)});
    view.showObject(u"pods"_s, key, before);
    QCOMPARE(history.rowCount(), 1);
    QCOMPARE(view.historyView()->selectedRow(), 0);
    history.append(u"pods"_s, {Notification::update(key, before, after)});
    QCOMPARE(history.rowCount(), 2);

    // The newest version is followed: the update is selected and its diff shown.
    QCOMPARE(view.historyView()->selectedRow(), 1);
    const QString diff = view.historyView()->diffView()->text();
    QVERIFY2(diff.contains(u"-  phase: Pending\n+  phase: Running"_s), qPrintable(diff));
    QVERIFY2(diff.contains(u"-  resourceVersion: \"184230\"\n+  resourceVersion: \"184231\""_s), qPrintable(diff));
    QCOMPARE(diff.count(u"@@ -"_s), 2);

    // The add shows the whole object as added lines.
    view.historyView()->selectRow(0);
    QVERIFY(view.historyView()->diffView()->text().startsWith(u"@@ -0,0 +1,"_s));
}

void TestObjectView::historyDiffMasksSecrets()
{
    using Cachescope::KubeObject;
    using Cachescope::Notification;
    Cachescope::ObjectHistory history;
    Cachescope::ObjectView view;
    view.setHistory(&history);
    const KubeObject v1 = *KubeObject::fromJson(secret(u"db"_s, u"aHVudGVyMg=="_s, 1, false));
    const KubeObject v2 = *KubeObject::fromJson(secret(u"db"_s, u"c3dvcmRmaXNo"_s, 2, false));
    history.append(u"secrets"_s, {Notification::add(u"shop/db"_s, v1, false)});
    view.showObject(u"secrets"_s, u"shop/db"_s, v1);
    history.append(u"secrets"_s, {Notification::update(u"shop/db"_s, v1, v2)});
    view.historyView()->selectRow(1);

    const auto diffText = [&view] {
        return view.historyView()->diffView()->text();
    };
    QVERIFY(!diffText().contains(u"aHVudGVyMg=="_s));
    QVERIFY(!diffText().contains(u"c3dvcmRmaXNo"_s));
    QVERIFY(!diffText().contains(u"tok-plain-42"_s));
    QVERIFY(diffText().contains(u"resourceVersion"_s));

    view.setSecretsRevealed(true);
    QVERIFY2(diffText().contains(u"-  password: aHVudGVyMg==\n+  password: c3dvcmRmaXNo"_s), qPrintable(diffText()));

    // Showing another object masks the history again.
    const KubeObject other = *KubeObject::fromJson(secret(u"api"_s, u"YQ=="_s, 5, false));
    history.append(u"secrets"_s, {Notification::add(u"shop/api"_s, other, false)});
    view.showObject(u"secrets"_s, u"shop/api"_s, other);
    QVERIFY(!view.historyView()->secretsRevealed());
}

Cachescope::KubeObject TestObjectView::podVersion(int rv, const QString &phase)
{
    const QByteArray json = samplePod()
                                .replace(R"("phase":"Running")", QByteArray(R"("phase":")" + phase.toUtf8() + '"'))
                                .replace(R"("resourceVersion":"184231")", QByteArray(R"("resourceVersion":")" + QByteArray::number(rv) + '"'));
    return *Cachescope::KubeObject::fromJson(json);
}

void TestObjectView::followsUpdatesAndADelete()
{
    using Cachescope::KubeObject;
    using Cachescope::Notification;
    Cachescope::ObjectHistory history;
    Cachescope::ObjectView view;
    view.setHistory(&history);
    view.resize(400, 120); // a few lines: the text scrolls
    view.show();
    const QString key = u"shop/web-7d4b9c8f5d-x2k8p"_s;
    KubeObject shown = podVersion(10, u"Pending"_s);
    history.append(u"pods"_s, {Notification::add(key, shown, true)});
    view.showObject(u"pods"_s, key, shown);
    QVERIFY(view.bannerText().isEmpty());
    QVERIFY(view.changedLines().isEmpty());

    QPlainTextEdit *editor = view.findChild<QPlainTextEdit *>();
    QVERIFY(editor != nullptr);
    QVERIFY(editor->verticalScrollBar()->maximum() > 5);
    editor->verticalScrollBar()->setValue(5);

    // Three updates: each is shown as it is recorded, the scroll position kept, the changed
    // lines (phase and resourceVersion) marked.
    const QStringList phases{u"ContainerCreating"_s, u"Running"_s, u"Failed"_s};
    for (int i = 0; i < phases.size(); ++i) {
        const KubeObject next = podVersion(11 + i, phases.at(i));
        history.append(u"pods"_s, {Notification::update(key, shown, next)});
        shown = next;
        QCOMPARE(view.object(), next.json());
        QVERIFY2(view.text().contains(u"phase: "_s + phases.at(i)), qPrintable(view.text()));
        QCOMPARE(editor->verticalScrollBar()->value(), 5);
        const QStringList lines = view.text().split(u'\n');
        QStringList marked;
        for (const int line : view.changedLines()) {
            marked.append(lines.at(line).trimmed());
        }
        marked.sort();
        QCOMPARE(marked, (QStringList{u"phase: "_s + phases.at(i), u"resourceVersion: \"%1\""_s.arg(11 + i)}));
        QCOMPARE(editor->extraSelections().size(), 2);
        QVERIFY(view.bannerText().isEmpty());
    }

    // Deleted: the last state stays, and a banner says so.
    history.append(u"pods"_s, {Notification::remove(key, shown)});
    QVERIFY(view.isDeleted());
    QCOMPARE(view.object(), shown.json());
    QVERIFY2(view.bannerText().contains(u"Deleted"_s), qPrintable(view.bannerText()));
    QVERIFY2(view.bannerText().contains(u"13"_s), qPrintable(view.bannerText()));
}

void TestObjectView::pinningKeepsTheShownVersion()
{
    using Cachescope::KubeObject;
    using Cachescope::Notification;
    Cachescope::ObjectHistory history;
    Cachescope::ObjectView view;
    view.setHistory(&history);
    const QString key = u"shop/web-7d4b9c8f5d-x2k8p"_s;
    const KubeObject first = podVersion(20, u"Pending"_s);
    const KubeObject second = podVersion(21, u"Running"_s);
    const KubeObject third = podVersion(22, u"Failed"_s);
    history.append(u"pods"_s, {Notification::add(key, first, true)});
    view.showObject(u"pods"_s, key, first);

    view.pinAction()->trigger();
    QVERIFY(view.isPinned());
    history.append(u"pods"_s, {Notification::update(key, first, second)});
    history.append(u"pods"_s, {Notification::update(key, second, third)});
    QCOMPARE(view.object(), first.json());
    QVERIFY2(view.bannerText().contains(u"Pinned at resourceVersion 20"_s), qPrintable(view.bannerText()));
    QVERIFY2(view.bannerText().contains(u"2 newer"_s), qPrintable(view.bannerText()));

    // Unpinned: the newest version, its changes against the pinned one marked.
    view.pinAction()->trigger();
    QVERIFY(!view.isPinned());
    QCOMPARE(view.object(), third.json());
    QVERIFY(view.bannerText().isEmpty());
    QCOMPARE(view.changedLines().size(), 2);

    // Pinned through a delete: still the pinned state, the banner says both.
    view.setPinned(true);
    history.append(u"pods"_s, {Notification::remove(key, third)});
    QCOMPARE(view.object(), third.json());
    QVERIFY2(view.bannerText().contains(u"1 newer"_s) && view.bannerText().contains(u"deleted"_s), qPrintable(view.bannerText()));
}

void TestObjectView::marksFadeAndAnotherObjectEndsFollowing()
{
    using Cachescope::KubeObject;
    using Cachescope::Notification;
    Cachescope::ObjectHistory history;
    Cachescope::ObjectView view;
    view.setHistory(&history);
    view.setMarkDuration(std::chrono::milliseconds(50));
    const QString key = u"shop/web-7d4b9c8f5d-x2k8p"_s;
    const KubeObject first = podVersion(30, u"Pending"_s);
    const KubeObject second = podVersion(31, u"Running"_s);
    history.append(u"pods"_s, {Notification::add(key, first, true)});
    view.showObject(u"pods"_s, key, first);
    history.append(u"pods"_s, {Notification::update(key, first, second)});
    QCOMPARE(view.changedLines().size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(view.changedLines().isEmpty(), 5000);
    QVERIFY(view.findChild<QPlainTextEdit *>()->extraSelections().isEmpty());

    // Another object shown: the first one's updates no longer reach the text.
    const QByteArray other = secret(u"db"_s, u"hunter2"_s, 5);
    const QString otherKey = u"shop/db"_s;
    history.append(u"secrets"_s, {Notification::add(otherKey, *KubeObject::fromJson(other), true)});
    view.showObject(u"secrets"_s, otherKey, *KubeObject::fromJson(other));
    history.append(u"pods"_s, {Notification::update(key, second, podVersion(32, u"Failed"_s))});
    QCOMPARE(view.object(), other);
    QVERIFY(view.bannerText().isEmpty());
}

CACHESCOPE_TEST_MAIN(TestObjectView)
#include "tst_objectview.moc"
