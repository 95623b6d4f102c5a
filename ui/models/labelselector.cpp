#include "ui/models/labelselector.h"

#include <QCoreApplication>

#include <algorithm>
#include <optional>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

bool isNameChar(QChar c)
{
    // Label keys (with an optional DNS prefix and '/') and values: alphanumerics, '-', '_', '.'.
    return c.isLetterOrNumber() || c == u'-' || c == u'_' || c == u'.' || c == u'/';
}

// Parser reads one selector left to right; every failure records where it happened.
class Parser
{
public:
    explicit Parser(const QString &text)
        : m_text(text)
    {
    }

    std::variant<QList<LabelSelector::Requirement>, LabelSelector::Error> run()
    {
        QList<LabelSelector::Requirement> requirements;
        skipSpace();
        if (atEnd()) {
            return requirements;
        }
        while (true) {
            std::optional<LabelSelector::Requirement> requirement = readRequirement();
            if (!requirement) {
                return m_error;
            }
            requirements.append(*requirement);
            skipSpace();
            if (atEnd()) {
                return requirements;
            }
            if (peek() != u',') {
                fail(QCoreApplication::translate("LabelSelector", "expected ',' or the end"));
                return m_error;
            }
            ++m_pos;
            skipSpace();
        }
    }

private:
    bool atEnd() const { return m_pos >= m_text.size(); }
    QChar peek(qsizetype ahead = 0) const { return m_pos + ahead < m_text.size() ? m_text.at(m_pos + ahead) : QChar(); }
    void skipSpace()
    {
        while (!atEnd() && peek().isSpace()) {
            ++m_pos;
        }
    }
    void fail(const QString &message)
    {
        m_error.position = m_pos;
        m_error.message = message;
    }
    QString readName()
    {
        const qsizetype start = m_pos;
        while (!atEnd() && isNameChar(peek())) {
            ++m_pos;
        }
        return m_text.mid(start, m_pos - start);
    }
    // A word operator (`in`, `notin`) must stand alone: followed by a space or '('.
    bool readWord(QStringView word)
    {
        if (QStringView(m_text).mid(m_pos, word.size()) != word) {
            return false;
        }
        const QChar after = peek(word.size());
        if (!after.isNull() && !after.isSpace() && after != u'(') {
            return false;
        }
        m_pos += word.size();
        return true;
    }

    std::optional<LabelSelector::Requirement> readRequirement()
    {
        LabelSelector::Requirement requirement;
        if (peek() == u'!') {
            ++m_pos;
            skipSpace();
            requirement.key = readName();
            if (requirement.key.isEmpty()) {
                fail(QCoreApplication::translate("LabelSelector", "expected a label key after '!'"));
                return std::nullopt;
            }
            requirement.op = LabelSelector::Operator::DoesNotExist;
            return requirement;
        }
        requirement.key = readName();
        if (requirement.key.isEmpty()) {
            fail(QCoreApplication::translate("LabelSelector", "expected a label key"));
            return std::nullopt;
        }
        skipSpace();
        if (atEnd() || peek() == u',') {
            requirement.op = LabelSelector::Operator::Exists;
            return requirement;
        }
        if (peek() == u'=' || (peek() == u'!' && peek(1) == u'=')) {
            if (peek() == u'!') {
                requirement.op = LabelSelector::Operator::NotEquals;
                m_pos += 2;
            } else {
                requirement.op = LabelSelector::Operator::Equals;
                m_pos += peek(1) == u'=' ? 2 : 1;
            }
            skipSpace();
            // An empty value is allowed: `a=` selects objects whose label a is empty.
            requirement.values.append(readName());
            return requirement;
        }
        if (readWord(u"notin")) {
            requirement.op = LabelSelector::Operator::NotIn;
        } else if (readWord(u"in")) {
            requirement.op = LabelSelector::Operator::In;
        } else {
            fail(QCoreApplication::translate("LabelSelector", "expected '=', '==', '!=', 'in' or 'notin'"));
            return std::nullopt;
        }
        skipSpace();
        if (peek() != u'(') {
            fail(QCoreApplication::translate("LabelSelector", "expected '('"));
            return std::nullopt;
        }
        ++m_pos;
        while (true) {
            skipSpace();
            const QString value = readName();
            requirement.values.append(value);
            skipSpace();
            if (peek() == u',') {
                ++m_pos;
                continue;
            }
            if (peek() == u')') {
                ++m_pos;
                break;
            }
            fail(QCoreApplication::translate("LabelSelector", "expected ',' or ')' in the value list"));
            return std::nullopt;
        }
        requirement.values.removeAll(QString());
        if (requirement.values.isEmpty()) {
            m_pos -= 1;
            fail(QCoreApplication::translate("LabelSelector", "the value list is empty"));
            return std::nullopt;
        }
        return requirement;
    }

    const QString &m_text;
    qsizetype m_pos = 0;
    LabelSelector::Error m_error;
};

const QString *findLabel(const QList<KubeObject::Label> &labels, const QString &key)
{
    const auto it =
        std::lower_bound(labels.cbegin(), labels.cend(), key, [](const KubeObject::Label &label, const QString &wanted) { return label.first < wanted; });
    return it != labels.cend() && it->first == key ? &it->second : nullptr;
}

} // namespace

std::variant<LabelSelector, LabelSelector::Error> LabelSelector::parse(const QString &text)
{
    Parser parser(text);
    auto result = parser.run();
    if (std::holds_alternative<Error>(result)) {
        return std::get<Error>(result);
    }
    LabelSelector selector;
    selector.m_requirements = std::get<QList<Requirement>>(std::move(result));
    return selector;
}

bool LabelSelector::matches(const KubeObject &object) const
{
    if (m_requirements.isEmpty()) {
        return true;
    }
    return matches(object.labels());
}

bool LabelSelector::matches(const QList<KubeObject::Label> &labels) const
{
    for (const Requirement &requirement : m_requirements) {
        const QString *value = findLabel(labels, requirement.key);
        bool ok = false;
        switch (requirement.op) {
        case Operator::Exists:
            ok = value != nullptr;
            break;
        case Operator::DoesNotExist:
            ok = value == nullptr;
            break;
        case Operator::Equals:
        case Operator::In:
            ok = value != nullptr && requirement.values.contains(*value);
            break;
        case Operator::NotEquals:
        case Operator::NotIn:
            ok = value == nullptr || !requirement.values.contains(*value);
            break;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

QString LabelSelector::toString() const
{
    QStringList parts;
    for (const Requirement &requirement : m_requirements) {
        switch (requirement.op) {
        case Operator::Exists:
            parts.append(requirement.key);
            break;
        case Operator::DoesNotExist:
            parts.append(u'!' + requirement.key);
            break;
        case Operator::Equals:
            parts.append(requirement.key + u'=' + requirement.values.value(0));
            break;
        case Operator::NotEquals:
            parts.append(requirement.key + u"!="_s + requirement.values.value(0));
            break;
        case Operator::In:
            parts.append(requirement.key + u" in ("_s + requirement.values.join(u',') + u')');
            break;
        case Operator::NotIn:
            parts.append(requirement.key + u" notin ("_s + requirement.values.join(u',') + u')');
            break;
        }
    }
    return parts.join(u',');
}

} // namespace Cachescope
