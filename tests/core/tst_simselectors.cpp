// Tests of the simulator's label and field selector parsers and matchers.
#include "core/sim/fieldselector.h"
#include "core/sim/labelselector.h"

#include "testmain.h"

#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;
using namespace Cachescope::Sim;

using Labels = QMap<QString, QString>;

class TestSimSelectors : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void labelSelectorMatches_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<Labels>("labels");
        QTest::addColumn<bool>("matches");
        const Labels web{{u"app"_s, u"web"_s}, {u"tier"_s, u"front"_s}};
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
    }
    void labelSelectorMatches()
    {
        QFETCH(QString, selector);
        QFETCH(Labels, labels);
        QFETCH(bool, matches);
        QString error;
        const std::optional<LabelSelector> parsed = LabelSelector::parse(selector, &error);
        QVERIFY2(parsed.has_value(), qPrintable(error));
        QCOMPARE(parsed->matches(labels), matches);
    }

    void labelSelectorRejectsMalformed_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::newRow("in without parentheses") << u"app in web"_s;
        QTest::newRow("unterminated set") << u"app in (web"_s;
        QTest::newRow("empty set") << u"app in ()"_s;
        QTest::newRow("empty key") << u"=web"_s;
        QTest::newRow("trailing comma") << u"app=web,"_s;
        QTest::newRow("invalid character in key") << u"a$p=web"_s;
    }
    void labelSelectorRejectsMalformed()
    {
        QFETCH(QString, selector);
        QString error;
        QVERIFY(!LabelSelector::parse(selector, &error).has_value());
        QVERIFY(!error.isEmpty());
    }

    void fieldSelectorMatches_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<bool>("matches");
        QTest::newRow("empty") << QString() << true;
        QTest::newRow("name equals") << u"metadata.name=p1"_s << true;
        QTest::newRow("name double equals") << u"metadata.name==p1"_s << true;
        QTest::newRow("name differs") << u"metadata.name=p2"_s << false;
        QTest::newRow("not equals") << u"status.phase!=Pending"_s << true;
        QTest::newRow("not equals same") << u"status.phase!=Running"_s << false;
        QTest::newRow("node and namespace") << u"spec.nodeName=n1,metadata.namespace=ns"_s << true;
        QTest::newRow("empty node (unscheduled pods)") << u"spec.nodeName="_s << false;
    }
    void fieldSelectorMatches()
    {
        QFETCH(QString, selector);
        QFETCH(bool, matches);
        const QStringList fields{u"metadata.name"_s, u"metadata.namespace"_s, u"spec.nodeName"_s, u"status.phase"_s};
        const std::optional<FieldSelector> parsed = FieldSelector::parse(selector, fields);
        QVERIFY(parsed.has_value());
        const QHash<QString, QString> values{
            {u"metadata.name"_s, u"p1"_s}, {u"metadata.namespace"_s, u"ns"_s}, {u"spec.nodeName"_s, u"n1"_s}, {u"status.phase"_s, u"Running"_s}};
        QCOMPARE(parsed->matches([&values](const QString &field) { return values.value(field); }), matches);
    }

    void fieldSelectorRejectsUnsupportedFields()
    {
        QString error;
        QVERIFY(!FieldSelector::parse(u"spec.nodeName=n1"_s, {u"metadata.name"_s}, &error).has_value());
        QCOMPARE(error, u"field label not supported: spec.nodeName"_s);
        QVERIFY(!FieldSelector::parse(u"metadata.name"_s, {u"metadata.name"_s}, &error).has_value());
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestSimSelectors)
#include "tst_simselectors.moc"
