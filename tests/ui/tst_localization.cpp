#include "ui/localization.h"
#include "ui/widgets/mainwindow.h"

#include "testmain.h"

#include <QApplication>
#include <QMenuBar>
#include <QTest>
#include <QTranslator>

using namespace Qt::Literals::StringLiterals;

class TestLocalization : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void chineseCatalogueTranslates();
    void englishNeedsNoCatalogue();
    void unknownLanguageReportsFailure();
};

void TestLocalization::chineseCatalogueTranslates()
{
    QTranslator translator;
    QVERIFY(translator.load(QLocale(u"zh_CN"_s), u"cachescope"_s, u"_"_s, u":/i18n"_s));
    QVERIFY(!translator.isEmpty());

    const QString source = QCoreApplication::translate("Cachescope::MainWindow", "&File");
    QCOMPARE(source, u"&File"_s);
    QCoreApplication::installTranslator(&translator);
    Cachescope::MainWindow window;
    const QString translated = window.menuBar()->actions().constFirst()->text();
    QCoreApplication::removeTranslator(&translator);
    QVERIFY2(translated != source, qPrintable(translated));
    QVERIFY2(translated.contains(u"文件"_s), qPrintable(translated));
}

void TestLocalization::englishNeedsNoCatalogue()
{
    QVERIFY(Cachescope::installTranslations(*QCoreApplication::instance(), QLocale(QLocale::English)));
}

void TestLocalization::unknownLanguageReportsFailure()
{
    QVERIFY(!Cachescope::installTranslations(*QCoreApplication::instance(), QLocale(QLocale::Basque)));
}

CACHESCOPE_TEST_MAIN(TestLocalization)
#include "tst_localization.moc"
