#include "core/util/valueinterner.h"

#include "testmain.h"

#include <QList>
#include <QString>
#include <QTest>
#include <QThread>

#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestValueInterner : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void equalDescriptionsShareOneValue_data();
    void equalDescriptionsShareOneValue();
    void threadsDoNotShare();
    void boundedByCapacity();
};

void TestValueInterner::equalDescriptionsShareOneValue_data()
{
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("second");
    QTest::addColumn<bool>("shared");
    QTest::newRow("equal bytes share") << QByteArray("app=web") << QByteArray("app=web") << true;
    QTest::newRow("different bytes do not") << QByteArray("app=web") << QByteArray("app=api") << false;
    QTest::newRow("a NUL is an ordinary byte") << QByteArray("a\0b", 3) << QByteArray("a\0c", 3) << false;
    QTest::newRow("empty description") << QByteArray() << QByteArray() << true;
}

void TestValueInterner::equalDescriptionsShareOneValue()
{
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, second);
    QFETCH(bool, shared);
    ValueInterner<QList<QString>> interner;
    int made = 0;
    const auto make = [&made](const QByteArray &text) {
        return [&made, text] {
            ++made;
            return QList<QString>{QString::fromUtf8(text)};
        };
    };
    // Two distinct buffers with equal bytes: the interner compares bytes, not pointers.
    const std::string a(first.constData(), std::size_t(first.size()));
    const std::string b(second.constData(), std::size_t(second.size()));
    const QList<QString> x = interner.intern(a, make(first));
    const QList<QString> y = interner.intern(b, make(second));
    QCOMPARE(x, QList<QString>{QString::fromUtf8(first)});
    QCOMPARE(y, QList<QString>{QString::fromUtf8(second)});
    QCOMPARE(x.constData() == y.constData(), shared);
    QCOMPARE(made, shared ? 1 : 2);
    QCOMPARE(interner.size(), std::size_t(shared ? 1 : 2));
}

void TestValueInterner::threadsDoNotShare()
{
    using Interner = ValueInterner<QList<QString>>;
    const auto make = [] {
        return QList<QString>{u"kube-system"_s};
    };
    const QList<QString> here = Interner::forThread().intern("ns", make);
    QCOMPARE(Interner::forThread().intern("ns", make).constData(), here.constData());
    QList<QString> there;
    std::unique_ptr<QThread> thread(QThread::create([&] { there = Interner::forThread().intern("ns", make); }));
    thread->start();
    QVERIFY(thread->wait());
    QCOMPARE(there, here);
    QVERIFY(there.constData() != here.constData());
}

void TestValueInterner::boundedByCapacity()
{
    ValueInterner<QString> interner;
    // A string made on the heap each time (a literal's data would be the same every time).
    const auto make = [] {
        return QString::fromLatin1("value");
    };
    const QString first = interner.intern("key-0", make);
    for (std::size_t i = 1; i < ValueInterner<QString>::capacity(); ++i) {
        (void)interner.intern("key-" + std::to_string(i), make);
    }
    QCOMPARE(interner.size(), ValueInterner<QString>::capacity());
    QCOMPARE(interner.intern("key-0", make).constData(), first.constData());
    // One more distinct description starts the table over: it never grows beyond capacity().
    (void)interner.intern("one-too-many", make);
    QCOMPARE(interner.size(), std::size_t(1));
    QVERIFY(interner.intern("key-0", make).constData() != first.constData());
}

CACHESCOPE_TEST_GUILESS_MAIN(TestValueInterner)
#include "tst_valueinterner.moc"
