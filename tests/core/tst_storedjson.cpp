#include "core/cache/jsonkeydictionary_p.h"
#include "core/cache/storedjson_p.h"

#include "testmain.h"

#include <QTest>
#include <QThread>

#include <memory>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

namespace {

std::string_view view(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), std::size_t(bytes.size()));
}

// numberedKeys() counts the keys stored as numbers: each marker byte and the varint after it (whose
// bytes may equal the marker's, so a plain count would not do).
int numberedKeys(const QByteArray &stored)
{
    int count = 0;
    for (qsizetype i = 0; i < stored.size(); ++i) {
        if (stored.at(i) != StoredJson::KeyMarker) {
            continue;
        }
        ++count;
        while (++i < stored.size() && (quint8(stored.at(i)) & 0x80)) { }
    }
    return count;
}

} // namespace

class TestStoredJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void expandGivesBackEveryByte_data();
    void expandGivesBackEveryByte();
    void theTwoSidesOfACutJoin();
    void equalTextEncodesEqually();
    void keysAreNumberedOnceForEveryThread();
    void theMarkerByteCannotBeEncoded();
};

void TestStoredJson::expandGivesBackEveryByte_data()
{
    QTest::addColumn<QByteArray>("json");
    // numbered: how many keys encode() replaced, i.e. how many marker bytes the stored form holds.
    QTest::addColumn<int>("numbered");

    QTest::newRow("compact object") << QByteArray(R"({"metadata":{"name":"a","namespace":"b"},"spec":{}})") << 4;
    QTest::newRow("whitespace everywhere is kept") << QByteArray("{ \"a\" : 1 ,\n\t\"b\":[ 1, 2 ],\r\n\"c\": {\"d\":null} }") << 3;
    QTest::newRow("a key with a space before its colon stays text") << QByteArray(R"({"a" :1,"b":2})") << 1;
    QTest::newRow("strings in lists are values, not keys") << QByteArray(R"({"l":["x","y:",{"z":"w"}]})") << 2;
    QTest::newRow("a value followed by a colon inside a string") << QByteArray(R"({"k":"v\":","k2":"\"a\":"})") << 2;
    QTest::newRow("escaped quotes and backslashes in keys and values") << QByteArray(R"({"a\"b":"c\\","d\\":"e\\\"","\u0041":"\n"})") << 3;
    QTest::newRow("a string ending in an escaped backslash") << QByteArray(R"({"a":"x\\","b":"y"})") << 2;
    QTest::newRow("unicode keys and values") << QByteArray("{\"ключ\":\"значение\",\"キー\":\"値\"}") << 2;
    QTest::newRow("an empty key") << QByteArray(R"({"":1,"a":{"":2}})") << 3;
    const QByteArray longKey(int(JsonKeyDictionary::MaxKeyBytes) + 1, 'k');
    QTest::newRow("a key longer than the limit stays text") << (R"({")" + longKey + R"(":1,"a":2})") << 1;
    QTest::newRow("numbers and literals keep their spelling") << QByteArray(R"({"a":1.50e+3,"b":-0,"c":true,"d":false,"e":null})") << 5;
    QTest::newRow("nested lists of objects") << QByteArray(R"([{"a":[{"b":[[{"c":1}]]}]},{"a":2}])") << 4;
    QTest::newRow("a bare string") << QByteArray(R"("a":"b")") << 0;
    QTest::newRow("not JSON: an unterminated string") << QByteArray(R"({"a":"b)") << 1;
    QTest::newRow("not JSON: stray colons and braces") << QByteArray(R"(}}:"a":{"b":::,,"c":1)") << 2;
    QTest::newRow("empty") << QByteArray() << 0;
    const QByteArray blob(3 * 1024 * 1024, 'x');
    QTest::newRow("a large value") << (R"({"data":{"blob":")" + blob + R"("}})") << 2;
}

void TestStoredJson::expandGivesBackEveryByte()
{
    QFETCH(QByteArray, json);
    QVERIFY(StoredJson::canEncode(view(json)));
    const QByteArray stored = StoredJson::encode(view(json), {});
    QTEST(numberedKeys(stored), "numbered");
    QCOMPARE(StoredJson::expand(stored, json.size()), json);
    // A wrong size (never given by KubeObjectData) still gives the bytes back.
    QCOMPARE(StoredJson::expand(stored, 0), json);
    QCOMPARE(StoredJson::expand(stored, json.size() + 100), json);
}

void TestStoredJson::theTwoSidesOfACutJoin()
{
    // The transform cuts a member out and hands both sides: a key right after the cut is still
    // a key, and the bytes are those of the two sides joined.
    const QByteArray first(R"({"metadata":{)");
    const QByteArray second(R"("name":"a","labels":{"app":"web"}},"spec":["x"]})");
    const QByteArray stored = StoredJson::encode(view(first), view(second));
    QCOMPARE(numberedKeys(stored), 5);
    QCOMPARE(StoredJson::expand(stored, first.size() + second.size()), first + second);
}

void TestStoredJson::equalTextEncodesEqually()
{
    const QByteArray json(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","uid":"u"}})");
    const QByteArray a = StoredJson::encode(view(json), {});
    const QByteArray b = StoredJson::encode(view(json), {});
    QCOMPARE(a, b);
    QVERIFY(a.size() < json.size());
    const QByteArray other(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"q","uid":"u"}})");
    QVERIFY(StoredJson::encode(view(other), {}) != a);
}

void TestStoredJson::keysAreNumberedOnceForEveryThread()
{
    // Threads that meet the same new keys at once agree on their numbers, and every thread
    // expands what another encoded.
    const QByteArray json(R"({"keyOfThisTestOnly1":{"keyOfThisTestOnly2":[{"keyOfThisTestOnly3":1}]}})");
    constexpr int Threads = 4;
    QByteArray stored[Threads];
    std::unique_ptr<QThread> threads[Threads];
    for (int i = 0; i < Threads; ++i) {
        threads[i].reset(QThread::create([&json, &stored, i] { stored[i] = StoredJson::encode(view(json), {}); }));
    }
    for (auto &thread : threads) {
        thread->start();
    }
    for (auto &thread : threads) {
        QVERIFY(thread->wait(30000));
    }
    for (int i = 1; i < Threads; ++i) {
        QCOMPARE(stored[i], stored[0]);
    }
    QByteArray expanded;
    std::unique_ptr<QThread> reader(QThread::create([&] { expanded = StoredJson::expand(stored[0], json.size()); }));
    reader->start();
    QVERIFY(reader->wait(30000));
    QCOMPARE(expanded, json);
    const std::optional<quint32> id = JsonKeyDictionary::instance().idOf("keyOfThisTestOnly2");
    QVERIFY(id);
    QCOMPARE(JsonKeyDictionary::instance().key(*id), std::string_view("keyOfThisTestOnly2"));
}

void TestStoredJson::theMarkerByteCannotBeEncoded()
{
    // Never valid JSON (control characters must be escaped), but the decoder may be handed it:
    // the caller keeps such bytes plain.
    const QByteArray json("{\"a\":\"x\x01y\"}");
    QVERIFY(!StoredJson::canEncode(view(json)));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestStoredJson)
#include "tst_storedjson.moc"
