// LabelSelector: what parses (and its canonical form), where a malformed selector fails, and
// what a parsed selector matches.
#include "ui/models/labelselector.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

class TestLabelSelector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data();
    void parses();
    void reportsErrorPosition_data();
    void reportsErrorPosition();
    void matches_data();
    void matches();
};

void TestLabelSelector::parses_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("canonical");
    QTest::addColumn<int>("requirements");

    QTest::newRow("empty selects everything") << QString() << QString() << 0;
    QTest::newRow("blank selects everything") << u"   "_s << QString() << 0;
    QTest::newRow("equals") << u"app=web"_s << u"app=web"_s << 1;
    QTest::newRow("double equals") << u"app==web"_s << u"app=web"_s << 1;
    QTest::newRow("not equals") << u"app!=web"_s << u"app!=web"_s << 1;
    QTest::newRow("in with spaces") << u"tier in ( front , back )"_s << u"tier in (front,back)"_s << 1;
    QTest::newRow("notin") << u"tier notin (db)"_s << u"tier notin (db)"_s << 1;
    QTest::newRow("exists") << u"canary"_s << u"canary"_s << 1;
    QTest::newRow("does not exist") << u"!canary"_s << u"!canary"_s << 1;
    QTest::newRow("comma is AND") << u"app=web, tier in (front),!canary"_s << u"app=web,tier in (front),!canary"_s << 3;
    QTest::newRow("prefixed keys") << u"app.kubernetes.io/name=shop"_s << u"app.kubernetes.io/name=shop"_s << 1;
    QTest::newRow("empty value") << u"app="_s << u"app="_s << 1;
    QTest::newRow("a key named like an operator") << u"in"_s << u"in"_s << 1;
}

void TestLabelSelector::parses()
{
    QFETCH(QString, text);
    QFETCH(QString, canonical);
    QFETCH(int, requirements);

    const auto parsed = LabelSelector::parse(text);
    if (const auto *error = std::get_if<LabelSelector::Error>(&parsed)) {
        QFAIL(qPrintable(u"at %1: %2"_s.arg(error->position).arg(error->message)));
    }
    const LabelSelector &selector = std::get<LabelSelector>(parsed);
    QCOMPARE(selector.toString(), canonical);
    QCOMPARE(selector.requirements().size(), requirements);
}

void TestLabelSelector::reportsErrorPosition_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position");

    QTest::newRow("missing key before =") << u"=web"_s << 0;
    QTest::newRow("unknown operator") << u"app<web"_s << 3;
    QTest::newRow("in without parenthesis") << u"tier in front"_s << 8;
    QTest::newRow("unclosed value list") << u"tier in (a,b"_s << 12;
    QTest::newRow("empty value list") << u"tier in ()"_s << 9;
    QTest::newRow("bang without key") << u"!"_s << 1;
    QTest::newRow("trailing comma") << u"app=web,"_s << 8;
    QTest::newRow("garbage after a requirement") << u"app=web )"_s << 8;
}

void TestLabelSelector::reportsErrorPosition()
{
    QFETCH(QString, text);
    QFETCH(int, position);

    const auto parsed = LabelSelector::parse(text);
    const auto *error = std::get_if<LabelSelector::Error>(&parsed);
    if (!error) {
        QFAIL(qPrintable(u"parsed as: "_s + std::get<LabelSelector>(parsed).toString()));
    }
    QCOMPARE(error->position, position);
    QVERIFY(!error->message.isEmpty());
}

void TestLabelSelector::matches_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<bool>("web"); // {app: web, tier: front}
    QTest::addColumn<bool>("db"); // {app: db}
    QTest::addColumn<bool>("bare"); // no labels

    QTest::newRow("equals") << u"app=web"_s << true << false << false;
    QTest::newRow("not equals also matches objects without the key") << u"app!=web"_s << false << true << true;
    QTest::newRow("in") << u"app in (web,db)"_s << true << true << false;
    QTest::newRow("notin also matches objects without the key") << u"app notin (web)"_s << false << true << true;
    QTest::newRow("exists") << u"tier"_s << true << false << false;
    QTest::newRow("does not exist") << u"!tier"_s << false << true << true;
    QTest::newRow("all requirements must hold") << u"app=web,!tier"_s << false << false << false;
    QTest::newRow("empty matches all") << QString() << true << true << true;
}

void TestLabelSelector::matches()
{
    QFETCH(QString, selector);
    QFETCH(bool, web);
    QFETCH(bool, db);
    QFETCH(bool, bare);

    const LabelSelector parsed = std::get<LabelSelector>(LabelSelector::parse(selector));
    const QList<KubeObject::Label> webLabels{{u"app"_s, u"web"_s}, {u"tier"_s, u"front"_s}};
    const QList<KubeObject::Label> dbLabels{{u"app"_s, u"db"_s}};
    QCOMPARE(parsed.matches(webLabels), web);
    QCOMPARE(parsed.matches(dbLabels), db);
    QCOMPARE(parsed.matches(QList<KubeObject::Label>{}), bare);
    // The same through a decoded object.
    const auto object = KubeObject::fromJson(R"({"metadata":{"name":"w","labels":{"tier":"front","app":"web"}}})");
    QVERIFY(object);
    QCOMPARE(parsed.matches(*object), web);
}

CACHESCOPE_TEST_GUILESS_MAIN(TestLabelSelector)
#include "tst_labelselector.moc"
