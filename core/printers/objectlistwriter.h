#pragma once

#include <QtGlobal>

class QTextStream;

namespace Cachescope {

class KubeObject;

// ObjectListWriter writes a `v1` `List` of objects the way `kubectl get -o json|yaml` prints one
// (`apiVersion`, `items`, `kind: List`, `metadata.resourceVersion: ""`; JSON indented by four
// spaces, YAML as jsonToYaml() renders it; or compact JSON for files), one object at a time:
// each object is converted alone and written out, so memory does not grow with the list, and
// the bytes are the same as converting the whole list as one document.
//
// Contract: write() the objects in order, then finish() once; the stream is not owned and must
// outlive the writer. A writer that is destroyed unfinished leaves an incomplete document. Not
// thread-safe. Cost: one parse and one conversion of each object's JSON.
class ObjectListWriter
{
public:
    enum class Format { Json, Yaml, CompactJson };

    ObjectListWriter(QTextStream &out, Format format);
    Q_DISABLE_COPY_MOVE(ObjectListWriter)

    void write(const KubeObject &object);
    void finish();

private:
    QTextStream &m_out;
    Format m_format;
    qsizetype m_written = 0;
    bool m_finished = false;
};

} // namespace Cachescope
