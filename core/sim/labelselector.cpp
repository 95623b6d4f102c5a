#include "core/sim/labelselector.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

// A tiny scanner over the selector text; the grammar is the one of apimachinery's
// labels.Parse, which tokenizes identifiers, operators, commas and parentheses.
class Scanner
{
public:
    explicit Scanner(const QString &text)
        : m_text(text)
    {
    }

    void skipSpaces()
    {
        while (m_pos < m_text.size() && m_text.at(m_pos).isSpace())
            ++m_pos;
    }
    bool atEnd()
    {
        skipSpaces();
        return m_pos >= m_text.size();
    }
    bool consume(QStringView token)
    {
        skipSpaces();
        if (QStringView(m_text).mid(m_pos).startsWith(token)) {
            m_pos += token.size();
            return true;
        }
        return false;
    }
    // A key or value: anything up to a separator.
    QString word()
    {
        skipSpaces();
        const qsizetype start = m_pos;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c.isSpace() || c == u',' || c == u'(' || c == u')' || c == u'=' || c == u'!')
                break;
            ++m_pos;
        }
        return m_text.mid(start, m_pos - start);
    }
    // The operator keywords `in` and `notin` must stand as words of their own.
    bool keyword(QStringView kw)
    {
        skipSpaces();
        const qsizetype save = m_pos;
        if (!consume(kw))
            return false;
        if (m_pos < m_text.size() && !m_text.at(m_pos).isSpace() && m_text.at(m_pos) != u'(') {
            m_pos = save;
            return false;
        }
        return true;
    }

private:
    const QString &m_text;
    qsizetype m_pos = 0;
};

bool validKey(const QString &key)
{
    if (key.isEmpty() || key.size() > 316)
        return false;
    for (const QChar c : key) {
        if (!(c.isLetterOrNumber() || c == u'-' || c == u'_' || c == u'.' || c == u'/'))
            return false;
    }
    return true;
}

} // namespace

std::optional<LabelSelector> LabelSelector::parse(const QString &text, QString *error)
{
    LabelSelector selector;
    Scanner scanner(text);
    auto failWith = [&](const QString &why) -> std::optional<LabelSelector> {
        if (error)
            *error = u"unable to parse requirement: "_s + why;
        return std::nullopt;
    };
    if (scanner.atEnd())
        return selector;
    for (;;) {
        Requirement requirement;
        if (scanner.consume(u"!")) {
            requirement.key = scanner.word();
            requirement.op = Operator::DoesNotExist;
            if (!validKey(requirement.key))
                return failWith(u"invalid label key \"%1\""_s.arg(requirement.key));
        } else {
            requirement.key = scanner.word();
            if (!validKey(requirement.key))
                return failWith(u"invalid label key \"%1\""_s.arg(requirement.key));
            if (scanner.consume(u"==") || scanner.consume(u"=")) {
                requirement.op = Operator::Equals;
                requirement.values = {scanner.word()};
            } else if (scanner.consume(u"!=")) {
                requirement.op = Operator::NotEquals;
                requirement.values = {scanner.word()};
            } else if (const bool notIn = scanner.keyword(u"notin"); notIn || scanner.keyword(u"in")) {
                requirement.op = notIn ? Operator::NotIn : Operator::In;
                if (!scanner.consume(u"("))
                    return failWith(u"found '%1', expected: '('"_s.arg(scanner.word()));
                for (;;) {
                    const QString value = scanner.word();
                    if (!value.isEmpty())
                        requirement.values.append(value);
                    if (scanner.consume(u")"))
                        break;
                    if (!scanner.consume(u","))
                        return failWith(u"expected ',' or ')' in set for key \"%1\""_s.arg(requirement.key));
                }
                if (requirement.values.isEmpty())
                    return failWith(u"for 'in', 'notin' operators, values set can't be empty"_s);
            } else {
                requirement.op = Operator::Exists;
            }
        }
        selector.m_requirements.append(requirement);
        if (scanner.atEnd())
            break;
        if (!scanner.consume(u","))
            return failWith(u"expected ',' after requirement on \"%1\""_s.arg(requirement.key));
    }
    return selector;
}

bool LabelSelector::matches(const QMap<QString, QString> &labels) const
{
    for (const Requirement &r : m_requirements) {
        const auto it = labels.constFind(r.key);
        const bool has = it != labels.cend();
        switch (r.op) {
        case Operator::Equals:
        case Operator::In:
            if (!has || !r.values.contains(it.value()))
                return false;
            break;
        case Operator::NotEquals:
        case Operator::NotIn:
            if (has && r.values.contains(it.value()))
                return false;
            break;
        case Operator::Exists:
            if (!has)
                return false;
            break;
        case Operator::DoesNotExist:
            if (has)
                return false;
            break;
        }
    }
    return true;
}

} // namespace Cachescope::Sim
