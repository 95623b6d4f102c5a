#pragma once

#include "core/kube/selectorerror.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <utility>
#include <variant>

namespace Cachescope {

// LabelSelector is a Kubernetes label selector, the one home of its grammar for the UI's
// selector line, the CLI's `-l`, informer keys and the simulator's `labelSelector` parameter
// (client-go and the apiserver share apimachinery's `labels` package the same way).
// Comma-separated requirements that must all hold: `k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`, `k` (exists), `!k` (does not exist), `k>N` and `k<N` (integers). As in
// apimachinery, `!=` and `notin` also match objects without the key, `>`/`<` never do, and the
// empty selector matches everything. Keys and values are validated as apimachinery does
// (qualified names, label values), and `in ()` is the set holding the empty value.
//
// parse() never throws: a malformed selector gives a SelectorError with apimachinery's message
// and the position of the offending token. toString() is canonical: requirements sorted by key
// (as apimachinery's parser sorts them; ties by their text), values sorted without duplicates,
// and `==` written `=`, so selectors that select the same way by construction print the same
// (InformerKey relies on it). Value type, cheap to copy, no thread affinity. Cost: parse() is
// linear in the text; matches() is O(requirements × log labels).
class LabelSelector
{
public:
    enum class Operator { Equals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };
    using Error = SelectorError;
    using Label = std::pair<QString, QString>;

    struct Requirement
    {
        QString key;
        Operator op = Operator::Exists;
        QStringList values; // sorted, without duplicates

        QString toString() const;
        friend bool operator==(const Requirement &, const Requirement &) = default;
    };

    LabelSelector() = default;

    [[nodiscard]] static std::variant<LabelSelector, Error> parse(const QString &text);

    // labels must be sorted by key (as KubeObject::labels() is).
    [[nodiscard]] bool matches(const QList<Label> &labels) const;
    [[nodiscard]] bool matches(const QMap<QString, QString> &labels) const;
    [[nodiscard]] bool isEmpty() const { return m_requirements.isEmpty(); }
    [[nodiscard]] const QList<Requirement> &requirements() const { return m_requirements; }
    // toString() is the canonical form (`app=web,!canary,tier in (back,front)`).
    [[nodiscard]] QString toString() const;

    friend bool operator==(const LabelSelector &, const LabelSelector &) = default;

private:
    QList<Requirement> m_requirements;
};

} // namespace Cachescope
