#include "core/sim/jsonwriter.h"

#include <QJsonArray>
#include <QJsonValue>
#include <QLocale>
#include <QVariant>

#include <cmath>

namespace Cachescope::Sim {

namespace {

char hexDigit(uint value)
{
    return char(value < 10 ? '0' + value : 'a' + value - 10);
}

void appendEscapedUnit(QByteArray &out, char16_t unit)
{
    out += "\\u";
    out += hexDigit((unit >> 12) & 0xf);
    out += hexDigit((unit >> 8) & 0xf);
    out += hexDigit((unit >> 4) & 0xf);
    out += hexDigit(unit & 0xf);
}

void writeString(QByteArray &out, QStringView text)
{
    out += '"';
    const char16_t *src = text.utf16();
    const char16_t *const end = src + text.size();
    while (src != end) {
        const char16_t unit = *src++;
        if (unit < 0x80) {
            if (unit >= 0x20 && unit != u'"' && unit != u'\\') {
                out += char(unit);
                continue;
            }
            out += '\\';
            switch (unit) {
            case u'"':
                out += '"';
                break;
            case u'\\':
                out += '\\';
                break;
            case 0x8:
                out += 'b';
                break;
            case 0xc:
                out += 'f';
                break;
            case 0xa:
                out += 'n';
                break;
            case 0xd:
                out += 'r';
                break;
            case 0x9:
                out += 't';
                break;
            default:
                out += "u00";
                out += hexDigit(unit >> 4);
                out += hexDigit(unit & 0xf);
            }
        } else if (unit < 0x800) {
            out += char(0xc0 | (unit >> 6));
            out += char(0x80 | (unit & 0x3f));
        } else if (QChar::isHighSurrogate(unit)) {
            if (src != end && QChar::isLowSurrogate(*src)) {
                const char32_t code = QChar::surrogateToUcs4(unit, *src++);
                out += char(0xf0 | (code >> 18));
                out += char(0x80 | ((code >> 12) & 0x3f));
                out += char(0x80 | ((code >> 6) & 0x3f));
                out += char(0x80 | (code & 0x3f));
            } else {
                // Not valid UTF-16: Qt's writer escapes the lone half, and so do we.
                appendEscapedUnit(out, unit);
            }
        } else if (QChar::isLowSurrogate(unit)) {
            appendEscapedUnit(out, unit);
        } else {
            out += char(0xe0 | (unit >> 12));
            out += char(0x80 | ((unit >> 6) & 0x3f));
            out += char(0x80 | (unit & 0x3f));
        }
    }
    out += '"';
}

void appendObject(QByteArray &out, const QJsonObject &object);

void writeValue(QByteArray &out, const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Bool:
        out += value.toBool() ? "true" : "false";
        break;
    case QJsonValue::Double: {
        // A QJsonValue keeps integers apart from doubles, and Qt writes them differently
        // (1000000 against 1e+06); toVariant() tells which one this is.
        const QVariant number = value.toVariant();
        if (number.typeId() == QMetaType::LongLong) {
            out += QByteArray::number(number.toLongLong());
        } else {
            const double d = number.toDouble();
            out += std::isfinite(d) ? QByteArray::number(d, 'g', QLocale::FloatingPointShortest) : QByteArray("null");
        }
        break;
    }
    case QJsonValue::String:
        writeString(out, value.toString());
        break;
    case QJsonValue::Array: {
        out += '[';
        const QJsonArray array = value.toArray();
        bool first = true;
        for (const QJsonValue &element : array) {
            if (!first)
                out += ',';
            first = false;
            writeValue(out, element);
        }
        out += ']';
        break;
    }
    case QJsonValue::Object:
        appendObject(out, value.toObject());
        break;
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        out += "null";
        break;
    }
}

void appendObject(QByteArray &out, const QJsonObject &object)
{
    out += '{';
    bool first = true;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!first)
            out += ',';
        first = false;
        writeString(out, it.key());
        out += ':';
        writeValue(out, it.value());
    }
    out += '}';
}

} // namespace

void JsonWriter::appendValue(QByteArray &out, const QJsonValue &value)
{
    writeValue(out, value);
}

void JsonWriter::appendString(QByteArray &out, QStringView text)
{
    writeString(out, text);
}

QByteArray JsonWriter::compact(const QJsonObject &object)
{
    // The scratch buffer keeps its capacity between calls, so a pod costs no reallocation;
    // the result is copied out at its exact size.
    thread_local QByteArray scratch;
    scratch.resize(0);
    if (scratch.capacity() < 16 * 1024)
        scratch.reserve(16 * 1024);
    appendObject(scratch, object);
    return QByteArray(scratch.constData(), scratch.size());
}

} // namespace Cachescope::Sim
