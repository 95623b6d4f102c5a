#include "core/kube/fieldselector.h"

#include <algorithm>
#include <numeric>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

struct Term
{
    QString text;
    qsizetype position = 0;
};

// The terms between unescaped commas; an escaped comma stays in its term, backslash included.
QList<Term> splitTerms(const QString &text)
{
    QList<Term> terms;
    if (text.isEmpty()) {
        return terms;
    }
    qsizetype start = 0;
    bool escaped = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (escaped) {
            escaped = false;
        } else if (c == u'\\') {
            escaped = true;
        } else if (c == u',') {
            terms.append({text.mid(start, i - start), start});
            start = i + 1;
        }
    }
    terms.append({text.mid(start), start});
    return terms;
}

// unescapeValue(): `\\`, `\,` and `\=` stand for the character; any other escape, and a bare
// ',' or '=', are errors (positions relative to the value).
std::variant<QString, SelectorError> unescapeValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    bool escaped = false;
    for (qsizetype i = 0; i < value.size(); ++i) {
        const QChar c = value.at(i);
        if (escaped) {
            if (c != u'\\' && c != u',' && c != u'=') {
                return SelectorError{i - 1, u"invalid field selector: invalid escape sequence: \\"_s + c};
            }
            out += c;
            escaped = false;
            continue;
        }
        if (c == u'\\') {
            escaped = true;
        } else if (c == u',' || c == u'=') {
            // apimachinery prints the rune with %v, that is its code point.
            return SelectorError{i, u"invalid field selector: unescapedRune character in value: %1"_s.arg(c.unicode())};
        } else {
            out += c;
        }
    }
    if (escaped) {
        return SelectorError{value.size() - 1, u"invalid field selector: invalid escape sequence: \\"_s};
    }
    return out;
}

QString escapeValue(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\' || c == u',' || c == u'=') {
            out += u'\\';
        }
        out += c;
    }
    return out;
}

} // namespace

std::variant<FieldSelector, FieldSelector::Error> FieldSelector::parse(const QString &text)
{
    FieldSelector selector;
    const QList<Term> terms = splitTerms(text);
    for (const Term &term : terms) {
        if (term.text.isEmpty()) {
            continue;
        }
        // The first operator from the left splits the term; at one place `!=` is tried before
        // `==` before `=`. The field cannot be escaped.
        qsizetype at = -1;
        qsizetype width = 0;
        Requirement requirement;
        for (qsizetype i = 0; i < term.text.size() && at < 0; ++i) {
            const QStringView rest = QStringView(term.text).mid(i);
            if (rest.startsWith(u"!=")) {
                at = i;
                width = 2;
                requirement.negated = true;
            } else if (rest.startsWith(u"==")) {
                at = i;
                width = 2;
            } else if (rest.startsWith(u'=')) {
                at = i;
                width = 1;
            }
        }
        if (at < 0) {
            return Error{term.position, u"invalid selector: '%1'; can't understand '%2'"_s.arg(text, term.text)};
        }
        requirement.field = term.text.left(at);
        auto value = unescapeValue(term.text.mid(at + width));
        if (auto *error = std::get_if<Error>(&value)) {
            error->position += term.position + at + width;
            return std::move(*error);
        }
        requirement.value = std::get<QString>(std::move(value));
        selector.m_requirements.append(requirement);
        selector.m_positions.append(term.position);
    }
    // Sorted as apimachinery sorts the terms, so the canonical form does not depend on the order
    // they were written in.
    QList<qsizetype> order(selector.m_requirements.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&selector](qsizetype a, qsizetype b) {
        return selector.m_requirements.at(a).toString() < selector.m_requirements.at(b).toString();
    });
    FieldSelector sorted;
    for (const qsizetype i : std::as_const(order)) {
        sorted.m_requirements.append(selector.m_requirements.at(i));
        sorted.m_positions.append(selector.m_positions.at(i));
    }
    return sorted;
}

std::variant<FieldSelector, FieldSelector::Error> FieldSelector::parse(const QString &text, const QStringList &supportedFields)
{
    auto parsed = parse(text);
    if (const auto *selector = std::get_if<FieldSelector>(&parsed)) {
        if (auto error = selector->unsupportedField(supportedFields)) {
            return std::move(*error);
        }
    }
    return parsed;
}

bool FieldSelector::matches(const std::function<QString(const QString &field)> &fieldValue) const
{
    return std::all_of(m_requirements.cbegin(), m_requirements.cend(), [&fieldValue](const Requirement &requirement) {
        return (fieldValue(requirement.field) == requirement.value) != requirement.negated;
    });
}

std::optional<FieldSelector::Error> FieldSelector::unsupportedField(const QStringList &supportedFields) const
{
    for (qsizetype i = 0; i < m_requirements.size(); ++i) {
        if (!supportedFields.contains(m_requirements.at(i).field)) {
            return Error{m_positions.value(i), u"field label not supported: "_s + m_requirements.at(i).field};
        }
    }
    return std::nullopt;
}

QString FieldSelector::Requirement::toString() const
{
    return field + (negated ? u"!="_s : u"="_s) + escapeValue(value);
}

QString FieldSelector::toString() const
{
    QString text;
    for (const Requirement &requirement : m_requirements) {
        // A term is never empty (its operator at least), so a separator is needed exactly when
        // something came before.
        text += (text.isEmpty() ? QString() : u","_s) + requirement.toString();
    }
    return text;
}

} // namespace Cachescope
