// Tests of the simulator's Http2Session fed client frames through receive(), with no network:
// a request's body reaches its handler whole, and a body over the session's limit is refused
// and never handed to a handler cut short.
#include "core/sim/http2session.h"

#include "sinksocket.h"
#include "testmain.h"

#include <QPointer>
#include <QTest>

using namespace Cachescope::Sim;

namespace {

// An HTTP/2 frame: its 9-byte header (length, type, flags, stream id), then the payload.
QByteArray frame(quint8 type, quint8 flags, quint32 streamId, const QByteArray &payload)
{
    QByteArray bytes;
    const auto length = quint32(payload.size());
    bytes.append(char(length >> 16)).append(char(length >> 8)).append(char(length));
    bytes.append(char(type)).append(char(flags));
    bytes.append(char(streamId >> 24)).append(char(streamId >> 16)).append(char(streamId >> 8)).append(char(streamId));
    return bytes + payload;
}

// An HPACK "literal header field without indexing, new name" (RFC 7541 6.2.2), short strings.
QByteArray literalField(const QByteArray &name, const QByteArray &value)
{
    return QByteArray(1, '\0') + char(name.size()) + name + char(value.size()) + value;
}

constexpr quint8 Data = 0x0, Headers = 0x1, Settings = 0x4;
constexpr quint8 EndStream = 0x1, EndHeaders = 0x4;
constexpr qsizetype MaxFramePayload = 16384; // SETTINGS_MAX_FRAME_SIZE's initial value

// A client connection that POSTs `bodyBytes` on stream 1 without a content-length, in DATA
// frames of the largest size, the last one ending the stream.
QByteArray postWithBody(qsizetype bodyBytes)
{
    QByteArray bytes = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    bytes += frame(Settings, 0, 0, {});
    const QByteArray fields = literalField(":method", "POST") + literalField(":scheme", "http") +
        literalField(":path", "/api/v1/namespaces/default/configmaps") + literalField(":authority", "sim");
    bytes += frame(Headers, EndHeaders, 1, fields);
    for (qsizetype sent = 0; sent < bodyBytes; sent += MaxFramePayload) {
        const qsizetype size = qMin(MaxFramePayload, bodyBytes - sent);
        bytes += frame(Data, sent + size == bodyBytes ? EndStream : 0, 1, QByteArray(size, 'a'));
    }
    return bytes;
}

} // namespace

class TestHttp2Session : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bodyIsHandedOutWholeOrNotAtAll_data()
    {
        QTest::addColumn<qsizetype>("bodyBytes");
        QTest::addColumn<bool>("handedOut");
        QTest::newRow("a small body") << qsizetype(10) << true;
        QTest::newRow("a body of many frames, past the initial window") << qsizetype(1024 * 1024 + 5) << true;
        QTest::newRow("a body at the limit") << qsizetype(32 * 1024 * 1024) << true;
        // fuzz_simhttp2's review asked whether the DATA frames after the limit, read in the same
        // pass before the RST_STREAM is written, could still end the stream and hand the handler
        // the first 32 MiB as the request: nghttp2 drops a stream's frames once its reset is
        // submitted. These rows keep it so.
        QTest::newRow("a body over the limit is refused") << qsizetype(32 * 1024 * 1024 + 1) << false;
        QTest::newRow("a body over the limit by several frames is refused") << qsizetype(32 * 1024 * 1024 + 3 * 16384 + 7) << false;
        QTest::newRow("a body over the limit by half a frame is refused") << qsizetype(32 * 1024 * 1024 - 8000 + 16384) << false;
    }

    void bodyIsHandedOutWholeOrNotAtAll()
    {
        QFETCH(qsizetype, bodyBytes);
        QFETCH(bool, handedOut);
        QPointer<Http2Session> session = new Http2Session(new CachescopeTest::SinkSocket, false);
        QList<qsizetype> bodies;
        connect(session, &Http2Session::requestReceived, this, [&](HttpExchange *exchange, const HttpRequest &request) {
            bodies.append(request.body.size());
            exchange->sendResponse(201, "application/json", "{}");
        });
        const QByteArray bytes = postWithBody(bodyBytes);
        // Half the initial window at a time, and what the session then writes (its WINDOW_UPDATEs)
        // written before the next piece: the pace of a client that honours flow control.
        constexpr qsizetype piece = 32 * 1024;
        for (qsizetype at = 0; at < bytes.size() && session; at += piece) {
            session->receive(QByteArrayView(bytes).sliced(at, qMin(piece, bytes.size() - at)));
            QCoreApplication::processEvents();
        }
        QCoreApplication::processEvents();
        QVERIFY(session);
        QCOMPARE(bodies, handedOut ? QList<qsizetype>{bodyBytes} : QList<qsizetype>{});
        delete session.data();
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestHttp2Session)
#include "tst_http2session.moc"
