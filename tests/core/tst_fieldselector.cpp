// FieldSelector: what parses (and its canonical form), where and why a malformed selector fails
// (apimachinery's messages), what it matches, and the apiserver's check of supported fields.
// The field rows of the simulator's former tests (tests/core/tst_simselectors.cpp) are here;
// its label rows are in tst_labelselector.cpp.
#include "core/kube/fieldselector.h"

#include "testmain.h"

#include <QHash>
#include <QTest>

using namespace Qt::Literals::StringLiterals;
using namespace Cachescope;

class TestFieldSelector : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("canonical");
        QTest::addColumn<int>("requirements");
        QTest::newRow("empty") << QString() << QString() << 0;
        QTest::newRow("equals") << u"metadata.name=p1"_s << u"metadata.name=p1"_s << 1;
        QTest::newRow("double equals is written as equals") << u"metadata.name==p1"_s << u"metadata.name=p1"_s << 1;
        QTest::newRow("not equals") << u"status.phase!=Running"_s << u"status.phase!=Running"_s << 1;
        QTest::newRow("terms sorted") << u"spec.nodeName=n1,metadata.namespace=ns"_s << u"metadata.namespace=ns,spec.nodeName=n1"_s << 2;
        QTest::newRow("empty terms are skipped") << u",metadata.name=a,,"_s << u"metadata.name=a"_s << 1;
        QTest::newRow("an empty value") << u"spec.nodeName="_s << u"spec.nodeName="_s << 1;
        QTest::newRow("escaped comma, equals and backslash") << u"metadata.name=a\\,b\\=c\\\\d"_s << u"metadata.name=a\\,b\\=c\\\\d"_s << 1;
        QTest::newRow("the first operator splits the term") << u"a!=b"_s << u"a!=b"_s << 1;
        QTest::newRow("blanks are kept") << u"a = b"_s << u"a = b"_s << 1;
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(QString, canonical);
        QFETCH(int, requirements);
        const auto parsed = FieldSelector::parse(text);
        if (const auto *error = std::get_if<FieldSelector::Error>(&parsed)) {
            QFAIL(qPrintable(u"at %1: %2"_s.arg(error->position).arg(error->message)));
        }
        QCOMPARE(std::get<FieldSelector>(parsed).toString(), canonical);
        QCOMPARE(std::get<FieldSelector>(parsed).requirements().size(), requirements);
        QCOMPARE(std::get<FieldSelector>(FieldSelector::parse(canonical)).toString(), canonical);
    }

    void values_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("negated");
        QTest::newRow("escapes are undone") << u"metadata.name=a\\,b\\=c\\\\d"_s << u"metadata.name"_s << u"a,b=c\\d"_s << false;
        QTest::newRow("not equals is negated") << u"a!=b"_s << u"a"_s << u"b"_s << true;
        QTest::newRow("double equals leaves no '=' in the value") << u"a==b"_s << u"a"_s << u"b"_s << false;
        QTest::newRow("blanks belong to field and value") << u"a = b"_s << u"a "_s << u" b"_s << false;
    }
    void values()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(bool, negated);
        const auto parsed = FieldSelector::parse(text);
        QVERIFY(std::holds_alternative<FieldSelector>(parsed));
        const QList<FieldSelector::Requirement> requirements = std::get<FieldSelector>(parsed).requirements();
        QCOMPARE(requirements.size(), 1);
        QCOMPARE(requirements.constFirst().field, field);
        QCOMPARE(requirements.constFirst().value, value);
        QCOMPARE(requirements.constFirst().negated, negated);
    }

    void rejectsMalformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("message");
        QTest::newRow("a term without an operator") << u"metadata.name"_s << 0 << u"invalid selector: 'metadata.name'; can't understand 'metadata.name'"_s;
        QTest::newRow("the second term without an operator") << u"a=b,c"_s << 4 << u"invalid selector: 'a=b,c'; can't understand 'c'"_s;
        QTest::newRow("an unescaped '=' in the value") << u"a=b=c"_s << 3 << u"invalid field selector: unescapedRune character in value: 61"_s;
        QTest::newRow("an unknown escape") << u"a=b\\n"_s << 3 << u"invalid field selector: invalid escape sequence: \\n"_s;
        QTest::newRow("a trailing backslash") << u"a=b\\"_s << 3 << u"invalid field selector: invalid escape sequence: \\"_s;
    }
    void rejectsMalformed()
    {
        QFETCH(QString, text);
        QFETCH(int, position);
        QFETCH(QString, message);
        const auto parsed = FieldSelector::parse(text);
        const auto *error = std::get_if<FieldSelector::Error>(&parsed);
        QVERIFY2(error, qPrintable(text));
        QCOMPARE(error->message, message);
        QCOMPARE(error->position, position);
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
        const auto parsed = FieldSelector::parse(selector, fields);
        QVERIFY(std::holds_alternative<FieldSelector>(parsed));
        const QHash<QString, QString> values{
            {u"metadata.name"_s, u"p1"_s}, {u"metadata.namespace"_s, u"ns"_s}, {u"spec.nodeName"_s, u"n1"_s}, {u"status.phase"_s, u"Running"_s}};
        QCOMPARE(std::get<FieldSelector>(parsed).matches([&values](const QString &field) { return values.value(field); }), matches);
    }

    void fieldSelectorRejectsUnsupportedFields()
    {
        auto parsed = FieldSelector::parse(u"spec.nodeName=n1"_s, {u"metadata.name"_s});
        QVERIFY(std::holds_alternative<FieldSelector::Error>(parsed));
        QCOMPARE(std::get<FieldSelector::Error>(parsed).message, u"field label not supported: spec.nodeName"_s);
        QVERIFY(std::holds_alternative<FieldSelector::Error>(FieldSelector::parse(u"metadata.name"_s, {u"metadata.name"_s})));
        // The position is the unsupported term's, in the text as written.
        parsed = FieldSelector::parse(u"metadata.name=a,spec.nodeName=n1"_s, {u"metadata.name"_s});
        QCOMPARE(std::get<FieldSelector::Error>(parsed).position, 16);
    }

    void canonicalFormIsOrderIndependent()
    {
        const auto a = FieldSelector::parse(u"metadata.name=a,spec.nodeName=n"_s);
        const auto b = FieldSelector::parse(u"spec.nodeName==n,metadata.name=a"_s);
        QCOMPARE(std::get<FieldSelector>(a).toString(), std::get<FieldSelector>(b).toString());
        QVERIFY(std::get<FieldSelector>(a) == std::get<FieldSelector>(b));
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestFieldSelector)
#include "tst_fieldselector.moc"
