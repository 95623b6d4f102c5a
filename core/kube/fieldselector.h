#pragma once

#include "core/kube/selectorerror.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <variant>

namespace Cachescope {

// FieldSelector is a Kubernetes field selector (`--field-selector`, the `fieldSelector`
// parameter), the one home of its grammar for the CLI, informer keys and the simulator:
// comma-separated `field=value`, `field==value` or `field!=value` terms that must all hold, as
// apimachinery's `fields` package reads them. A backslash escapes `\`, `,` and `=` in a value;
// nothing is trimmed (`a = b` is the field "a " and the value " b", as the apiserver sees it);
// empty terms are skipped. Which fields a resource supports is the server's business:
// unsupportedField() lets the simulator answer as the apiserver does.
//
// parse() gives a SelectorError with apimachinery's message and the position of the offending
// term or character. toString() is canonical: terms sorted (apimachinery sorts them before
// parsing), `==` written `=`, values escaped. Value type, no thread affinity; the empty selector
// matches everything.
class FieldSelector
{
public:
    using Error = SelectorError;

    struct Requirement
    {
        QString field;
        QString value; // unescaped
        bool negated = false; // `!=`

        QString toString() const;
        friend bool operator==(const Requirement &, const Requirement &) = default;
    };

    FieldSelector() = default;

    [[nodiscard]] static std::variant<FieldSelector, Error> parse(const QString &text);
    // parse() and then unsupportedField(): what the apiserver checks for one resource.
    [[nodiscard]] static std::variant<FieldSelector, Error> parse(const QString &text, const QStringList &supportedFields);

    // fieldValue answers the value of a field for the object being matched.
    [[nodiscard]] bool matches(const std::function<QString(const QString &field)> &fieldValue) const;
    // unsupportedField() is the apiserver's "field label not supported: F" for the first term
    // whose field is not in supportedFields, or nothing.
    [[nodiscard]] std::optional<Error> unsupportedField(const QStringList &supportedFields) const;
    [[nodiscard]] bool isEmpty() const { return m_requirements.isEmpty(); }
    [[nodiscard]] const QList<Requirement> &requirements() const { return m_requirements; }
    [[nodiscard]] QString toString() const;

    friend bool operator==(const FieldSelector &a, const FieldSelector &b) { return a.m_requirements == b.m_requirements; }

private:
    QList<Requirement> m_requirements;
    QList<qsizetype> m_positions; // where each requirement's term starts in the parsed text
};

} // namespace Cachescope
