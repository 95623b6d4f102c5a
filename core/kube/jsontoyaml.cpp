#include "core/kube/jsontoyaml.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QRegularExpression>

#include <yaml-cpp/emitter.h>
#include <yaml-cpp/emittermanip.h>

#include <cmath>
#include <limits>

namespace Cachescope {
namespace {

void emitValue(YAML::Emitter &out, const QJsonValue &value);

// readsAsOtherType() tells whether a plain scalar with this text would be read back as
// something other than a string by a YAML 1.1 or 1.2 reader (bool, null, number, timestamp), in which
// case it must be quoted. yaml-cpp's emitter only quotes for syntax, not for types.
bool readsAsOtherType(const QString &text)
{
    static const QRegularExpression special(
        QStringLiteral("^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N"
                       "|[-+]?(?:\\.inf|\\.Inf|\\.INF)|\\.nan|\\.NaN|\\.NAN"
                       "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\\.[0-9_]*)?" // sexagesimal (YAML 1.1)
                       "|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \\t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?"
                       "(?:[ \\t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?" // timestamps (YAML 1.1), as kubectl quotes them
                       "|[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)" // integers
                       "|[-+]?(?:[0-9][0-9_]*)?\\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+" // floats
                       ")$"));
    return text.isEmpty() || special.match(text).hasMatch();
}

void emitString(YAML::Emitter &out, const QString &text)
{
    const std::string utf8 = text.toStdString();
    // A literal block reads back with exactly one trailing newline ("clip" chomping, the only
    // one yaml-cpp writes) and cannot start with a space without an indentation indicator;
    // any other multi-line text is written double-quoted with escapes, which is exact.
    if (text.contains(QLatin1Char('\n'))) {
        const bool clipSafe = text.endsWith(QLatin1Char('\n')) && !text.endsWith(QLatin1String("\n\n")) && !text.startsWith(QLatin1Char(' ')) &&
            !text.contains(QLatin1String(" \n"));
        out << (clipSafe ? YAML::Literal : YAML::DoubleQuoted) << utf8;
    } else if (readsAsOtherType(text)) {
        out << YAML::DoubleQuoted << utf8;
    } else {
        out << utf8;
    }
}

void emitNumber(YAML::Emitter &out, double number)
{
    // JSON has one number type; Kubernetes fields are integers far more often than not, and
    // kubectl prints integral values without a fraction.
    constexpr double exactIntegerLimit = 9007199254740992.0; // 2^53
    if (std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= exactIntegerLimit) {
        out << static_cast<long long>(number);
    } else {
        out << YAML::Precision(std::numeric_limits<double>::max_digits10) << number;
    }
}

void emitValue(YAML::Emitter &out, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out << YAML::Null;
        break;
    case QJsonValue::Bool:
        out << value.toBool();
        break;
    case QJsonValue::Double:
        emitNumber(out, value.toDouble());
        break;
    case QJsonValue::String:
        emitString(out, value.toString());
        break;
    case QJsonValue::Array: {
        const QJsonArray array = value.toArray();
        if (array.isEmpty()) {
            out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
            break;
        }
        out << YAML::BeginSeq;
        for (const QJsonValue &item : array) {
            emitValue(out, item);
        }
        out << YAML::EndSeq;
        break;
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        if (object.isEmpty()) {
            out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
            break;
        }
        out << YAML::BeginMap;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            out << YAML::Key;
            emitString(out, it.key());
            out << YAML::Value;
            emitValue(out, it.value());
        }
        out << YAML::EndMap;
        break;
    }
    }
}

} // namespace

QByteArray jsonToYaml(const QJsonValue &value)
{
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetSeqFormat(YAML::Block);
    out.SetMapFormat(YAML::Block);
    emitValue(out, value);
    QByteArray yaml(out.c_str(), static_cast<qsizetype>(out.size()));
    if (!yaml.endsWith('\n')) {
        yaml.append('\n');
    }
    return yaml;
}

} // namespace Cachescope
