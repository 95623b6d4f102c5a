// Tests of the simulator's HttpRequestParser: Content-Length and chunked bodies, pipelined
// requests in order, keep-alive and close, the errors that end a parse, and the same requests
// whether the bytes come whole or one at a time.
#include "core/sim/httprequestparser.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope::Sim;

class TestHttpRequestParser : public QObject
{
    Q_OBJECT

private:
    using Result = HttpRequestParser::Result;

    // What the parser says of bytes fed in pieces of `step` (0: whole), as one line per result:
    // "METHOD path?query body [close]" or "error STATUS".
    static QStringList parse(const QByteArray &bytes, qsizetype step, qsizetype maxHead = 512, qint64 maxBody = 4096)
    {
        HttpRequestParser parser(maxHead, maxBody);
        QStringList lines;
        bool failed = false;
        const qsizetype piece = step > 0 ? step : qMax<qsizetype>(1, bytes.size());
        for (qsizetype at = 0; at < bytes.size() && !failed; at += piece) {
            parser.feed(bytes.mid(at, piece));
            for (;;) {
                const Result result = parser.next();
                if (result.kind == Result::Kind::NeedMore)
                    break;
                if (result.kind == Result::Kind::Error) {
                    lines << u"error %1"_s.arg(result.errorStatus);
                    failed = true;
                    break;
                }
                const HttpRequest &request = result.request;
                QString line = QString::fromLatin1(request.method) + u' ' + request.path;
                if (!request.query.isEmpty())
                    line += u'?' + request.query.toString(QUrl::FullyDecoded);
                line += u' ' + QString::fromLatin1(request.body);
                if (result.closeAfterResponse)
                    line += u" [close]"_s;
                lines << line;
            }
        }
        return lines;
    }

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("get with a query, no body") << "GET /api/v1/pods?limit=5&labelSelector=app%3Dweb HTTP/1.1\r\nHost: sim\r\n\r\n"_ba
                                                   << QStringList{u"GET /api/v1/pods?limit=5&labelSelector=app=web "_s};
        QTest::newRow("a form-encoded plus in the query is a space")
            << "GET /x?fieldSelector=a+b HTTP/1.1\r\n\r\n"_ba << QStringList{u"GET /x?fieldSelector=a b "_s};
        QTest::newRow("content-length body") << "POST /p HTTP/1.1\r\nContent-Length: 7\r\n\r\n{\"a\":1}"_ba << QStringList{u"POST /p {\"a\":1}"_s};
        QTest::newRow("header names any case") << "PUT /p HTTP/1.1\r\ncOnTeNt-LeNgTh: 2\r\n\r\nok"_ba << QStringList{u"PUT /p ok"_s};
        QTest::newRow("chunked with an extension and a trailer")
            << "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n"_ba << QStringList{u"POST /p abcde"_s};
        QTest::newRow("pipelined requests in order")
            << "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 1\r\n\r\nxGET /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\ny\r\n0\r\n\r\n"_ba
            << QStringList{u"GET /a "_s, u"POST /b x"_s, u"GET /c y"_s};
        QTest::newRow("connection close") << "GET /a HTTP/1.1\r\nConnection: Close\r\n\r\n"_ba << QStringList{u"GET /a  [close]"_s};
        QTest::newRow("http/1.0 closes unless keep-alive")
            << "GET /a HTTP/1.0\r\n\r\nGET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"_ba << QStringList{u"GET /a  [close]"_s, u"GET /b "_s};
        QTest::newRow("no request before its body is complete") << "POST /p HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"_ba << QStringList{};
        QTest::newRow("malformed request line is 400") << "GET /a\r\n\r\nGET /b HTTP/1.1\r\n\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("not http/1 is 400") << "GET /a HTTP/2.0\r\n\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("negative content-length is 413") << "POST /p HTTP/1.1\r\nContent-Length: -1\r\n\r\n"_ba << QStringList{u"error 413"_s};
        QTest::newRow("content-length over the limit is 413") << "POST /p HTTP/1.1\r\nContent-Length: 4097\r\n\r\n"_ba << QStringList{u"error 413"_s};
        QTest::newRow("bad chunk size is 400") << "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("chunks over the limit are 400")
            << "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n800\r\n"_ba + QByteArray(2048, 'a') + "\r\n801\r\n"_ba << QStringList{u"error 400"_s};
        // fuzz_simhttp1: a head over the limit passed when it arrived in one read, and one at
        // the limit failed when its end came in pieces.
        QTest::newRow("a head over the limit is 431 however it arrives")
            << "GET / HTTP/1.1\r\nX: "_ba + QByteArray(600, 'a') + "\r\n\r\n"_ba << QStringList{u"error 431"_s};
        QTest::newRow("a head at the limit passes however it arrives")
            << "GET / HTTP/1.1\r\nX: "_ba + QByteArray(512 - 19, 'a') + "\r\n\r\nGET /b HTTP/1.1\r\n\r\n"_ba << QStringList{u"GET / "_s, u"GET /b "_s};
        // fuzz_simhttp1 (UBSan): the body's size plus a chunk size near 2^63 overflowed.
        QTest::newRow("a chunk size near 2^63 after a chunk is 400")
            << "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n7fffffffffffffff\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("a head that never ends is 431") << "GET / HTTP/1.1\r\nX: "_ba + QByteArray(600, 'a') << QStringList{u"error 431"_s};
        // fuzz_simhttp1 (stop 28's notes): a chunk-size line and the trailer fields had no bound,
        // so a client could grow the connection's buffer without end.
        const QByteArray chunked = "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"_ba;
        const qsizetype lineLimit = HttpRequestParser::MaxChunkLineBytes;
        QTest::newRow("a chunk-size line that never ends is 400") << chunked + "1;"_ba + QByteArray(lineLimit, 'x') << QStringList{u"error 400"_s};
        QTest::newRow("a chunk-size line over the limit is 400")
            << chunked + "1;"_ba + QByteArray(lineLimit, 'x') + "\r\na\r\n0\r\n\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("a chunk-size line at the limit passes")
            << chunked + "1;"_ba + QByteArray(lineLimit - 2, 'x') + "\r\na\r\n0\r\n\r\n"_ba << QStringList{u"POST /p a"_s};
        QTest::newRow("trailer fields that never end are 431") << chunked + "0\r\nX-T: "_ba + QByteArray(600, 'a') << QStringList{u"error 431"_s};
        QTest::newRow("trailer fields over the head limit are 431")
            << chunked + "0\r\n"_ba + QByteArray("X-T: 1\r\n").repeated(80) + "\r\n"_ba << QStringList{u"error 431"_s};
        QTest::newRow("chunk data without its CRLF is 400") << chunked + "3\r\nabcXY0\r\n\r\n"_ba << QStringList{u"error 400"_s};
        QTest::newRow("requests before an error are kept") << "GET /a HTTP/1.1\r\n\r\nBAD\r\n\r\n"_ba << QStringList{u"GET /a "_s, u"error 400"_s};
    }

    void parses()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        QCOMPARE(parse(bytes, 0), expected);
    }

    // The reads a socket happens to make must not change what the parser says.
    void anySplitParsesAlike_data() { parses_data(); }

    void anySplitParsesAlike()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, expected);
        for (const qsizetype step : {1, 2, 3, 7, 64})
            QCOMPARE(parse(bytes, step), expected);
    }

    void nothingAfterAnError()
    {
        HttpRequestParser parser;
        parser.feed("GET /a\r\n\r\n");
        QCOMPARE(parser.next().kind, Result::Kind::Error);
        parser.feed("GET /b HTTP/1.1\r\n\r\n");
        const Result again = parser.next();
        QCOMPARE(again.kind, Result::Kind::Error);
        QCOMPARE(again.errorStatus, 400);
        QVERIFY(!parser.hasBufferedBytes());
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestHttpRequestParser)
#include "tst_httprequestparser.moc"
