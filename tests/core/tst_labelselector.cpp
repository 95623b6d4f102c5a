// LabelSelector: what parses (and its canonical form), where and why a malformed selector
// fails (apimachinery's messages), and what a parsed selector matches. The rows of the UI's
// and the simulator's former parsers (tests/ui/tst_labelselector.cpp, tests/core/
// tst_simselectors.cpp) are here, against the one parser both now use.
#include "core/cache/kubeobject.h"
#include "core/kube/labelselector.h"

#include "testmain.h"

#include <QTest>

using namespace Cachescope;
using namespace Qt::Literals::StringLiterals;

using Labels = QMap<QString, QString>;

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
    void matchesLabelMaps_data();
    void matchesLabelMaps();
    void canonicalFormIsOrderIndependent();
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
    QTest::newRow("in with spaces, values sorted") << u"tier in ( front , back )"_s << u"tier in (back,front)"_s << 1;
    QTest::newRow("notin") << u"tier notin (db)"_s << u"tier notin (db)"_s << 1;
    QTest::newRow("exists") << u"canary"_s << u"canary"_s << 1;
    QTest::newRow("does not exist") << u"!canary"_s << u"!canary"_s << 1;
    QTest::newRow("comma is AND, requirements sorted by key") << u"app=web, tier in (front),!canary"_s << u"app=web,!canary,tier in (front)"_s << 3;
    QTest::newRow("prefixed keys") << u"app.kubernetes.io/name=shop"_s << u"app.kubernetes.io/name=shop"_s << 1;
    QTest::newRow("empty value") << u"app="_s << u"app="_s << 1;
    QTest::newRow("a key named like an operator") << u"in"_s << u"in"_s << 1;
    QTest::newRow("a key named notin") << u"notin=x"_s << u"notin=x"_s << 1;
    QTest::newRow("keywords as values") << u"x in (notin,in)"_s << u"x in (in,notin)"_s << 1;
    QTest::newRow("in glued to its parenthesis") << u"tier in(a)"_s << u"tier in (a)"_s << 1;
    QTest::newRow("duplicate values collapse") << u"x in (b,a,b)"_s << u"x in (a,b)"_s << 1;
    // apimachinery reads `()` as the set holding the empty value, and empty entries as empty values.
    QTest::newRow("an empty set holds the empty value") << u"tier in ()"_s << u"tier in ()"_s << 1;
    QTest::newRow("empty entries are empty values") << u"x in (a,,b)"_s << u"x in (,a,b)"_s << 1;
    QTest::newRow("a leading comma is an empty value") << u"x notin (,a)"_s << u"x notin (,a)"_s << 1;
    QTest::newRow("greater than") << u"replicas>2"_s << u"replicas>2"_s << 1;
    QTest::newRow("less than, blanks around") << u"offset < 10"_s << u"offset<10"_s << 1;
    QTest::newRow("tabs and newlines are blanks") << u"app\t=\nweb"_s << u"app=web"_s << 1;
    QTest::newRow("one key twice, ordered by text") << u"a=b,a!=c"_s << u"a!=c,a=b"_s << 2;
    QTest::newRow("sixty-three characters of name") << QString(63, u'k') + u"=v"_s << QString(63, u'k') + u"=v"_s << 1;
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
    // The canonical form reads back as itself.
    QCOMPARE(std::get<LabelSelector>(LabelSelector::parse(canonical)).toString(), canonical);
}

void TestLabelSelector::reportsErrorPosition_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("message");

    const QString nameRegex = u"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"_s;
    const QString nameChars = u"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "_s + nameRegex;
    const QString valueRule =
        u"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
        u"character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"_s;
    const QString operators = u"expected: in, notin, =, ==, !=, gt, lt"_s;

    QTest::newRow("missing key before =") << u"=web"_s << 0 << u"found '=', expected: !, identifier, or 'end of string'"_s;
    QTest::newRow("unknown operator") << u"app!web"_s << 3 << u"unable to parse requirement: found '!', "_s + operators;
    QTest::newRow("a value where the operator belongs") << u"app web"_s << 4 << u"unable to parse requirement: found 'web', "_s + operators;
    QTest::newRow("less than needs an integer")
        << u"app<web"_s << 4 << u"unable to parse requirement: values[0]: Invalid value: \"web\": for 'Gt', 'Lt' operators, the value must be an integer"_s;
    QTest::newRow("greater than needs a value")
        << u"n>"_s << 2 << u"unable to parse requirement: values[0]: Invalid value: \"\": for 'Gt', 'Lt' operators, the value must be an integer"_s;
    QTest::newRow("in without parenthesis") << u"tier in front"_s << 8 << u"unable to parse requirement: found 'front' expected: '('"_s;
    QTest::newRow("unclosed value list") << u"tier in (a,b"_s << 12 << u"unable to parse requirement: found '', expected: ',' or ')'"_s;
    QTest::newRow("the CLI's example: unclosed after one value") << u"app in (web"_s << 11 << u"unable to parse requirement: found '', expected: ',' or ')'"_s;
    QTest::newRow("value list cut after its parenthesis")
        << u"tier in ("_s << 9 << u"unable to parse requirement: found '', expected: ',', ')' or identifier"_s;
    QTest::newRow("an operator opens the value list") << u"tier in (=)"_s << 9 << u"unable to parse requirement: found '=', expected: ',', ')' or identifier"_s;
    QTest::newRow("an operator inside the value list") << u"tier in (a,=)"_s << 11 << u"unable to parse requirement: found '=', expected: ',', or identifier"_s;
    QTest::newRow("two values without a comma") << u"tier in (a b)"_s << 11 << u"unable to parse requirement: found 'b', expected: ',' or ')'"_s;
    QTest::newRow("bang without key") << u"!"_s << 1 << u"unable to parse requirement: found '', expected: identifier"_s;
    QTest::newRow("equals followed by an operator") << u"app==!"_s << 5 << u"unable to parse requirement: found '!', expected: identifier"_s;
    QTest::newRow("does-not-exist takes no value") << u"!app=web"_s << 4 << u"found '=', expected: ',' or 'end of string'"_s;
    QTest::newRow("trailing comma") << u"app=web,"_s << 8 << u"found '', expected: identifier after ','"_s;
    QTest::newRow("two commas") << u"a,,b"_s << 2 << u"found ',', expected: identifier after ','"_s;
    QTest::newRow("garbage after a requirement") << u"app=web )"_s << 8 << u"found ')', expected: ',' or 'end of string'"_s;
    QTest::newRow("invalid character in key") << u"a$p=web"_s << 0 << u"unable to parse requirement: <nil>: Invalid value: \"a$p\": name part "_s + nameChars;
    QTest::newRow("key starting with a dash") << u"x,-app"_s << 2 << u"unable to parse requirement: <nil>: Invalid value: \"-app\": name part "_s + nameChars;
    QTest::newRow("key name longer than 63 characters")
        << QString(64, u'k') << 0
        << u"unable to parse requirement: <nil>: Invalid value: \""_s + QString(64, u'k') + u"\": name part must be no more than 63 characters"_s;
    QTest::newRow("key prefix not a lowercase DNS subdomain")
        << u"Example.com/app"_s << 0
        << u"unable to parse requirement: <nil>: Invalid value: \"Example.com/app\": prefix part a lowercase RFC 1123 subdomain must consist of lower case "
           u"alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
           u"'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"_s;
    QTest::newRow("key with an empty prefix") << u"/app"_s << 0
                                              << u"unable to parse requirement: <nil>: Invalid value: \"/app\": prefix part must be non-empty"_s;
    QTest::newRow("key with an empty name")
        << u"example.com/"_s << 0
        << u"unable to parse requirement: <nil>: Invalid value: \"example.com/\": name part must be non-empty; name part "_s + nameChars;
    QTest::newRow("key with two slashes") << u"a/b/c"_s << 0
                                          << u"unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name "_s + nameChars +
            u" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"_s;
    QTest::newRow("invalid character in a value") << u"app=we$b"_s << 4
                                                  << u"unable to parse requirement: values[0][app]: Invalid value: \"we$b\": "_s + valueRule;
    QTest::newRow("invalid value in a set") << u"x in (a,b$)"_s << 8 << u"unable to parse requirement: values[1][x]: Invalid value: \"b$\": "_s + valueRule;
    QTest::newRow("value longer than 63 characters") << u"app="_s + QString(64, u'v') << 4
                                                     << u"unable to parse requirement: values[0][app]: Invalid value: \""_s + QString(64, u'v') +
            u"\": must be no more than 63 characters"_s;
    QTest::newRow("two failures of one value are aggregated")
        << u"n<-x"_s << 2
        << u"unable to parse requirement: [values[0]: Invalid value: \"-x\": for 'Gt', 'Lt' operators, the value must be an integer, values[0][n]: Invalid value: \"-x\": "_s +
            valueRule + u']';
}

void TestLabelSelector::reportsErrorPosition()
{
    QFETCH(QString, text);
    QFETCH(int, position);
    QFETCH(QString, message);

    const auto parsed = LabelSelector::parse(text);
    const auto *error = std::get_if<LabelSelector::Error>(&parsed);
    if (!error) {
        QFAIL(qPrintable(u"parsed as: "_s + std::get<LabelSelector>(parsed).toString()));
    }
    QCOMPARE(error->message, message);
    QCOMPARE(error->position, position);
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
    QCOMPARE(parsed.matches(object->labels()), web);
}

// The simulator's rows: a label map, as the simulator's stored objects keep labels.
void TestLabelSelector::matchesLabelMaps_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<Labels>("labels");
    QTest::addColumn<bool>("matches");
    const Labels web{{u"app"_s, u"web"_s}, {u"tier"_s, u"front"_s}};
    const Labels counted{{u"replicas"_s, u"3"_s}, {u"name"_s, u"three"_s}};
    QTest::newRow("empty selector matches everything") << QString() << web << true;
    QTest::newRow("equals") << u"app=web"_s << web << true;
    QTest::newRow("equals other value") << u"app=db"_s << web << false;
    QTest::newRow("double equals") << u"app==web"_s << web << true;
    QTest::newRow("not equals") << u"app!=db"_s << web << true;
    QTest::newRow("not equals same value") << u"app!=web"_s << web << false;
    QTest::newRow("not equals on a missing key") << u"zone!=a"_s << web << true;
    QTest::newRow("in") << u"app in (db, web)"_s << web << true;
    QTest::newRow("in without it") << u"app in (db,cache)"_s << web << false;
    QTest::newRow("in on a missing key") << u"zone in (a)"_s << web << false;
    QTest::newRow("notin") << u"app notin (db)"_s << web << true;
    QTest::newRow("notin with it") << u"app notin (db,web)"_s << web << false;
    QTest::newRow("notin on a missing key") << u"zone notin (a)"_s << web << true;
    QTest::newRow("exists") << u"tier"_s << web << true;
    QTest::newRow("exists missing") << u"zone"_s << web << false;
    QTest::newRow("does not exist") << u"!zone"_s << web << true;
    QTest::newRow("does not exist present") << u"!tier"_s << web << false;
    QTest::newRow("all requirements must hold") << u"app=web,tier=back"_s << web << false;
    QTest::newRow("spaces around operators") << u" app = web , tier "_s << web << true;
    QTest::newRow("prefixed key") << u"app.kubernetes.io/name=x"_s << Labels{{u"app.kubernetes.io/name"_s, u"x"_s}} << true;
    QTest::newRow("key named like an operator") << u"in=x"_s << Labels{{u"in"_s, u"x"_s}} << true;
    QTest::newRow("an empty set matches an empty value") << u"app in ()"_s << Labels{{u"app"_s, QString()}} << true;
    QTest::newRow("an empty set does not match a value") << u"app in ()"_s << web << false;
    QTest::newRow("greater than") << u"replicas>2"_s << counted << true;
    QTest::newRow("greater than is strict") << u"replicas>3"_s << counted << false;
    QTest::newRow("less than") << u"replicas<4"_s << counted << true;
    QTest::newRow("less than a smaller bound") << u"replicas<3"_s << counted << false;
    QTest::newRow("greater than on a missing key") << u"zone>1"_s << counted << false;
    QTest::newRow("greater than on a label that is no integer") << u"name>1"_s << counted << false;
    QTest::newRow("less than on a label that is no integer") << u"name<1"_s << counted << false;
}

void TestLabelSelector::matchesLabelMaps()
{
    QFETCH(QString, selector);
    QFETCH(Labels, labels);
    QFETCH(bool, matches);
    const auto parsed = LabelSelector::parse(selector);
    const auto *error = std::get_if<LabelSelector::Error>(&parsed);
    QVERIFY2(!error, error ? qPrintable(error->message) : "");
    QCOMPARE(std::get<LabelSelector>(parsed).matches(labels), matches);
    // A sorted label list (KubeObject's) answers the same as the map.
    QList<LabelSelector::Label> list;
    for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
        list.append({it.key(), it.value()});
    }
    QCOMPARE(std::get<LabelSelector>(parsed).matches(list), matches);
}

void TestLabelSelector::canonicalFormIsOrderIndependent()
{
    const auto a = LabelSelector::parse(u"a=b,c=d"_s);
    const auto b = LabelSelector::parse(u"c=d, a==b"_s);
    QCOMPARE(std::get<LabelSelector>(a).toString(), u"a=b,c=d"_s);
    QCOMPARE(std::get<LabelSelector>(b).toString(), std::get<LabelSelector>(a).toString());
    QVERIFY(std::get<LabelSelector>(a) == std::get<LabelSelector>(b));
}

CACHESCOPE_TEST_GUILESS_MAIN(TestLabelSelector)
#include "tst_labelselector.moc"
