#pragma once

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace Cachescope::Sim {

// FieldSelector is a parsed `fieldSelector` query parameter: comma-separated `field=value`,
// `field==value` or `field!=value` terms over the fields the simulator indexes
// (metadata.name, metadata.namespace, and for pods spec.nodeName and status.phase). A field the
// resource does not support is a parse error, as the apiserver answers 400 for it.
// A value type; the empty selector matches everything.
class FieldSelector
{
public:
    struct Term
    {
        QString field;
        QString value;
        bool negated = false;
    };

    FieldSelector() = default;

    // supportedFields lists what the resource allows; unknown fields set *error.
    [[nodiscard]] static std::optional<FieldSelector> parse(const QString &text, const QStringList &supportedFields, QString *error = nullptr);

    // fieldValue answers the value of a field for the object being matched.
    [[nodiscard]] bool matches(const std::function<QString(const QString &field)> &fieldValue) const;
    [[nodiscard]] bool isEmpty() const { return m_terms.isEmpty(); }
    [[nodiscard]] const QList<Term> &terms() const { return m_terms; }

private:
    QList<Term> m_terms;
};

} // namespace Cachescope::Sim
