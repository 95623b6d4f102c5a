#pragma once

#include "core/cache/kubeobject.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <variant>

namespace Cachescope {

// LabelSelector is a Kubernetes label selector as a user types it in the table's selector line:
// comma-separated requirements that must all hold — `a=b`, `a==b`, `a!=b`, `a in (x,y)`,
// `a notin (x)`, `a` (the key exists), `!a` (it does not). As in apimachinery, `!=` and `notin`
// also match objects without the key. The empty selector matches everything.
//
// parse() never throws: a malformed selector gives an Error with the position (0-based, in
// characters) where reading failed and a translated message. Value type, cheap to copy, no
// thread affinity. Cost: matches() is O(requirements × log labels) on KubeObject's sorted
// labels, without parsing the object.
class LabelSelector
{
public:
    enum class Operator { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };

    struct Requirement
    {
        QString key;
        Operator op = Operator::Exists;
        QStringList values;

        friend bool operator==(const Requirement &, const Requirement &) = default;
    };

    struct Error
    {
        qsizetype position = 0;
        QString message;
    };

    LabelSelector() = default;

    [[nodiscard]] static std::variant<LabelSelector, Error> parse(const QString &text);

    [[nodiscard]] bool matches(const KubeObject &object) const;
    // labels must be sorted by key (as KubeObject::labels() is).
    [[nodiscard]] bool matches(const QList<KubeObject::Label> &labels) const;
    bool isEmpty() const { return m_requirements.isEmpty(); }
    const QList<Requirement> &requirements() const { return m_requirements; }
    // toString() is the canonical form (`a=b,c in (x,y),!d`).
    QString toString() const;

private:
    QList<Requirement> m_requirements;
};

} // namespace Cachescope
