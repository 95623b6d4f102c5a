#include "core/kube/watchdecoder.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

using Expected = QList<QPair<WatchEvent::Type, QByteArray>>;

class TestWatchDecoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everySplitPosition_data();
    void everySplitPosition();
    void everyPairOfSplits_data() { everySplitPosition_data(); }
    void everyPairOfSplits();
    void malformed_data();
    void malformed();
    void oversizedFrameIsSkippedNotBuffered();

private:
    static Expected decode(const QList<QByteArrayView> &pieces, WatchDecoder &decoder);
    static Expected toExpected(const QList<WatchEvent> &events);
};

Expected TestWatchDecoder::toExpected(const QList<WatchEvent> &events)
{
    Expected result;
    for (const WatchEvent &event : events) {
        result.append({event.type, event.type == WatchEvent::Type::Malformed ? QByteArray() : event.object});
    }
    return result;
}

Expected TestWatchDecoder::decode(const QList<QByteArrayView> &pieces, WatchDecoder &decoder)
{
    QList<WatchEvent> events;
    for (QByteArrayView piece : pieces) {
        events += decoder.feed(piece);
    }
    events += decoder.finish();
    return toExpected(events);
}

void TestWatchDecoder::everySplitPosition_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<Expected>("expected");

    const QByteArray pod1 = R"({"kind":"Pod","metadata":{"name":"a","resourceVersion":"1"}})";
    const QByteArray pod2 = R"({"kind":"Pod","metadata":{"name":"b","resourceVersion":"2"},"spec":{"containers":[{"name":"c"}]}})";
    const QByteArray status = R"({"kind":"Status","code":410,"reason":"Expired","message":"too old resource version: 1 5"})";
    const auto ev = [](const char *type, const QByteArray &object) -> QByteArray {
        return "{\"type\":\"" + QByteArray(type) + "\",\"object\":" + object + "}";
    };

    QTest::newRow("newline-delimited events") << ev("ADDED", pod1) + '\n' + ev("MODIFIED", pod2) + '\n' + ev("DELETED", pod1) +
            '\n' << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Modified, pod2}, {WatchEvent::Type::Deleted, pod1}};
    QTest::newRow("events with no separator at all") << ev("ADDED", pod1) + ev("ADDED", pod2)
                                                     << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Added, pod2}};
    QTest::newRow("CRLF, blank lines and spaces between events") << "\r\n  " + ev("ADDED", pod1) + "\r\n\r\n\t" + ev("BOOKMARK", pod2) + " \n"
                                                                 << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Bookmark, pod2}};
    const QByteArray tricky = R"({"metadata":{"name":"x","annotations":{"a":"}{][\"\\","b":"\\\"}"}}})";
    QTest::newRow("braces, brackets, quotes and escapes inside strings")
        << ev("ADDED", tricky) + '\n' + ev("DELETED", pod1) << Expected{{WatchEvent::Type::Added, tricky}, {WatchEvent::Type::Deleted, pod1}};
    const QByteArray utf8 = "{\"metadata\":{\"name\":\"\xe5\x90\x8d\xe5\xad\x97-\xf0\x9f\x9a\x80\"}}";
    QTest::newRow("multi-byte UTF-8 split anywhere") << ev("ADDED", utf8) + '\n' + ev("MODIFIED", utf8)
                                                     << Expected{{WatchEvent::Type::Added, utf8}, {WatchEvent::Type::Modified, utf8}};
    QTest::newRow("pretty-printed events, newlines inside them")
        << QByteArray("{\n  \"type\": \"ADDED\",\n  \"object\": ") + pod1 + "}\n{\n \"type\":\"DELETED\",\"object\":" + pod2 + "}\n"
        << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Deleted, pod2}};
    QTest::newRow("two events on one line, then one a line") << ev("ADDED", pod1) + ev("MODIFIED", pod2) + '\n' + ev("DELETED", pod1) +
            '\n' << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Modified, pod2}, {WatchEvent::Type::Deleted, pod1}};
    QTest::newRow("object before type, with whitespace inside") << QByteArray("{ \"object\" : ") + pod1 + ", \"type\" : \"ADDED\" }\n" + ev("ERROR", status)
                                                                << Expected{{WatchEvent::Type::Added, pod1}, {WatchEvent::Type::Error, status}};
}

void TestWatchDecoder::everySplitPosition()
{
    QFETCH(QByteArray, stream);
    QFETCH(Expected, expected);

    for (qsizetype split = 0; split <= stream.size(); ++split) {
        WatchDecoder decoder;
        const Expected actual = decode({QByteArrayView(stream).first(split), QByteArrayView(stream).sliced(split)}, decoder);
        QVERIFY2(actual == expected, qPrintable(u"split at byte "_s + QString::number(split)));
        QCOMPARE(decoder.bufferedBytes(), 0);
    }

    // And one byte at a time.
    WatchDecoder decoder;
    QList<QByteArrayView> bytes;
    for (qsizetype i = 0; i < stream.size(); ++i) {
        bytes.append(QByteArrayView(stream).sliced(i, 1));
    }
    QCOMPARE(decode(bytes, decoder), expected);
}

void TestWatchDecoder::everyPairOfSplits()
{
    QFETCH(QByteArray, stream);
    QFETCH(Expected, expected);

    const QByteArrayView view(stream);
    for (qsizetype first = 0; first <= stream.size(); first += 3) {
        for (qsizetype second = first; second <= stream.size(); ++second) {
            WatchDecoder decoder;
            const Expected actual = decode({view.first(first), view.sliced(first, second - first), view.sliced(second)}, decoder);
            QVERIFY2(actual == expected, qPrintable(u"split at bytes %1 and %2"_s.arg(first).arg(second)));
        }
    }
}

void TestWatchDecoder::malformed_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QList<WatchEvent::Type>>("types");
    QTest::addColumn<QString>("firstError");

    using T = WatchEvent::Type;
    const QByteArray good = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})";
    QTest::newRow("invalid JSON inside a frame, stream goes on")
        << QByteArray(R"({"type":"ADDED","object":{"a":tru}})") + '\n' + good << QList<T>{T::Malformed, T::Added} << u"not valid JSON"_s;
    QTest::newRow("junk between frames is one error") << good + "\nHTTP/1.1 junk\n" + good << QList<T>{T::Added, T::Malformed, T::Added}
                                                      << u"unexpected bytes"_s;
    QTest::newRow("unknown type") << QByteArray(R"({"type":"EXPLODED","object":{}})") + good << QList<T>{T::Malformed, T::Added} << u"unknown type"_s;
    QTest::newRow("missing type") << QByteArray(R"({"object":{}})") + good << QList<T>{T::Malformed, T::Added} << u"has no type"_s;
    QTest::newRow("missing object") << QByteArray(R"({"type":"ADDED"})") + good << QList<T>{T::Malformed, T::Added} << u"has no object"_s;
    QTest::newRow("object not an object") << QByteArray(R"({"type":"ADDED","object":[1]})") + good << QList<T>{T::Malformed, T::Added} << u"has no object"_s;
    QTest::newRow("stream cut inside a frame") << good + "\n" + good.left(20) << QList<T>{T::Added, T::Malformed} << u"ended inside a watch event"_s;
    QTest::newRow("trailing junk at the end") << good + "\n]]" << QList<T>{T::Added, T::Malformed} << u"unexpected bytes"_s;
    QTest::newRow("a raw newline inside a string: one broken frame, then the stream goes on")
        << QByteArray("{\"type\":\"ADDED\",\"object\":{\"a\":\"x\ny\"}}\n") + good + '\n' + good << QList<T>{T::Malformed, T::Added, T::Added}
        << u"not valid JSON"_s;
    QTest::newRow("a line with an event and junk after it") << good + " junk\n" + good << QList<T>{T::Added, T::Malformed, T::Added} << u"unexpected bytes"_s;
    QTest::newRow("stray closing brace in a frame ends it early")
        << QByteArray(R"({"type":"ADDED","object":{}}})") + good << QList<T>{T::Added, T::Malformed, T::Added} << u"unexpected bytes"_s;
}

void TestWatchDecoder::malformed()
{
    QFETCH(QByteArray, stream);
    QFETCH(QList<WatchEvent::Type>, types);
    QFETCH(QString, firstError);

    for (qsizetype split = 0; split <= stream.size(); ++split) {
        WatchDecoder decoder;
        QList<WatchEvent> events = decoder.feed(QByteArrayView(stream).first(split));
        events += decoder.feed(QByteArrayView(stream).sliced(split));
        events += decoder.finish();
        QList<WatchEvent::Type> actual;
        QString error;
        for (const WatchEvent &event : events) {
            actual.append(event.type);
            if (error.isEmpty() && event.type == WatchEvent::Type::Malformed) {
                error = event.decodeError;
            }
        }
        QVERIFY2(actual == types, qPrintable(u"split at byte "_s + QString::number(split)));
        QVERIFY2(error.contains(firstError), qPrintable(error));
    }
}

void TestWatchDecoder::oversizedFrameIsSkippedNotBuffered()
{
    const qsizetype limit = 1024;
    WatchDecoder decoder(limit);
    const QByteArray big = R"({"type":"ADDED","object":{"data":")" + QByteArray(10 * limit, 'x') + R"(","nested":{"a":"}"}}})";
    const QByteArray small = R"({"type":"DELETED","object":{"metadata":{"name":"after"}}})";
    const QByteArray stream = small + big + small;
    QList<WatchEvent> events;
    for (qsizetype i = 0; i < stream.size(); i += 100) {
        events += decoder.feed(QByteArrayView(stream).sliced(i, std::min<qsizetype>(100, stream.size() - i)));
        QVERIFY(decoder.bufferedBytes() <= limit);
    }
    events += decoder.finish();
    QCOMPARE(events.size(), 3);
    QCOMPARE(events.at(0).type, WatchEvent::Type::Deleted);
    QCOMPARE(events.at(1).type, WatchEvent::Type::Malformed);
    QVERIFY(events.at(1).decodeError.contains(u"larger than the limit of 1024 bytes"_s));
    QCOMPARE(events.at(2).type, WatchEvent::Type::Deleted);
    QCOMPARE(events.at(2).object, QByteArray(R"({"metadata":{"name":"after"}})"));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestWatchDecoder)
#include "tst_watchdecoder.moc"
