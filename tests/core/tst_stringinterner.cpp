#include "core/util/stringinterner.h"

#include "testmain.h"

#include <QTest>
#include <QThread>

#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestStringInterner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void equalTextSharesData_data();
    void equalTextSharesData();
    void differentTextDoesNotShare();
    void forThreadIsOnePerThread();
    void threadsDoNotShare();
    void boundedByCapacity();
};

void TestStringInterner::equalTextSharesData_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("namespace") << QByteArray("default") << u"default"_s;
    QTest::newRow("label key with dots and a slash") << QByteArray("app.kubernetes.io/name") << u"app.kubernetes.io/name"_s;
    QTest::newRow("UTF-8 text") << QByteArray("caf\xc3\xa9") << u"caf\u00e9"_s;
    QTest::newRow("empty label value") << QByteArray("") << QString();
}

void TestStringInterner::equalTextSharesData()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, expected);
    StringInterner interner;
    // Two distinct buffers with equal text: the interner must compare text, not pointers.
    const std::string first(text.constData(), std::size_t(text.size()));
    const std::string second = first;
    const QString a = interner.intern(first);
    const QString b = interner.intern(second);
    QCOMPARE(a, expected);
    QCOMPARE(b, expected);
    QCOMPARE(a.constData(), b.constData());
    QCOMPARE(interner.size(), std::size_t(1));
}

void TestStringInterner::differentTextDoesNotShare()
{
    StringInterner interner;
    const QString a = interner.intern("team-a");
    const QString b = interner.intern("team-b");
    QCOMPARE(a, u"team-a"_s);
    QCOMPARE(b, u"team-b"_s);
    QVERIFY(a.constData() != b.constData());
    QCOMPARE(interner.size(), std::size_t(2));
}

void TestStringInterner::forThreadIsOnePerThread()
{
    StringInterner *mine = &StringInterner::forThread();
    QCOMPARE(&StringInterner::forThread(), mine);
    StringInterner *other = nullptr;
    std::unique_ptr<QThread> thread(QThread::create([&other] { other = &StringInterner::forThread(); }));
    thread->start();
    QVERIFY(thread->wait());
    QVERIFY(other);
    QVERIFY(other != mine);
}

void TestStringInterner::threadsDoNotShare()
{
    const QString here = StringInterner::forThread().intern("kube-system");
    QCOMPARE(StringInterner::forThread().intern("kube-system").constData(), here.constData());
    QString there;
    QString thereAgain;
    std::unique_ptr<QThread> thread(QThread::create([&] {
        there = StringInterner::forThread().intern("kube-system");
        thereAgain = StringInterner::forThread().intern("kube-system");
    }));
    thread->start();
    QVERIFY(thread->wait());
    QCOMPARE(there, here);
    // The other thread has a table of its own: it shares within itself, not with this thread.
    QCOMPARE(thereAgain.constData(), there.constData());
    QVERIFY(there.constData() != here.constData());
    // Its strings outlive its interner (destroyed with the thread) as ordinary QStrings.
    QCOMPARE(there, u"kube-system"_s);
}

void TestStringInterner::boundedByCapacity()
{
    StringInterner interner;
    const QString first = interner.intern("value-0");
    for (std::size_t i = 1; i < StringInterner::capacity(); ++i) {
        (void)interner.intern("value-" + std::to_string(i));
    }
    QCOMPARE(interner.size(), StringInterner::capacity());
    QCOMPARE(interner.intern("value-0").constData(), first.constData());
    // One more distinct string starts the table over: it never grows beyond capacity().
    (void)interner.intern("one-too-many");
    QCOMPARE(interner.size(), std::size_t(1));
    const QString again = interner.intern("value-0");
    QCOMPARE(again, first);
    QVERIFY(again.constData() != first.constData());
    QCOMPARE(interner.size(), std::size_t(2));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestStringInterner)
#include "tst_stringinterner.moc"
