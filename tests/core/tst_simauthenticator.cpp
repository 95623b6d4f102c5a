// Tests of the simulator's Authenticator: who a request comes from (bearer token, a client
// certificate of our CA, the restricted user) or its 401, the restricted user's 403, and the
// RBAC verb of a request.
#include "core/sim/authenticator.h"
#include "core/sim/httprequest.h"
#include "core/sim/resourcecatalog.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

using Caller = Authenticator::Caller;

class TestSimAuthenticator : public QObject
{
    Q_OBJECT

private:
    static constexpr int Refused = -1; // an expected 401 in the rows' caller column

    static Authenticator::Settings settings(bool requireAuthentication, const QString &bearerToken = u"secret"_s)
    {
        Authenticator::Settings result;
        result.bearerToken = bearerToken;
        result.restrictedToken = u"secret-restricted"_s;
        result.requireAuthentication = requireAuthentication;
        return result;
    }

    static HttpRequest request(const QByteArray &method, const QByteArray &target, const QByteArray &authorization = {})
    {
        HttpRequest result;
        result.method = method;
        result.setTarget(target);
        if (!authorization.isEmpty())
            result.headers.insert("authorization", authorization);
        return result;
    }

private Q_SLOTS:
    void authenticatesTheCaller_data()
    {
        QTest::addColumn<bool>("required");
        QTest::addColumn<QString>("bearerToken");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<bool>("certificate");
        QTest::addColumn<int>("caller");
        QTest::newRow("the bearer token") << true << u"secret"_s << QByteArray("Bearer secret") << false << int(Caller::TokenUser);
        QTest::newRow("the bearer token, blanks around it") << true << u"secret"_s << QByteArray("Bearer  secret ") << false << int(Caller::TokenUser);
        QTest::newRow("the restricted token") << true << u"secret"_s << QByteArray("Bearer secret-restricted") << false << int(Caller::RestrictedUser);
        QTest::newRow("the restricted token beside a client certificate stays restricted")
            << true << u"secret"_s << QByteArray("Bearer secret-restricted") << true << int(Caller::RestrictedUser);
        QTest::newRow("a client certificate of our CA") << true << u"secret"_s << QByteArray() << true << int(Caller::CertificateUser);
        QTest::newRow("a wrong token beside a client certificate") << true << u"secret"_s << QByteArray("Bearer wrong") << true << int(Caller::CertificateUser);
        QTest::newRow("no credentials: 401") << true << u"secret"_s << QByteArray() << false << Refused;
        QTest::newRow("a wrong token: 401") << true << u"secret"_s << QByteArray("Bearer wrong") << false << Refused;
        QTest::newRow("the token without its scheme: 401") << true << u"secret"_s << QByteArray("secret") << false << Refused;
        QTest::newRow("basic credentials: 401") << true << u"secret"_s << QByteArray("Basic c2VjcmV0") << false << Refused;
        QTest::newRow("an empty bearer when no token is configured: 401") << true << QString() << QByteArray("Bearer ") << false << Refused;
        QTest::newRow("not required: no credentials are anonymous") << false << u"secret"_s << QByteArray() << false << int(Caller::Anonymous);
        QTest::newRow("not required: a wrong token is anonymous") << false << u"secret"_s << QByteArray("Bearer wrong") << false << int(Caller::Anonymous);
        QTest::newRow("not required: the bearer token is its user") << false << u"secret"_s << QByteArray("Bearer secret") << false << int(Caller::TokenUser);
        QTest::newRow("not required: the restricted token stays restricted")
            << false << u"secret"_s << QByteArray("Bearer secret-restricted") << false << int(Caller::RestrictedUser);
    }
    void authenticatesTheCaller()
    {
        QFETCH(bool, required);
        QFETCH(QString, bearerToken);
        QFETCH(QByteArray, authorization);
        QFETCH(bool, certificate);
        QFETCH(int, caller);
        const Authenticator authenticator(settings(required, bearerToken));
        const auto result = authenticator.authenticate(request("GET", "/api/v1/pods", authorization), certificate);
        if (caller == Refused) {
            QVERIFY(std::holds_alternative<ApiError>(result));
            const ApiError &error = std::get<ApiError>(result);
            QCOMPARE(error.code, 401);
            QCOMPARE(error.reason, u"Unauthorized"_s);
            return;
        }
        QVERIFY(std::holds_alternative<Caller>(result));
        QCOMPARE(int(std::get<Caller>(result)), caller);
    }

    void authorizesOnlyWhatRbacAllows_data()
    {
        QTest::addColumn<int>("caller");
        QTest::addColumn<QString>("verb");
        QTest::addColumn<QString>("plural");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("namespaceName");
        QTest::addColumn<QString>("message"); // empty: allowed
        QTest::newRow("the restricted user cannot list pods in a namespace")
            << int(Caller::RestrictedUser) << u"list"_s << u"pods"_s << QString() << u"shop"_s
            << u"pods is forbidden: User \"restricted\" cannot list resource \"pods\" in API group \"\" in the namespace \"shop\""_s;
        QTest::newRow("the restricted user cannot watch pods across namespaces")
            << int(Caller::RestrictedUser) << u"watch"_s << u"pods"_s << QString() << QString()
            << u"pods is forbidden: User \"restricted\" cannot watch resource \"pods\" in API group \"\" at the cluster scope"_s;
        QTest::newRow("the restricted user cannot get a secret")
            << int(Caller::RestrictedUser) << u"get"_s << u"secrets"_s << u"db"_s << u"shop"_s
            << u"secrets \"db\" is forbidden: User \"restricted\" cannot get resource \"secrets\" in API group \"\" in the namespace \"shop\""_s;
        QTest::newRow("the restricted user may list configmaps")
            << int(Caller::RestrictedUser) << u"list"_s << u"configmaps"_s << QString() << u"shop"_s << QString();
        QTest::newRow("the token user may list pods") << int(Caller::TokenUser) << u"list"_s << u"pods"_s << QString() << u"shop"_s << QString();
        QTest::newRow("the certificate user may delete a secret")
            << int(Caller::CertificateUser) << u"delete"_s << u"secrets"_s << u"db"_s << u"shop"_s << QString();
        QTest::newRow("an anonymous caller may watch pods") << int(Caller::Anonymous) << u"watch"_s << u"pods"_s << QString() << QString() << QString();
    }
    void authorizesOnlyWhatRbacAllows()
    {
        QFETCH(int, caller);
        QFETCH(QString, verb);
        QFETCH(QString, plural);
        QFETCH(QString, name);
        QFETCH(QString, namespaceName);
        QFETCH(QString, message);
        const ResourceType type = ResourceCatalog().find(QString(), u"v1"_s, plural);
        QVERIFY(type.isValid());
        const Authenticator authenticator(settings(true));
        const std::optional<ApiError> denied = authenticator.authorize(Caller(caller), verb, type, name, namespaceName);
        QCOMPARE(denied.has_value(), !message.isEmpty());
        if (!denied)
            return;
        QCOMPARE(denied->code, 403);
        QCOMPARE(denied->reason, u"Forbidden"_s);
        QCOMPARE(denied->message, message);
        QCOMPARE(denied->details.value(u"kind").toString(), plural);
        QCOMPARE(denied->details.value(u"name").toString(), name);
    }

    void namesTheRbacVerb_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<bool>("watchPath");
        QTest::addColumn<bool>("named");
        QTest::addColumn<QString>("verb");
        QTest::newRow("GET of a collection lists") << QByteArray("GET") << QByteArray("/api/v1/pods") << false << false << u"list"_s;
        QTest::newRow("GET of a name gets") << QByteArray("GET") << QByteArray("/api/v1/namespaces/a/pods/p") << false << true << u"get"_s;
        QTest::newRow("HEAD of a name gets") << QByteArray("HEAD") << QByteArray("/api/v1/namespaces/a/pods/p") << false << true << u"get"_s;
        QTest::newRow("?watch=true watches") << QByteArray("GET") << QByteArray("/api/v1/pods?watch=true") << false << false << u"watch"_s;
        QTest::newRow("?watch=1 watches") << QByteArray("GET") << QByteArray("/api/v1/pods?watch=1") << false << false << u"watch"_s;
        QTest::newRow("a /watch/ path watches") << QByteArray("GET") << QByteArray("/api/v1/watch/pods") << true << false << u"watch"_s;
        QTest::newRow("?watch=false lists") << QByteArray("GET") << QByteArray("/api/v1/pods?watch=false") << false << false << u"list"_s;
        QTest::newRow("POST creates") << QByteArray("POST") << QByteArray("/api/v1/namespaces/a/pods") << false << false << u"create"_s;
        QTest::newRow("PUT updates") << QByteArray("PUT") << QByteArray("/api/v1/namespaces/a/pods/p") << false << true << u"update"_s;
        QTest::newRow("PATCH patches") << QByteArray("PATCH") << QByteArray("/api/v1/namespaces/a/pods/p") << false << true << u"patch"_s;
        QTest::newRow("DELETE of a name deletes") << QByteArray("DELETE") << QByteArray("/api/v1/namespaces/a/pods/p") << false << true << u"delete"_s;
        QTest::newRow("DELETE of a collection deletes the collection")
            << QByteArray("DELETE") << QByteArray("/api/v1/namespaces/a/pods") << false << false << u"deletecollection"_s;
        QTest::newRow("another method is its own name in lower case") << QByteArray("OPTIONS") << QByteArray("/api/v1/pods") << false << false << u"options"_s;
    }
    void namesTheRbacVerb()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(bool, watchPath);
        QFETCH(bool, named);
        QFETCH(QString, verb);
        QCOMPARE(Authenticator::verbOf(request(method, target), watchPath, named), verb);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimAuthenticator)
#include "tst_simauthenticator.moc"
