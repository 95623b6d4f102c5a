#include "core/kube/listdecoder.h"

#include "testmain.h"

#include <QRandomGenerator>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

class TestListDecoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wellFormed_data();
    void wellFormed();
    void everySplitPosition_data() { wellFormed_data(); }
    void everySplitPosition();
    void malformed_data();
    void malformed();
    void itemsArriveBeforeTheAnswerEnds_data();
    void itemsArriveBeforeTheAnswerEnds();
    void oversizedItemFailsWithoutBeingBuffered();
    void nothingIsReadAfterAFailure();
};

namespace {

const QByteArray podA = R"({"metadata":{"name":"a","namespace":"shop","resourceVersion":"7"},"spec":{"nodeName":"n1"}})";
// Strings that hold every byte the decoder cares about: brackets, quotes, backslashes, commas.
const QByteArray podTricky =
    R"({"metadata":{"name":"b","annotations":{"x":"}]{[\"\\\",:","y":"\\"}},"spec":{"containers":[{"name":"c","args":["]","}","\"{"]}]}})";
const QByteArray podUnicode = R"({"metadata":{"name":"ü-\u00e9","labels":{"emoji":"🚀"}}})";

// errorOf() is the decoder's reason, or "" for a list: for failure messages only.
QString errorOf(const std::variant<ListPage, QString> &result)
{
    const QString *error = std::get_if<QString>(&result);
    return error ? *error : QString();
}

void addRow(
    const char *name, const QByteArray &body, const QList<QByteArray> &items, const QString &rv = {}, const QString &continueToken = {}, qint64 remaining = -1)
{
    QTest::newRow(name) << body << items << rv << continueToken << remaining;
}

} // namespace

void TestListDecoder::wellFormed_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QList<QByteArray>>("items");
    QTest::addColumn<QString>("resourceVersion");
    QTest::addColumn<QString>("continueToken");
    QTest::addColumn<qint64>("remaining"); // -1: none

    addRow("apiserver's shape",
           R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42"},"items":[)" + podA + "," + podTricky + "]}",
           {podA, podTricky},
           u"42"_s);
    addRow("items before metadata", R"({"items":[{"a":1}],"metadata":{"resourceVersion":"3"}})", {R"({"a":1})"}, u"3"_s);
    addRow("null items is empty", R"({"metadata":{},"items":null})", {});
    addRow("empty items", R"({"metadata":{"resourceVersion":"9"},"items":[]})", {}, u"9"_s);
    addRow("a page with continue and remainingItemCount",
           R"({"kind":"PodList","metadata":{"resourceVersion":"5","continue":"eyJ2IjoxfQ==","remainingItemCount":1234},"items":[)" + podA + "]}",
           {podA},
           u"5"_s,
           u"eyJ2IjoxfQ=="_s,
           qint64(1234));
    addRow("pretty-printed, whitespace everywhere",
           "\n {\r\n\t\"metadata\" : { \"resourceVersion\" : \"8\" } ,\n  \"items\" : [\n    " + podA + " ,\n    " + podUnicode + "\n  ]\n}\n ",
           {podA, podUnicode},
           u"8"_s);
    addRow("members named items deeper down are not the list's", R"({"kind":{"items":[1,2]},"extra":[{"items":[{"x":1}]}],"items":[)" + podA + "]}", {podA});
    addRow("a member whose name is escaped or long is skipped",
           R"({"it\"ems":[1],"a-very-long-member-name-that-goes-on-and-on-and-on":{"items":[]},"items":[)" + podA + "]}",
           {podA});
    addRow("scalars beside the items", R"({"kind":"List","count":3,"ok":true,"nothing":null,"items":[)" + podA + "]}", {podA});
}

void TestListDecoder::wellFormed()
{
    QFETCH(QByteArray, body);
    QFETCH(QList<QByteArray>, items);
    QFETCH(QString, resourceVersion);
    QFETCH(QString, continueToken);
    QFETCH(qint64, remaining);

    const auto decoded = ListDecoder::decode(body);
    QVERIFY2(std::holds_alternative<ListPage>(decoded), qPrintable(errorOf(decoded)));
    const ListPage &page = std::get<ListPage>(decoded);
    QCOMPARE(page.items, items);
    QCOMPARE(page.resourceVersion, resourceVersion);
    QCOMPARE(page.continueToken, continueToken);
    QCOMPARE(page.remainingItemCount.value_or(-1), remaining);
}

void TestListDecoder::everySplitPosition()
{
    QFETCH(QByteArray, body);
    QFETCH(QList<QByteArray>, items);
    QFETCH(QString, resourceVersion);

    // The network may cut the answer anywhere: inside a string, an escape, a UTF-8 sequence.
    for (qsizetype cut = 0; cut <= body.size(); ++cut) {
        ListDecoder decoder;
        QList<QByteArray> got = decoder.feed(QByteArrayView(body).first(cut));
        got += decoder.feed(QByteArrayView(body).sliced(cut));
        const auto end = decoder.finish();
        QVERIFY2(std::holds_alternative<ListPage>(end), qPrintable(u"cut at %1: "_s.arg(cut) + errorOf(end)));
        QCOMPARE(got, items);
        QCOMPARE(std::get<ListPage>(end).resourceVersion, resourceVersion);
    }
}

void TestListDecoder::malformed_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("error");

    QTest::newRow("no items is an error") << QByteArray(R"({"metadata":{}})") << u"it has no items"_s;
    QTest::newRow("item not an object") << QByteArray(R"({"items":[1]})") << u"an item is not an object"_s;
    QTest::newRow("item a string") << QByteArray(R"({"items":["pod"]})") << u"an item is not an object"_s;
    QTest::newRow("item a list") << QByteArray(R"({"items":[[{}]]})") << u"an item is not an object"_s;
    QTest::newRow("not JSON") << QByteArray("<html>") << u"not a JSON object"_s;
    QTest::newRow("a list, not an object") << QByteArray("[{}]") << u"not a JSON object"_s;
    QTest::newRow("empty answer") << QByteArray() << u"it is empty"_s;
    QTest::newRow("items a string") << QByteArray(R"({"items":"none"})") << u"items is not a list"_s;
    QTest::newRow("items an object") << QByteArray(R"({"items":{"a":{}}})") << u"items is not a list"_s;
    QTest::newRow("metadata a string") << QByteArray(R"({"metadata":"x","items":[]})") << u"metadata is not an object"_s;
    QTest::newRow("metadata broken inside") << QByteArray(R"({"metadata":{"resourceVersion":},"items":[]})") << u"metadata is not valid JSON"_s;
    QTest::newRow("ends inside an item") << QByteArray(R"({"items":[{"metadata":{"name":"a")") << u"ended inside the list, 33 bytes into it"_s;
    QTest::newRow("ends after the items") << QByteArray(R"({"items":[])") << u"ended inside the list"_s;
    QTest::newRow("bytes after the list") << QByteArray(R"({"items":[]} {"items":[]})") << u"unexpected bytes after the list"_s;
    QTest::newRow("brackets that do not match") << QByteArray(R"({"items":[{"a":[1}]})") << u"brackets do not match at byte 17"_s;
    QTest::newRow("a value where a name belongs") << QByteArray(R"({{"items":[]}})") << u"not well-formed JSON at byte 1"_s;
    QTest::newRow("nested too deep") << QByteArray(R"({"items":[)" + QByteArray(2000, '{')) << u"nested more than 1024 levels deep"_s;
}

void TestListDecoder::malformed()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, error);
    const auto decoded = ListDecoder::decode(body);
    QVERIFY(std::holds_alternative<QString>(decoded));
    QVERIFY2(std::get<QString>(decoded).contains(error), qPrintable(errorOf(decoded)));
}

void TestListDecoder::itemsArriveBeforeTheAnswerEnds_data()
{
    QTest::addColumn<quint32>("seed");
    QTest::addColumn<int>("maxChunk");
    QTest::newRow("chunks up to 16 bytes") << 1u << 16;
    QTest::newRow("chunks up to 1 KiB") << 2u << 1024;
    QTest::newRow("chunks up to 64 KiB, as a TLS read") << 3u << 65536;
}

void TestListDecoder::itemsArriveBeforeTheAnswerEnds()
{
    QFETCH(quint32, seed);
    QFETCH(int, maxChunk);

    // 3,000 pods of ~200 bytes each (600 KB): the decoder hands each one out as it completes
    // and never holds more than the item in progress and the list's metadata.
    QList<QByteArray> expected;
    QByteArray body = R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"99"},"items":[)";
    qsizetype largestItem = 0;
    for (int i = 0; i < 3000; ++i) {
        const QByteArray item = R"({"metadata":{"name":"pod-)" + QByteArray::number(i) +
            R"(","labels":{"app":"web\"}"}},"spec":{"containers":[{"image":"nginx:)" + QByteArray(i % 97, 'x') + R"("}]},"status":{"phase":"Running"}})";
        largestItem = std::max(largestItem, item.size());
        expected.append(item);
        body += (i ? "," : "") + item;
    }
    body += "]}";

    QRandomGenerator random(seed);
    ListDecoder decoder;
    QList<QByteArray> got;
    qsizetype fed = 0;
    qsizetype itemsAtHalf = -1;
    qsizetype maxBuffered = 0;
    while (fed < body.size()) {
        const qsizetype chunk = std::min<qsizetype>(body.size() - fed, 1 + random.bounded(maxChunk));
        got += decoder.feed(QByteArrayView(body).sliced(fed, chunk));
        fed += chunk;
        maxBuffered = std::max(maxBuffered, decoder.bufferedBytes());
        if (itemsAtHalf < 0 && fed >= body.size() / 2) {
            itemsAtHalf = got.size();
        }
    }
    const auto end = decoder.finish();
    QVERIFY2(std::holds_alternative<ListPage>(end), qPrintable(errorOf(end)));
    QCOMPARE(std::get<ListPage>(end).resourceVersion, u"99"_s);
    QCOMPARE(got, expected);
    // Half the bytes in, about half the items are out (less at most one chunk's worth).
    QVERIFY2(itemsAtHalf >= 3000 / 2 - (maxChunk / 150 + 2), qPrintable(u"%1 items out after half the bytes"_s.arg(itemsAtHalf)));
    // Held at most: the item in progress (whose bytes may arrive in one chunk with the next
    // one's start) and the metadata, never the body.
    const qsizetype metadataBytes = qsizetype(strlen(R"({"resourceVersion":"99"})"));
    QVERIFY2(maxBuffered <= largestItem + metadataBytes + 32, qPrintable(u"held %1 bytes"_s.arg(maxBuffered)));
}

void TestListDecoder::oversizedItemFailsWithoutBeingBuffered()
{
    ListDecoder decoder(100);
    QVERIFY(decoder.feed(R"({"items":[{"a":1},)").size() == 1);
    const QByteArray big = R"({"data":")" + QByteArray(1000, 'x') + R"("})";
    for (qsizetype i = 0; i < big.size(); i += 50) {
        QVERIFY(decoder.feed(QByteArrayView(big).sliced(i, std::min<qsizetype>(50, big.size() - i))).isEmpty());
        QVERIFY2(decoder.bufferedBytes() <= 150, qPrintable(QString::number(decoder.bufferedBytes())));
    }
    QVERIFY(decoder.failed());
    QVERIFY(decoder.error().contains(u"larger than the limit of 100 bytes"_s));
    QCOMPARE(decoder.bufferedBytes(), 0);
}

void TestListDecoder::nothingIsReadAfterAFailure()
{
    ListDecoder decoder;
    QVERIFY(decoder.feed(R"({"items":[7,)").isEmpty());
    QVERIFY(decoder.failed());
    // A valid item after the failure is not handed out: the list is lost, not half kept.
    QVERIFY(decoder.feed(R"({"a":1}]})").isEmpty());
    const auto end = decoder.finish();
    QCOMPARE(std::get<QString>(end), u"an item is not an object"_s);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestListDecoder)
#include "tst_listdecoder.moc"
