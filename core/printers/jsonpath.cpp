#include "core/printers/jsonpath.h"

#include <QJsonArray>
#include <QJsonObject>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

std::optional<JsonPath> parseJsonPath(const QString &path, QString *error)
{
    auto fail = [error](const QString &message) -> std::optional<JsonPath> {
        if (error) {
            *error = message;
        }
        return std::nullopt;
    };
    QStringView text(path);
    text = text.trimmed();
    if (text.startsWith(u'{') && text.endsWith(u'}')) {
        text = text.mid(1, text.size() - 2).trimmed();
    }
    if (text.startsWith(u'$')) {
        text = text.mid(1);
    }
    JsonPath steps;
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c == u'.') {
            ++i;
            const qsizetype start = i;
            while (i < text.size() && text.at(i) != u'.' && text.at(i) != u'[') {
                ++i;
            }
            if (i == start) {
                return fail(u"empty key at position %1"_s.arg(start));
            }
            const QStringView key = text.mid(start, i - start);
            if (key == u"*" || key.contains(u'@') || key.contains(u'?')) {
                return fail(u"unsupported expression at position %1"_s.arg(start));
            }
            steps.append({key.toString(), -1});
        } else if (c == u'[') {
            const qsizetype close = text.indexOf(u']', i);
            if (close < 0) {
                return fail(u"unclosed [ at position %1"_s.arg(i));
            }
            const QStringView inside = text.mid(i + 1, close - i - 1).trimmed();
            if (inside.size() >= 2 && (inside.front() == u'\'' || inside.front() == u'"') && inside.back() == inside.front()) {
                steps.append({inside.mid(1, inside.size() - 2).toString(), -1});
            } else {
                bool ok = false;
                const qsizetype index = inside.toLongLong(&ok);
                if (!ok || index < 0) {
                    return fail(u"unsupported subscript at position %1"_s.arg(i));
                }
                steps.append({QString(), index});
            }
            i = close + 1;
        } else {
            return fail(u"unexpected '%1' at position %2"_s.arg(c).arg(i));
        }
    }
    if (steps.isEmpty()) {
        return fail(u"empty path"_s);
    }
    return steps;
}

QJsonValue evaluateJsonPath(const QJsonValue &root, const JsonPath &steps)
{
    QJsonValue current = root;
    for (const JsonPathStep &step : steps) {
        if (step.index >= 0) {
            const QJsonArray array = current.toArray();
            if (!current.isArray() || step.index >= array.size()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = array.at(step.index);
        } else {
            if (!current.isObject()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = current.toObject().value(step.key);
        }
    }
    return current;
}

} // namespace Cachescope
