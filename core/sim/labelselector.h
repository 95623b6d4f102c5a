#pragma once

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>

namespace Cachescope::Sim {

// LabelSelector is a parsed Kubernetes label selector (the `labelSelector` query parameter):
// comma-separated requirements, all of which must hold: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`, `k` (exists) and `!k` (does not exist). As in apimachinery, `!=` and `notin`
// also match objects that lack the key. A value type; the empty selector matches everything.
// matches() is O(requirements × log labels).
class LabelSelector
{
public:
    enum class Operator { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
    struct Requirement
    {
        QString key;
        Operator op = Operator::Exists;
        QStringList values;
    };

    LabelSelector() = default;

    // parse() returns nothing and sets *error (the text the apiserver's 400 carries) when the
    // selector is malformed.
    [[nodiscard]] static std::optional<LabelSelector> parse(const QString &text, QString *error = nullptr);

    [[nodiscard]] bool matches(const QMap<QString, QString> &labels) const;
    [[nodiscard]] bool isEmpty() const { return m_requirements.isEmpty(); }
    [[nodiscard]] const QList<Requirement> &requirements() const { return m_requirements; }

private:
    QList<Requirement> m_requirements;
};

} // namespace Cachescope::Sim
