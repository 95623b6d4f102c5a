#include "core/printers/objectlistwriter.h"

#include "core/cache/kubeobject.h"
#include "core/kube/jsontoyaml.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace Cachescope {

namespace {

// indented() is `text` with `first` before its first line and `rest` before every other one:
// an object converted alone, placed where a whole-list conversion nests it (QJsonDocument and
// yaml-cpp indent nested lines by a fixed step and leave blank lines blank, and JSON strings hold
// no raw newlines).
QByteArray indented(const QByteArray &text, const QByteArray &first, const QByteArray &rest)
{
    QByteArray out;
    out.reserve(text.size() + text.count('\n') * rest.size() + first.size());
    out += first;
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0) {
            end = text.size();
        } else {
            ++end;
        }
        if (start > 0 && text.at(start) != '\n') { // blank lines (inside literal blocks) stay blank
            out += rest;
        }
        out.append(text.constData() + start, end - start);
        start = end;
    }
    return out;
}

} // namespace

ObjectListWriter::ObjectListWriter(QTextStream &out, Format format)
    : m_out(out)
    , m_format(format)
{
}

void ObjectListWriter::write(const KubeObject &object)
{
    Q_ASSERT(!m_finished);
    switch (m_format) {
    case Format::CompactJson:
        m_out << (m_written == 0 ? R"({"apiVersion":"v1","items":[)" : ",") << object.json();
        break;
    case Format::Json: {
        QByteArray text = QJsonDocument::fromJson(object.json()).toJson(QJsonDocument::Indented);
        text.chop(1); // the document's closing newline; the list puts ",\n" or "\n" there
        m_out << (m_written == 0 ? "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n" : ",\n") << indented(text, "        ", "        ");
        break;
    }
    case Format::Yaml: {
        // Literal blocks of multi-line strings also sit at a fixed indent below their key, so a
        // prefix on every line places them too.
        const QByteArray text = jsonToYaml(QJsonDocument::fromJson(object.json()).object());
        m_out << (m_written == 0 ? "apiVersion: v1\nitems:\n" : "") << indented(text, "  - ", "    ");
        break;
    }
    }
    ++m_written;
}

void ObjectListWriter::finish()
{
    Q_ASSERT(!m_finished);
    m_finished = true;
    switch (m_format) {
    case Format::CompactJson:
        m_out << (m_written == 0 ? R"({"apiVersion":"v1","items":[)" : "") << R"(],"kind":"List","metadata":{"resourceVersion":""}})";
        break;
    case Format::Json:
        m_out << (m_written == 0 ? "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n" : "\n")
              << "    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n";
        break;
    case Format::Yaml:
        m_out << (m_written == 0 ? "apiVersion: v1\nitems: []\n" : "") << "kind: List\nmetadata:\n  resourceVersion: \"\"\n";
        break;
    }
}

} // namespace Cachescope
