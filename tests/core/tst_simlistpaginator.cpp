// Tests of the simulator's ListPaginator: pages of one consistent view, continue tokens that
// round-trip, a malformed token's 400, an expired view's 410, remainingItemCount.
#include "core/sim/listpaginator.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

class TestSimListPaginator : public QObject
{
    Q_OBJECT

private:
    static QList<ObjectPtr> objects(int count)
    {
        QList<ObjectPtr> result;
        for (int i = 0; i < count; ++i) {
            auto object = std::make_shared<StoredObject>();
            object->namespaceName = u"shop"_s;
            object->name = u"pod-%1"_s.arg(i, 2, 10, QLatin1Char('0'));
            object->resourceVersion = quint64(100 + i);
            result.append(object);
        }
        return result;
    }

    static QStringList names(const QList<ObjectPtr> &items)
    {
        QStringList result;
        for (const ObjectPtr &object : items)
            result.append(object->name);
        return result;
    }

private Q_SLOTS:
    void tokensRoundTrip_data()
    {
        QTest::addColumn<quint64>("snapshot");
        QTest::addColumn<qsizetype>("offset");
        QTest::addColumn<quint64>("resourceVersion");
        QTest::addColumn<QString>("start");
        QTest::newRow("the first view") << quint64(1) << qsizetype(1) << quint64(7) << u"shop/pod-01"_s;
        QTest::newRow("large numbers") << quint64(1) << qsizetype(99999) << (quint64(1) << 60) << u"a/b"_s;
        QTest::newRow("a cluster-scoped key") << quint64(42) << qsizetype(3) << quint64(12) << u"node-3"_s;
        QTest::newRow("a key that base64 pads") << quint64(5) << qsizetype(0) << quint64(0) << u"x"_s;
    }
    void tokensRoundTrip()
    {
        QFETCH(quint64, snapshot);
        QFETCH(qsizetype, offset);
        QFETCH(quint64, resourceVersion);
        QFETCH(QString, start);
        const QString text = ListPaginator::encodeContinue({snapshot, offset, resourceVersion, start});
        // Safe in a query without escaping, as the apiserver's tokens are.
        QVERIFY(!text.contains(u'=') && !text.contains(u'+') && !text.contains(u'/'));
        const std::optional<ListPaginator::ContinueToken> token = ListPaginator::decodeContinue(text);
        QVERIFY(token);
        QCOMPARE(token->snapshot, snapshot);
        QCOMPARE(token->offset, offset);
        QCOMPARE(token->resourceVersion, resourceVersion);
        QCOMPARE(token->start, start);
    }

    void malformedTokenIsABadRequest_data()
    {
        QTest::addColumn<QString>("token");
        QTest::newRow("not base64 JSON") << u"not-a-token"_s;
        QTest::newRow("JSON of another version") << QString::fromLatin1(
            QByteArray(R"({"v":"v2","snapshot":"1","offset":1})").toBase64(QByteArray::Base64UrlEncoding));
        QTest::newRow("a negative offset") << QString::fromLatin1(
            QByteArray(R"({"v":"meta.k8s.io/v1","snapshot":"1","offset":-1})").toBase64(QByteArray::Base64UrlEncoding));
    }
    void malformedTokenIsABadRequest()
    {
        QFETCH(QString, token);
        ListPaginator paginator(60000);
        QVERIFY(!paginator.firstPage(objects(5), 10, 2, true).continueToken.isEmpty());
        const auto result = paginator.nextPage(token, 2, true);
        QVERIFY(std::holds_alternative<ApiError>(result));
        QCOMPARE(std::get<ApiError>(result).code, 400);
        QCOMPARE(std::get<ApiError>(result).message, u"continue key is not valid: invalid continue token"_s);
    }

    void pagesComeFromOneView_data()
    {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("limit");
        QTest::addColumn<bool>("countRemaining");
        QTest::addColumn<QList<qsizetype>>("remaining"); // per page; -1: not reported
        QTest::newRow("pages of two, counted") << 5 << 2 << true << QList<qsizetype>{3, 1, -1};
        QTest::newRow("pages of two, filtered: not counted") << 5 << 2 << false << QList<qsizetype>{-1, -1, -1};
        QTest::newRow("an exact fit") << 4 << 2 << true << QList<qsizetype>{2, -1};
        QTest::newRow("no limit: one page") << 5 << 0 << true << QList<qsizetype>{-1};
        QTest::newRow("a limit beyond the list: one page") << 3 << 10 << true << QList<qsizetype>{-1};
        QTest::newRow("an empty list") << 0 << 2 << true << QList<qsizetype>{-1};
    }
    void pagesComeFromOneView()
    {
        QFETCH(int, count);
        QFETCH(int, limit);
        QFETCH(bool, countRemaining);
        QFETCH(QList<qsizetype>, remaining);
        ListPaginator paginator(60000);
        const QList<ObjectPtr> all = objects(count);
        QStringList seen;
        QList<qsizetype> reported;
        ListPaginator::Page page = paginator.firstPage(all, 77, limit, countRemaining);
        for (;;) {
            QCOMPARE(page.resourceVersion, quint64(77));
            if (limit > 0)
                QVERIFY(page.items.size() <= limit);
            seen += names(page.items);
            reported.append(page.remainingItemCount.value_or(-1));
            if (page.continueToken.isEmpty())
                break;
            const std::optional<ListPaginator::ContinueToken> token = ListPaginator::decodeContinue(page.continueToken);
            QVERIFY(token);
            QCOMPARE(token->start, all.at(seen.size())->key());
            QCOMPARE(token->resourceVersion, quint64(77));
            auto next = paginator.nextPage(page.continueToken, limit, countRemaining);
            QVERIFY(std::holds_alternative<ListPaginator::Page>(next));
            page = std::get<ListPaginator::Page>(next);
        }
        QCOMPARE(seen, names(all));
        QCOMPARE(reported, remaining);
        // The last page ends the view.
        QCOMPARE(paginator.snapshotCount(), 0);
    }

    void aTokenReadsTheSameViewAgain()
    {
        // A client that retries a page gets the same page.
        ListPaginator paginator(60000);
        const QString token = paginator.firstPage(objects(6), 9, 2, true).continueToken;
        const auto first = paginator.nextPage(token, 2, true);
        const auto second = paginator.nextPage(token, 2, true);
        QVERIFY(std::holds_alternative<ListPaginator::Page>(first) && std::holds_alternative<ListPaginator::Page>(second));
        QCOMPARE(names(std::get<ListPaginator::Page>(second).items), names(std::get<ListPaginator::Page>(first).items));
        QCOMPARE(names(std::get<ListPaginator::Page>(first).items), (QStringList{u"pod-02"_s, u"pod-03"_s}));
    }

    void expiredViewIsGone_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("older than the TTL") << u"ttl"_s;
        QTest::newRow("forgotten by a restart") << u"clear"_s;
        QTest::newRow("its last page was served") << u"finished"_s;
        QTest::newRow("pushed out by newer views") << u"bound"_s;
    }
    void expiredViewIsGone()
    {
        QFETCH(QString, how);
        ListPaginator paginator(how == u"ttl" ? 1 : 60000);
        const QString token = paginator.firstPage(objects(3), 5, 1, true).continueToken;
        QVERIFY(!token.isEmpty());
        if (how == u"clear") {
            paginator.clear();
        } else if (how == u"finished") {
            auto last = paginator.nextPage(token, 0, true);
            QVERIFY(std::holds_alternative<ListPaginator::Page>(last));
            QVERIFY(std::get<ListPaginator::Page>(last).continueToken.isEmpty());
        } else if (how == u"bound") {
            for (qsizetype i = 0; i <= ListPaginator::MaxSnapshots; ++i)
                QVERIFY(!paginator.firstPage(objects(2), 5, 1, true).continueToken.isEmpty());
        }
        const auto isGone = [&] {
            const auto result = paginator.nextPage(token, 1, true);
            return std::holds_alternative<ApiError>(result) && std::get<ApiError>(result).code == 410;
        };
        if (how == u"ttl")
            QTRY_VERIFY_WITH_TIMEOUT(isGone(), 5000);
        else
            QVERIFY(isGone());
        const auto result = paginator.nextPage(token, 1, true);
        QCOMPARE(std::get<ApiError>(result).reason, u"Expired"_s);
        QVERIFY(paginator.snapshotCount() <= ListPaginator::MaxSnapshots);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimListPaginator)
#include "tst_simlistpaginator.moc"
