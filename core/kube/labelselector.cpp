#include "core/kube/labelselector.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <optional>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// The tokens of apimachinery's label selector lexer. `in` and `notin` are keywords only where an
// operator is expected: as a key or a value they are plain identifiers.
enum class Token { End, OpenParen, CloseParen, Comma, Bang, Equals, DoubleEquals, NotEquals, GreaterThan, LessThan, In, NotIn, Identifier };

struct Item
{
    Token token = Token::End;
    QString literal;
    qsizetype position = 0;
};

// Only these four are blanks to apimachinery; anything else that is not an operator character is
// part of an identifier (and then fails validation, with the whole identifier in the message).
bool isBlank(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n';
}

bool isSpecial(QChar c)
{
    return c == u'=' || c == u'!' || c == u'(' || c == u')' || c == u',' || c == u'>' || c == u'<';
}

QList<Item> scan(const QString &text)
{
    QList<Item> items;
    qsizetype pos = 0;
    while (true) {
        while (pos < text.size() && isBlank(text.at(pos))) {
            ++pos;
        }
        if (pos >= text.size()) {
            items.append({Token::End, QString(), pos});
            return items;
        }
        const QChar c = text.at(pos);
        if (isSpecial(c)) {
            // The lexer reads operator characters greedily as long as they form a token: only
            // `==` and `!=` are two characters long.
            const QChar next = pos + 1 < text.size() ? text.at(pos + 1) : QChar();
            if ((c == u'=' || c == u'!') && next == u'=') {
                items.append({c == u'=' ? Token::DoubleEquals : Token::NotEquals, text.mid(pos, 2), pos});
                pos += 2;
                continue;
            }
            static const QHash<QChar, Token> single{{u'(', Token::OpenParen},
                                                    {u')', Token::CloseParen},
                                                    {u',', Token::Comma},
                                                    {u'!', Token::Bang},
                                                    {u'=', Token::Equals},
                                                    {u'>', Token::GreaterThan},
                                                    {u'<', Token::LessThan}};
            items.append({single.value(c), QString(c), pos});
            ++pos;
            continue;
        }
        const qsizetype start = pos;
        while (pos < text.size() && !isSpecial(text.at(pos)) && !isBlank(text.at(pos))) {
            ++pos;
        }
        const QString word = text.mid(start, pos - start);
        items.append({word == u"in"_s ? Token::In : word == u"notin"_s ? Token::NotIn : Token::Identifier, word, start});
    }
}

// RegexError of apimachinery's validation package: the message, examples, and the pattern.
QString regexError(const QString &message, const QString &pattern, const QStringList &examples)
{
    QString text = message + u" (e.g. "_s;
    for (qsizetype i = 0; i < examples.size(); ++i) {
        if (i > 0) {
            text += u" or "_s;
        }
        text += u'\'' + examples.at(i) + u"', "_s;
    }
    return text + u"regex used for validation is '"_s + pattern + u"')"_s;
}

const QString qualifiedNamePattern = u"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"_s;
const QString qualifiedNameMessage = u"must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"_s;
const QString subdomainPattern = u"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"_s;
const QString labelValuePattern = u"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?"_s;

// The patterns are compiled once: the UI parses on every edit of its selector line.
bool matchesWhole(const QString &pattern, const QString &value)
{
    static const QHash<QString, QRegularExpression> compiled{
        {qualifiedNamePattern, QRegularExpression(QRegularExpression::anchoredPattern(qualifiedNamePattern))},
        {subdomainPattern, QRegularExpression(QRegularExpression::anchoredPattern(subdomainPattern))},
        {labelValuePattern, QRegularExpression(QRegularExpression::anchoredPattern(labelValuePattern))},
    };
    return compiled.value(pattern).match(value).hasMatch();
}

// IsQualifiedName: `[DNS subdomain prefix/]name`, the name at most 63 characters.
QStringList qualifiedNameErrors(const QString &key)
{
    QStringList errors;
    const QStringList parts = key.split(u'/');
    QString name = parts.constFirst();
    if (parts.size() == 2) {
        const QString &prefix = parts.at(0);
        name = parts.at(1);
        if (prefix.isEmpty()) {
            errors.append(u"prefix part must be non-empty"_s);
        } else {
            if (prefix.size() > 253) {
                errors.append(u"prefix part must be no more than 253 characters"_s);
            }
            if (!matchesWhole(subdomainPattern, prefix)) {
                errors.append(
                    u"prefix part "_s +
                    regexError(
                        u"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"_s,
                        subdomainPattern,
                        {u"example.com"_s}));
            }
        }
    } else if (parts.size() > 2) {
        return {u"a qualified name "_s + regexError(qualifiedNameMessage, qualifiedNamePattern, {u"MyName"_s, u"my.name"_s, u"123-abc"_s}) +
                u" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"_s};
    }
    if (name.isEmpty()) {
        errors.append(u"name part must be non-empty"_s);
    } else if (name.size() > 63) {
        errors.append(u"name part must be no more than 63 characters"_s);
    }
    if (!matchesWhole(qualifiedNamePattern, name)) {
        errors.append(u"name part "_s + regexError(qualifiedNameMessage, qualifiedNamePattern, {u"MyName"_s, u"my.name"_s, u"123-abc"_s}));
    }
    return errors;
}

QStringList labelValueErrors(const QString &value)
{
    QStringList errors;
    if (value.size() > 63) {
        errors.append(u"must be no more than 63 characters"_s);
    }
    if (!matchesWhole(labelValuePattern, value)) {
        errors.append(regexError(
            u"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"_s,
            labelValuePattern,
            {u"MyValue"_s, u"my_value"_s, u"12345"_s}));
    }
    return errors;
}

// field.Invalid's text: `path: Invalid value: "value": why`.
QString invalidValue(const QString &path, const QString &value, const QString &why)
{
    return path + u": Invalid value: \""_s + value + u"\": "_s + why;
}

// strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, nothing else.
std::optional<qint64> parseInteger(const QString &text)
{
    static const QRegularExpression integer(u"^[+-]?[0-9]+$"_s);
    if (!integer.match(text).hasMatch()) {
        return std::nullopt;
    }
    bool ok = false;
    const qint64 value = text.toLongLong(&ok, 10);
    return ok ? std::optional(value) : std::nullopt;
}

// Parser is apimachinery's recursive descent over the scanned items, with the same messages.
class Parser
{
public:
    explicit Parser(const QString &text)
        : m_items(scan(text))
    {
    }

    std::variant<QList<LabelSelector::Requirement>, SelectorError> run()
    {
        QList<LabelSelector::Requirement> requirements;
        while (true) {
            const Item &first = lookahead();
            if (first.token == Token::End) {
                return requirements;
            }
            if (first.token != Token::Identifier && first.token != Token::Bang) {
                return SelectorError{first.position, u"found '%1', expected: !, identifier, or 'end of string'"_s.arg(first.literal)};
            }
            auto requirement = readRequirement();
            if (const auto *error = std::get_if<SelectorError>(&requirement)) {
                return SelectorError{error->position, u"unable to parse requirement: "_s + error->message};
            }
            requirements.append(std::get<LabelSelector::Requirement>(std::move(requirement)));
            const Item &after = consume();
            if (after.token == Token::End) {
                return requirements;
            }
            if (after.token != Token::Comma) {
                return SelectorError{after.position, u"found '%1', expected: ',' or 'end of string'"_s.arg(after.literal)};
            }
            const Item &next = lookahead();
            if (next.token != Token::Identifier && next.token != Token::Bang) {
                return SelectorError{next.position, u"found '%1', expected: identifier after ','"_s.arg(next.literal)};
            }
        }
    }

private:
    // Where values are read (a key, a value), `in` and `notin` are identifiers.
    Item valueContext(Item item) const
    {
        if (item.token == Token::In || item.token == Token::NotIn) {
            item.token = Token::Identifier;
        }
        return item;
    }
    Item lookahead() const { return valueContext(m_items.at(m_index)); }
    Item consume() { return valueContext(m_items.at(m_index++)); }
    const Item &consumeOperator() { return m_items.at(m_index++); }

    std::variant<LabelSelector::Requirement, SelectorError> readRequirement()
    {
        using Op = LabelSelector::Operator;
        LabelSelector::Requirement requirement;
        Item key = consume();
        bool negated = false;
        if (key.token == Token::Bang) {
            negated = true;
            key = consume();
        }
        if (key.token != Token::Identifier) {
            return SelectorError{key.position, u"found '%1', expected: identifier"_s.arg(key.literal)};
        }
        if (const QStringList errors = qualifiedNameErrors(key.literal); !errors.isEmpty()) {
            return SelectorError{key.position, invalidValue(u"<nil>"_s, key.literal, errors.join(u"; "_s))};
        }
        requirement.key = key.literal;
        const Token next = lookahead().token;
        if (negated) {
            // `!key` takes no operator; what follows is the parser's next ',' or end.
            requirement.op = Op::DoesNotExist;
            return requirement;
        }
        if (next == Token::End || next == Token::Comma) {
            requirement.op = Op::Exists;
            return requirement;
        }
        const Item &op = consumeOperator();
        switch (op.token) {
        case Token::In:
            requirement.op = Op::In;
            break;
        case Token::NotIn:
            requirement.op = Op::NotIn;
            break;
        case Token::Equals:
        case Token::DoubleEquals:
            requirement.op = Op::Equals;
            break;
        case Token::NotEquals:
            requirement.op = Op::NotEquals;
            break;
        case Token::GreaterThan:
            requirement.op = Op::GreaterThan;
            break;
        case Token::LessThan:
            requirement.op = Op::LessThan;
            break;
        default:
            return SelectorError{op.position, u"found '%1', expected: in, notin, =, ==, !=, gt, lt"_s.arg(op.literal)};
        }
        QHash<QString, qsizetype> positions; // where each value was first written
        std::optional<SelectorError> error = requirement.op == Op::In || requirement.op == Op::NotIn ? readValueSet(&requirement.values, &positions)
                                                                                                     : readExactValue(&requirement.values, &positions);
        if (error) {
            return *error;
        }
        std::sort(requirement.values.begin(), requirement.values.end());
        requirement.values.erase(std::unique(requirement.values.begin(), requirement.values.end()), requirement.values.end());
        return validated(requirement, positions);
    }

    // NewRequirement's checks of the values; several failures are reported as Go's aggregate.
    static std::variant<LabelSelector::Requirement, SelectorError> validated(const LabelSelector::Requirement &requirement,
                                                                             const QHash<QString, qsizetype> &positions)
    {
        QStringList errors;
        qsizetype position = -1;
        const bool ordered = requirement.op == LabelSelector::Operator::GreaterThan || requirement.op == LabelSelector::Operator::LessThan;
        for (qsizetype i = 0; ordered && i < requirement.values.size(); ++i) {
            if (!parseInteger(requirement.values.at(i))) {
                errors.append(invalidValue(u"values[%1]"_s.arg(i), requirement.values.at(i), u"for 'Gt', 'Lt' operators, the value must be an integer"_s));
                position = position < 0 ? positions.value(requirement.values.at(i)) : position;
            }
        }
        for (qsizetype i = 0; i < requirement.values.size(); ++i) {
            if (const QStringList why = labelValueErrors(requirement.values.at(i)); !why.isEmpty()) {
                errors.append(invalidValue(u"values[%1][%2]"_s.arg(i).arg(requirement.key), requirement.values.at(i), why.join(u"; "_s)));
                position = position < 0 ? positions.value(requirement.values.at(i)) : position;
            }
        }
        if (errors.isEmpty()) {
            return requirement;
        }
        return SelectorError{position, errors.size() == 1 ? errors.constFirst() : u'[' + errors.join(u", "_s) + u']'};
    }

    // `= value`: the value may be empty (`a=` selects an empty label a).
    std::optional<SelectorError> readExactValue(QStringList *values, QHash<QString, qsizetype> *positions)
    {
        const Item next = lookahead();
        if (next.token == Token::End || next.token == Token::Comma) {
            values->append(QString());
            positions->insert(QString(), next.position);
            return std::nullopt;
        }
        const Item value = consume();
        if (value.token != Token::Identifier) {
            return SelectorError{value.position, u"found '%1', expected: identifier"_s.arg(value.literal)};
        }
        values->append(value.literal);
        positions->insert(value.literal, value.position);
        return std::nullopt;
    }

    // `( a, b )`: empty entries are the empty value, and `()` is the set holding only it.
    std::optional<SelectorError> readValueSet(QStringList *values, QHash<QString, qsizetype> *positions)
    {
        const Item open = consume();
        if (open.token != Token::OpenParen) {
            return SelectorError{open.position, u"found '%1' expected: '('"_s.arg(open.literal)};
        }
        const Item first = lookahead();
        if (first.token == Token::CloseParen) {
            consume();
            values->append(QString());
            return std::nullopt;
        }
        if (first.token != Token::Identifier && first.token != Token::Comma) {
            return SelectorError{first.position, u"found '%1', expected: ',', ')' or identifier"_s.arg(first.literal)};
        }
        while (true) {
            const Item item = consume();
            if (item.token == Token::Identifier) {
                values->append(item.literal);
                if (!positions->contains(item.literal)) {
                    positions->insert(item.literal, item.position);
                }
                const Item after = lookahead();
                if (after.token == Token::Comma) {
                    continue;
                }
                if (after.token == Token::CloseParen) {
                    break;
                }
                return SelectorError{after.position, u"found '%1', expected: ',' or ')'"_s.arg(after.literal)};
            }
            if (item.token == Token::Comma) {
                // A comma with nothing before it, before ')' or before another comma stands
                // for the empty value.
                if (values->isEmpty()) {
                    values->append(QString());
                }
                const Token after = lookahead().token;
                if (after == Token::CloseParen) {
                    values->append(QString());
                    break;
                }
                if (after == Token::Comma) {
                    consume();
                    values->append(QString());
                }
                continue;
            }
            return SelectorError{item.position, u"found '%1', expected: ',', or identifier"_s.arg(item.literal)};
        }
        consume(); // the ')' seen above
        return std::nullopt;
    }

    QList<Item> m_items;
    qsizetype m_index = 0;
};

template<typename Lookup>
bool matchesWith(const QList<LabelSelector::Requirement> &requirements, Lookup &&find)
{
    using Op = LabelSelector::Operator;
    for (const LabelSelector::Requirement &requirement : requirements) {
        const QString *value = find(requirement.key);
        bool ok = false;
        switch (requirement.op) {
        case Op::Exists:
            ok = value != nullptr;
            break;
        case Op::DoesNotExist:
            ok = value == nullptr;
            break;
        case Op::Equals:
        case Op::In:
            ok = value != nullptr && requirement.values.contains(*value);
            break;
        case Op::NotEquals:
        case Op::NotIn:
            ok = value == nullptr || !requirement.values.contains(*value);
            break;
        case Op::GreaterThan:
        case Op::LessThan: {
            // Both sides must be integers; an object whose label is not one never matches.
            const std::optional<qint64> actual = value ? parseInteger(*value) : std::nullopt;
            const std::optional<qint64> bound = requirement.values.size() == 1 ? parseInteger(requirement.values.constFirst()) : std::nullopt;
            if (actual.has_value() && bound.has_value()) {
                const qint64 a = actual.value_or(0);
                const qint64 b = bound.value_or(0);
                ok = requirement.op == Op::GreaterThan ? a > b : a < b;
            }
            break;
        }
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

} // namespace

std::variant<LabelSelector, LabelSelector::Error> LabelSelector::parse(const QString &text)
{
    Parser parser(text);
    auto result = parser.run();
    if (auto *error = std::get_if<Error>(&result)) {
        return std::move(*error);
    }
    LabelSelector selector;
    selector.m_requirements = std::get<QList<Requirement>>(std::move(result));
    // apimachinery sorts by key; ties are ordered by their text so that the canonical form does
    // not depend on the order they were written in.
    std::sort(selector.m_requirements.begin(), selector.m_requirements.end(), [](const Requirement &a, const Requirement &b) {
        return a.key != b.key ? a.key < b.key : a.toString() < b.toString();
    });
    return selector;
}

bool LabelSelector::matches(const QList<Label> &labels) const
{
    return matchesWith(m_requirements, [&labels](const QString &key) -> const QString * {
        const auto it = std::lower_bound(labels.cbegin(), labels.cend(), key, [](const Label &label, const QString &wanted) { return label.first < wanted; });
        return it != labels.cend() && it->first == key ? &it->second : nullptr;
    });
}

bool LabelSelector::matches(const QMap<QString, QString> &labels) const
{
    return matchesWith(m_requirements, [&labels](const QString &key) -> const QString * {
        const auto it = labels.constFind(key);
        return it != labels.cend() ? &it.value() : nullptr;
    });
}

QString LabelSelector::Requirement::toString() const
{
    switch (op) {
    case Operator::Exists:
        return key;
    case Operator::DoesNotExist:
        return u'!' + key;
    case Operator::Equals:
        return key + u'=' + values.value(0);
    case Operator::NotEquals:
        return key + u"!="_s + values.value(0);
    case Operator::GreaterThan:
        return key + u'>' + values.value(0);
    case Operator::LessThan:
        return key + u'<' + values.value(0);
    case Operator::In:
        return key + u" in ("_s + values.join(u',') + u')';
    case Operator::NotIn:
        return key + u" notin ("_s + values.join(u',') + u')';
    }
    return key;
}

QString LabelSelector::toString() const
{
    QStringList parts;
    parts.reserve(m_requirements.size());
    for (const Requirement &requirement : m_requirements) {
        parts.append(requirement.toString());
    }
    return parts.join(u',');
}

} // namespace Cachescope
