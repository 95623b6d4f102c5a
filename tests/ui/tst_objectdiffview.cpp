#include "ui/widgets/objectdiffview.h"

#include "testmain.h"

#include <QPalette>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>

using namespace Qt::Literals::StringLiterals;
using Cachescope::ObjectDiffView;

class TestObjectDiffView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsUnifiedDiffWithColouredLines();
    void identicalTextsShowNoDiff();
    void coloursFollowThePalette();
};

void TestObjectDiffView::showsUnifiedDiffWithColouredLines()
{
    ObjectDiffView view;
    view.setTexts(u"kind: Pod\nstatus:\n  phase: Pending\n"_s, u"kind: Pod\nstatus:\n  phase: Running\n  podIP: 10.0.0.1\n"_s);
    QCOMPARE(view.text(), u"@@ -1,3 +1,4 @@\n kind: Pod\n status:\n-  phase: Pending\n+  phase: Running\n+  podIP: 10.0.0.1"_s);

    QHash<QChar, QColor> backgrounds;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next()) {
        const QChar prefix = block.text().at(0);
        const QColor colour = block.blockFormat().background().color();
        if (backgrounds.contains(prefix)) {
            QCOMPARE(colour, backgrounds.value(prefix));
        }
        backgrounds.insert(prefix, colour);
    }
    QCOMPARE(backgrounds.value(u'+'), view.addedBackground());
    QCOMPARE(backgrounds.value(u'-'), view.removedBackground());
    QVERIFY(view.addedBackground() != view.removedBackground());
    QVERIFY(backgrounds.value(u' ') != view.addedBackground());
    QVERIFY(backgrounds.value(u' ') != view.removedBackground());
}

void TestObjectDiffView::identicalTextsShowNoDiff()
{
    ObjectDiffView view;
    view.setTexts(u"a\nb\n"_s, u"a\nb\n"_s);
    QVERIFY(view.text().isEmpty());
    view.setTexts({}, u"a\n"_s);
    QCOMPARE(view.text(), u"@@ -0,0 +1 @@\n+a"_s);
    view.clear();
    QVERIFY(view.text().isEmpty());
}

void TestObjectDiffView::coloursFollowThePalette()
{
    ObjectDiffView view;
    view.setTexts(u"a\n"_s, u"b\n"_s);
    QPalette light;
    light.setColor(QPalette::Base, Qt::white);
    view.setPalette(light);
    const QColor lightAdded = view.addedBackground();
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    view.setPalette(dark);
    const QColor darkAdded = view.addedBackground();
    QVERIFY(lightAdded.lightness() > darkAdded.lightness());
    QVERIFY(darkAdded.green() > darkAdded.red());

    // The document is re-coloured, not only the colour getter.
    QTextBlock added = view.document()->lastBlock();
    QCOMPARE(added.text(), u"+b"_s);
    QCOMPARE(added.blockFormat().background().color(), darkAdded);
}

CACHESCOPE_TEST_MAIN(TestObjectDiffView)
#include "tst_objectdiffview.moc"
