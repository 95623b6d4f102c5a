#include "core/kube/apierror.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

using OptionalSeconds = std::optional<qint64>;

class TestApiError : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromResponse_data();
    void fromResponse();
    void retryAfter_data();
    void retryAfter();
    void tooLargeResourceVersion_data();
    void tooLargeResourceVersion();
    void configurationAndRefusal_data();
    void configurationAndRefusal();
};

void TestApiError::fromResponse_data()
{
    QTest::addColumn<int>("httpStatus");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("retryAfterHeader");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QString>("message");
    QTest::addColumn<OptionalSeconds>("retryAfter");
    QTest::addColumn<bool>("expired");
    QTest::addColumn<bool>("retryable");

    QTest::newRow("Status NotFound decoded")
        << 404 << QByteArray(R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"pods \"x\" not found","reason":"NotFound","code":404})")
        << QByteArray() << 404 << u"NotFound"_s << u"pods \"x\" not found"_s << OptionalSeconds() << false << false;
    QTest::newRow("Status Expired for an old continue token")
        << 410 << QByteArray(R"({"kind":"Status","status":"Failure","message":"The provided continue parameter is too old","reason":"Expired","code":410})")
        << QByteArray() << 410 << u"Expired"_s << u"The provided continue parameter is too old"_s << OptionalSeconds() << true << false;
    QTest::newRow("429 with Retry-After header") << 429
                                                 << QByteArray(R"({"kind":"Status","message":"too many requests","reason":"TooManyRequests","code":429})")
                                                 << QByteArray("3") << 429 << u"TooManyRequests"_s << u"too many requests"_s << OptionalSeconds(3) << false
                                                 << true;
    QTest::newRow("retryAfterSeconds in Status details")
        << 503 << QByteArray(R"({"kind":"Status","reason":"ServiceUnavailable","code":503,"details":{"retryAfterSeconds":7}})") << QByteArray() << 503
        << u"ServiceUnavailable"_s << QString() << OptionalSeconds(7) << false << true;
    QTest::newRow("header wins over details") << 429 << QByteArray(R"({"kind":"Status","code":429,"details":{"retryAfterSeconds":7}})") << QByteArray("1")
                                              << 429 << u"TooManyRequests"_s << QString() << OptionalSeconds(1) << false << true;
    QTest::newRow("HTML from a proxy becomes an excerpt")
        << 502 << QByteArray("<html><body>Bad   gateway</body></html>") << QByteArray() << 502 << u"InternalError"_s
        << u"the server answered with HTTP status 502: <html><body>Bad gateway</body></html>"_s << OptionalSeconds() << false << true;
    QTest::newRow("empty body 401") << 401 << QByteArray() << QByteArray() << 401 << u"Unauthorized"_s << u"the server answered with HTTP status 401"_s
                                    << OptionalSeconds() << false << false;
    QTest::newRow("bare 410 is expired") << 410 << QByteArray() << QByteArray() << 410 << u"Gone"_s << u"the server answered with HTTP status 410"_s
                                         << OptionalSeconds() << true << false;
}

void TestApiError::fromResponse()
{
    QFETCH(int, httpStatus);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, retryAfterHeader);
    QFETCH(int, code);
    QFETCH(QString, reason);
    QFETCH(QString, message);
    QFETCH(OptionalSeconds, retryAfter);
    QFETCH(bool, expired);
    QFETCH(bool, retryable);

    const ApiError error = ApiError::fromResponse(httpStatus, body, retryAfterHeader, QDateTime::currentDateTimeUtc());
    QVERIFY(error.isError());
    QCOMPARE(error.kind(), ApiError::Kind::Http);
    QCOMPARE(error.code(), code);
    QCOMPARE(error.reason(), reason);
    QCOMPARE(error.message(), message);
    QCOMPARE(error.retryAfter().has_value(), retryAfter.has_value());
    if (retryAfter) {
        QCOMPARE(qint64(error.retryAfter()->count()), *retryAfter);
    }
    QCOMPARE(error.isExpired(), expired);
    QCOMPARE(error.isRetryable(), retryable);
    QVERIFY(error.toString().startsWith(reason + u" ("_s + QString::number(code) + u')'));
}

// apimachinery's NewTooLargeResourceVersionError and the forms older servers sent
// (client-go's isTooLargeResourceVersionError).
void TestApiError::tooLargeResourceVersion_data()
{
    QTest::addColumn<QByteArray>("status");
    QTest::addColumn<bool>("tooLarge");
    QTest::newRow("504 with the cause ResourceVersionTooLarge is a too large resourceVersion")
        << QByteArray(R"({"kind":"Status","code":504,"reason":"Timeout","message":"Too large resource version: 9, current: 5",)"
                      R"("details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1}})")
        << true;
    QTest::newRow("504 whose cause only says so in its message (1.17-1.18.5)")
        << QByteArray(R"({"kind":"Status","code":504,"reason":"Timeout","message":"x","details":{"causes":[{"message":"Too large resource version"}]}})")
        << true;
    QTest::newRow("504 that says so only in its message (before 1.17)")
        << QByteArray(R"({"kind":"Status","code":504,"reason":"Timeout","message":"Too large resource version: 9, current: 5"})") << true;
    QTest::newRow("a plain 504 timeout is not") << QByteArray(R"({"kind":"Status","code":504,"reason":"Timeout","message":"request timed out"})") << false;
    QTest::newRow("410 Expired is not") << QByteArray(R"({"kind":"Status","code":410,"reason":"Expired","message":"too old resource version"})") << false;
}

void TestApiError::tooLargeResourceVersion()
{
    QFETCH(QByteArray, status);
    QFETCH(bool, tooLarge);
    const ApiError error = ApiError::fromStatus(status);
    QCOMPARE(error.isTooLargeResourceVersion(), tooLarge);
}

void TestApiError::retryAfter_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<OptionalSeconds>("expected");

    QTest::newRow("delta seconds") << QByteArray("120") << OptionalSeconds(120);
    QTest::newRow("zero") << QByteArray("0") << OptionalSeconds(0);
    QTest::newRow("surrounding whitespace") << QByteArray("  5 ") << OptionalSeconds(5);
    QTest::newRow("negative is no value") << QByteArray("-1") << OptionalSeconds();
    QTest::newRow("fraction is no value") << QByteArray("1.5") << OptionalSeconds();
    QTest::newRow("empty is no value") << QByteArray() << OptionalSeconds();
    QTest::newRow("garbage is no value") << QByteArray("soon") << OptionalSeconds();
    QTest::newRow("IMF-fixdate in the future") << QByteArray("Wed, 02 Dec 2026 12:00:30 GMT") << OptionalSeconds(30);
    QTest::newRow("IMF-fixdate in the past is now") << QByteArray("Wed, 02 Dec 2026 11:00:00 GMT") << OptionalSeconds(0);
    QTest::newRow("obsolete RFC 850 date") << QByteArray("Wednesday, 02-Dec-26 12:01:00 GMT") << OptionalSeconds(60);
    QTest::newRow("obsolete asctime date") << QByteArray("Wed Dec  2 12:00:10 2026") << OptionalSeconds(10);
}

void TestApiError::retryAfter()
{
    QFETCH(QByteArray, header);
    QFETCH(OptionalSeconds, expected);
    const QDateTime now(QDate(2026, 12, 2), QTime(12, 0, 0), Qt::UTC);
    const auto actual = ApiError::parseRetryAfter(header, now);
    QCOMPARE(actual.has_value(), expected.has_value());
    if (expected) {
        QCOMPARE(qint64(actual->count()), *expected);
    }
}

// What callers decide from an error: a configuration problem fails at once (kubectl does; the
// app waits for the file to change), a refusal fails a CLI command at once, the rest retries.
void TestApiError::configurationAndRefusal_data()
{
    QTest::addColumn<ApiError>("error");
    QTest::addColumn<bool>("configuration");
    QTest::addColumn<bool>("refusal");
    QTest::newRow("a CA file that does not exist") << ApiError(ApiError::Kind::Config, u"cannot read the CA"_s) << true << false;
    QTest::newRow("an exec plugin that is not installed") << ApiError(ApiError::Kind::Credentials, u"exec: not found"_s) << true << false;
    QTest::newRow("401 Unauthorized") << ApiError(ApiError::Kind::Http, u"Unauthorized"_s, 401) << false << true;
    QTest::newRow("403 Forbidden") << ApiError(ApiError::Kind::Http, u"Forbidden"_s, 403) << false << true;
    QTest::newRow("404 is neither") << ApiError(ApiError::Kind::Http, u"NotFound"_s, 404) << false << false;
    QTest::newRow("an untrusted server certificate is neither") << ApiError(ApiError::Kind::Tls, u"untrusted"_s) << false << false;
    QTest::newRow("a refused connection is neither") << ApiError(ApiError::Kind::Network, u"refused"_s) << false << false;
    QTest::newRow("a non-HTTP error carrying 401 is no refusal") << ApiError(ApiError::Kind::Decode, u"odd"_s, 401) << false << false;
}

void TestApiError::configurationAndRefusal()
{
    QFETCH(ApiError, error);
    QFETCH(bool, configuration);
    QFETCH(bool, refusal);
    QCOMPARE(error.isConfiguration(), configuration);
    QCOMPARE(error.isRefusal(), refusal);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestApiError)
#include "tst_apierror.moc"
