#include "core/controller/processfunctionparameters.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

std::optional<ProcessFunctionParameters> ProcessFunctionParameters::fromAssignments(const QStringList &assignments, QString *error)
{
    ProcessFunctionParameters parameters;
    for (const QString &assignment : assignments) {
        const qsizetype equals = assignment.indexOf(u'=');
        if (equals <= 0) {
            if (error) {
                *error = u"parameter \"%1\" is not of the form name=value"_s.arg(assignment);
            }
            return std::nullopt;
        }
        parameters.values.insert(assignment.left(equals).trimmed(), assignment.mid(equals + 1).trimmed());
    }
    return parameters;
}

std::optional<qint64> ProcessFunctionParameters::integer(const QString &name, qint64 defaultValue, qint64 minimum, qint64 maximum, QString *error) const
{
    const auto it = values.constFind(name);
    if (it == values.cend()) {
        return defaultValue;
    }
    bool ok = false;
    const qint64 value = it->toLongLong(&ok);
    if (!ok || value < minimum || value > maximum) {
        if (error) {
            *error = u"parameter %1 must be an integer from %2 to %3, not \"%4\""_s.arg(name).arg(minimum).arg(maximum).arg(*it);
        }
        return std::nullopt;
    }
    return value;
}

std::optional<double> ProcessFunctionParameters::number(const QString &name, double defaultValue, double minimum, double maximum, QString *error) const
{
    const auto it = values.constFind(name);
    if (it == values.cend()) {
        return defaultValue;
    }
    bool ok = false;
    const double value = it->toDouble(&ok);
    if (!ok || !(value >= minimum && value <= maximum)) {
        if (error) {
            *error = u"parameter %1 must be a number from %2 to %3, not \"%4\""_s.arg(name).arg(minimum).arg(maximum).arg(*it);
        }
        return std::nullopt;
    }
    return value;
}

std::optional<bool> ProcessFunctionParameters::boolean(const QString &name, bool defaultValue, QString *error) const
{
    const auto it = values.constFind(name);
    if (it == values.cend()) {
        return defaultValue;
    }
    const QString value = it->toLower();
    if (value == u"true" || value == u"1" || value == u"yes") {
        return true;
    }
    if (value == u"false" || value == u"0" || value == u"no") {
        return false;
    }
    if (error) {
        *error = u"parameter %1 must be true or false, not \"%2\""_s.arg(name, *it);
    }
    return std::nullopt;
}

QStringList ProcessFunctionParameters::list(const QString &name, const QStringList &defaultValue) const
{
    const auto it = values.constFind(name);
    if (it == values.cend()) {
        return defaultValue;
    }
    QStringList items;
    for (const QString &item : it->split(u',')) {
        if (const QString trimmed = item.trimmed(); !trimmed.isEmpty()) {
            items.append(trimmed);
        }
    }
    return items;
}

} // namespace Cachescope
