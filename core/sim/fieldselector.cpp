#include "core/sim/fieldselector.h"

#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

std::optional<FieldSelector> FieldSelector::parse(const QString &text, const QStringList &supportedFields, QString *error)
{
    FieldSelector selector;
    const QStringList parts = text.split(u',', Qt::SkipEmptyParts);
    for (const QString &rawPart : parts) {
        const QString part = rawPart.trimmed();
        Term term;
        qsizetype at = part.indexOf(u"!=");
        qsizetype width = 2;
        if (at >= 0) {
            term.negated = true;
        } else if ((at = part.indexOf(u"==")) >= 0) {
            width = 2;
        } else if ((at = part.indexOf(u'=')) >= 0) {
            width = 1;
        } else {
            if (error)
                *error = u"invalid selector: '%1'; can't understand '%2'"_s.arg(text, part);
            return std::nullopt;
        }
        term.field = part.left(at).trimmed();
        term.value = part.mid(at + width).trimmed();
        if (!supportedFields.contains(term.field)) {
            if (error)
                *error = u"field label not supported: %1"_s.arg(term.field);
            return std::nullopt;
        }
        selector.m_terms.append(term);
    }
    return selector;
}

bool FieldSelector::matches(const std::function<QString(const QString &field)> &fieldValue) const
{
    for (const Term &term : m_terms) {
        if ((fieldValue(term.field) == term.value) == term.negated)
            return false;
    }
    return true;
}

} // namespace Cachescope::Sim
