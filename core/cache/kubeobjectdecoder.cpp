#include "core/cache/kubeobjectdecoder_p.h"

#include "core/cache/kubeobjectdata_p.h"
#include "core/cache/storedjson_p.h"
#include "core/util/rfc3339.h"
#include "core/util/stringinterner.h"
#include "core/util/valueinterner.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

namespace dom = simdjson::dom;

dom::parser &parser()
{
    // A parser owns buffers sized to the largest document it has seen; reusing one per thread
    // avoids two allocations per object.
    thread_local dom::parser instance;
    return instance;
}

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString errorText(simdjson::error_code error)
{
    return QString::fromLatin1(simdjson::error_message(error));
}

// FieldReader reads the extracted fields from a parsed document, filling a KubeObjectData. Every
// failure returns false with m_error set; nothing here throws (simdjson is used through its
// error-code API).
//
// It uses simdjson's DOM API rather than On Demand: Debian's build dispatches the DOM parser to
// the best kernel of the running CPU at run time (icelake on the machine this was measured on),
// while On Demand is a header-only template compiled for the baseline x86-64, which selects
// simdjson's scalar `fallback` kernel; the DOM parse also validates the whole document, so a
// truncated or malformed object is rejected even where it is never read.
class FieldReader
{
public:
    explicit FieldReader(KubeObjectData &data)
        : m_data(data)
    {
    }

    bool decode(dom::element root);

    QString m_error;
    bool m_hasManagedFields = false;
    // The uid and resourceVersion as decoded, pointing into the parser's buffers: they become
    // TextRefs once the stored bytes are final.
    std::string_view m_uid;
    std::string_view m_resourceVersion;

private:
    bool fail(const QString &message)
    {
        m_error = message;
        return false;
    }

    // A string or null; null leaves target unchanged.
    bool readString(dom::element value, const QString &where, QString &target, bool intern);
    bool readStringView(dom::element value, const QString &where, std::string_view &target);
    bool readTimestamp(dom::element value, const QString &where, qint64 &target);
    bool readMetadata(dom::element value);
    bool readLabels(dom::element value);
    bool readOwnerReferences(dom::element value);
    void readOptionalObjectField(dom::element value, std::string_view wanted, QString &target);

    KubeObjectData &m_data;
};

bool FieldReader::readString(dom::element value, const QString &where, QString &target, bool intern)
{
    if (value.is_null()) {
        return true;
    }
    std::string_view text;
    if (value.get_string().get(text)) {
        return fail(where % u" must be a string"_s);
    }
    target = intern ? StringInterner::forThread().intern(text) : toQString(text);
    return true;
}

bool FieldReader::readStringView(dom::element value, const QString &where, std::string_view &target)
{
    if (value.is_null()) {
        return true;
    }
    if (value.get_string().get(target)) {
        return fail(where % u" must be a string"_s);
    }
    return true;
}

// appendPart() adds one part to a ValueInterner description, length first, so that no text a
// part may contain (a NUL included) can make two different values read alike.
void appendPart(std::string &description, std::string_view part)
{
    const auto size = quint32(part.size());
    description.append(reinterpret_cast<const char *>(&size), sizeof size);
    description.append(part);
}

// descriptionBuffer() is the thread's scratch for ValueInterner descriptions: reused, so that a
// hit in the interner allocates nothing.
std::string &descriptionBuffer()
{
    thread_local std::string buffer;
    buffer.clear();
    return buffer;
}

bool FieldReader::readTimestamp(dom::element value, const QString &where, qint64 &target)
{
    if (value.is_null()) {
        return true;
    }
    std::string_view text;
    if (value.get_string().get(text)) {
        return fail(where % u" must be a string"_s);
    }
    target = msecsSinceEpochFromRfc3339(text).value_or(KubeObjectData::NoTime);
    return true;
}

bool FieldReader::readLabels(dom::element value)
{
    if (value.is_null()) {
        return true;
    }
    dom::object labels;
    if (value.get_object().get(labels)) {
        return fail(u"metadata.labels must be an object"_s);
    }
    std::string &description = descriptionBuffer();
    for (const dom::key_value_pair field : labels) {
        std::string_view text;
        if (field.value.get_string().get(text)) {
            return fail(u"metadata.labels values must be strings"_s);
        }
        appendPart(description, field.key);
        appendPart(description, text);
    }
    m_data.labels = ValueInterner<QList<KubeObject::Label>>::forThread().intern(description, [&labels] {
        QList<KubeObject::Label> list;
        list.reserve(qsizetype(labels.size()));
        StringInterner &strings = StringInterner::forThread();
        for (const dom::key_value_pair field : labels) {
            list.append({strings.intern(field.key), strings.intern(std::string_view(field.value.get_string().value_unsafe()))});
        }
        std::sort(list.begin(), list.end(), [](const KubeObject::Label &a, const KubeObject::Label &b) { return a.first < b.first; });
        return list;
    });
    return true;
}

bool FieldReader::readOwnerReferences(dom::element value)
{
    if (value.is_null()) {
        return true;
    }
    dom::array references;
    if (value.get_array().get(references)) {
        return fail(u"metadata.ownerReferences must be a list"_s);
    }
    struct Reference
    {
        std::string_view apiVersion;
        std::string_view kind;
        std::string_view name;
        std::string_view uid;
        bool controller = false;
    };
    // Reused per thread: a vector per object would be one more short-lived block between the
    // cached ones (see the padding copy in decode()).
    thread_local std::vector<Reference> read;
    read.clear();
    for (const dom::element element : references) {
        dom::object fields;
        if (element.get_object().get(fields)) {
            return fail(u"metadata.ownerReferences[] must be objects"_s);
        }
        Reference reference;
        for (const dom::key_value_pair field : fields) {
            bool ok = true;
            if (field.key == "uid") {
                ok = readStringView(field.value, u"ownerReferences[].uid"_s, reference.uid);
            } else if (field.key == "name") {
                ok = readStringView(field.value, u"ownerReferences[].name"_s, reference.name);
            } else if (field.key == "kind") {
                ok = readStringView(field.value, u"ownerReferences[].kind"_s, reference.kind);
            } else if (field.key == "apiVersion") {
                ok = readStringView(field.value, u"ownerReferences[].apiVersion"_s, reference.apiVersion);
            } else if (field.key == "controller" && !field.value.is_null()) {
                ok = !field.value.get_bool().get(reference.controller);
                if (!ok) {
                    return fail(u"ownerReferences[].controller must be a boolean"_s);
                }
            }
            if (!ok) {
                return false;
            }
        }
        read.push_back(reference);
    }
    std::string &description = descriptionBuffer();
    for (const Reference &reference : read) {
        appendPart(description, reference.apiVersion);
        appendPart(description, reference.kind);
        appendPart(description, reference.name);
        appendPart(description, reference.uid);
        appendPart(description, reference.controller ? "1" : "0");
    }
    m_data.ownerReferences = ValueInterner<QList<KubeObject::OwnerReference>>::forThread().intern(description, [] {
        QList<KubeObject::OwnerReference> list;
        list.reserve(qsizetype(read.size()));
        StringInterner &strings = StringInterner::forThread();
        for (const Reference &reference : read) {
            list.append({strings.intern(reference.apiVersion),
                         strings.intern(reference.kind),
                         toQString(reference.name),
                         toQString(reference.uid),
                         reference.controller});
        }
        return list;
    });
    return true;
}

bool FieldReader::readMetadata(dom::element value)
{
    dom::object metadata;
    if (value.get_object().get(metadata)) {
        return fail(u"metadata must be an object"_s);
    }
    for (const dom::key_value_pair field : metadata) {
        const std::string_view key = field.key;
        bool ok = true;
        if (key == "name") {
            ok = readString(field.value, u"metadata.name"_s, m_data.name, false);
        } else if (key == "namespace") {
            ok = readString(field.value, u"metadata.namespace"_s, m_data.namespaceName, true);
        } else if (key == "uid") {
            ok = readStringView(field.value, u"metadata.uid"_s, m_uid);
        } else if (key == "resourceVersion") {
            ok = readStringView(field.value, u"metadata.resourceVersion"_s, m_resourceVersion);
        } else if (key == "generation") {
            if (!field.value.is_null()) {
                int64_t number = 0;
                if (field.value.get_int64().get(number)) {
                    return fail(u"metadata.generation must be an integer"_s);
                }
                m_data.generation = number;
            }
        } else if (key == "creationTimestamp") {
            ok = readTimestamp(field.value, u"metadata.creationTimestamp"_s, m_data.creationMs);
        } else if (key == "deletionTimestamp") {
            ok = readTimestamp(field.value, u"metadata.deletionTimestamp"_s, m_data.deletionMs);
        } else if (key == "labels") {
            ok = readLabels(field.value);
        } else if (key == "ownerReferences") {
            ok = readOwnerReferences(field.value);
        } else if (key == "managedFields") {
            if (!field.value.is_null() && !field.value.is_array()) {
                return fail(u"metadata.managedFields must be a list"_s);
            }
            m_hasManagedFields = true;
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

// readOptionalObjectField() picks one string field out of `spec` or `status`. These belong to
// the object's own schema (a custom resource may use the names differently), so a missing or
// differently typed value is simply not extracted rather than an error.
void FieldReader::readOptionalObjectField(dom::element value, std::string_view wanted, QString &target)
{
    dom::object object;
    if (value.get_object().get(object)) {
        return;
    }
    std::string_view text;
    if (!object.at_key(wanted).get_string().get(text)) {
        target = StringInterner::forThread().intern(text);
    }
}

bool FieldReader::decode(dom::element root)
{
    dom::object object;
    if (root.get_object().get(object)) {
        return fail(u"not a JSON object"_s);
    }
    for (const dom::key_value_pair field : object) {
        bool ok = true;
        if (field.key == "apiVersion") {
            ok = readString(field.value, u"apiVersion"_s, m_data.apiVersion, true);
        } else if (field.key == "kind") {
            ok = readString(field.value, u"kind"_s, m_data.kind, true);
        } else if (field.key == "metadata") {
            ok = readMetadata(field.value);
        } else if (field.key == "spec") {
            readOptionalObjectField(field.value, "nodeName", m_data.nodeName);
        } else if (field.key == "status") {
            readOptionalObjectField(field.value, "phase", m_data.phase);
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

struct MemberRange
{
    qsizetype keyStart = -1;
    qsizetype valueEnd = -1;
};

// findManagedFields() locates `metadata.managedFields` in the padded text with simdjson On Demand:
// the DOM parser knows the value but not where it sits in the input, while On Demand's keys and
// raw_json() point into it. Only objects the DOM read saw managedFields in come here. Even on the
// fallback kernel this pass is cheaper than the bracket-counting scanner it replaced (bench_cache,
// 3.5 KiB pods with managedFields: about 300k decodes/s against 230k). The bytes are kept rather than re-serialised: re-writing every object
// would cost more than the parse. A key spelled with escapes does not compare equal here, so such
// an object keeps its managedFields; of a repeated key the first counts.
std::optional<MemberRange> findManagedFields(const char *text, std::size_t length)
{
    namespace ondemand = simdjson::ondemand;
    // As with the DOM parser, a per-thread parser keeps its buffers, except for objects so large
    // that keeping their buffers would hold memory for the thread's lifetime.
    thread_local ondemand::parser sharedParser;
    std::unique_ptr<ondemand::parser> ownParser;
    if (length + simdjson::SIMDJSON_PADDING > KubeObjectDecoder::LargeObjectBytes) {
        ownParser = std::make_unique<ondemand::parser>();
    }
    ondemand::parser &activeParser = ownParser ? *ownParser : sharedParser;
    ondemand::document document;
    ondemand::object root;
    if (activeParser.iterate(text, length, length + simdjson::SIMDJSON_PADDING).get(document) || document.get_object().get(root)) {
        return std::nullopt;
    }
    const auto trimmedEnd = [text](std::string_view raw) {
        // raw_json() and raw_json_token() run up to the next token, spaces included.
        qsizetype end = qsizetype(raw.data() + raw.size() - text);
        while (end > 0 && isJsonSpace(text[end - 1])) {
            --end;
        }
        return end;
    };
    for (auto rootField : root) {
        ondemand::field field;
        if (std::move(rootField).get(field)) {
            return std::nullopt;
        }
        if (!(field.key() == "metadata")) {
            continue;
        }
        ondemand::object metadata;
        if (field.value().get_object().get(metadata)) {
            return std::nullopt;
        }
        for (auto metadataField : metadata) {
            ondemand::field member;
            if (std::move(metadataField).get(member)) {
                return std::nullopt;
            }
            if (!(member.key() == "managedFields")) {
                continue;
            }
            MemberRange range;
            // key().raw() points just past the key's opening quote.
            range.keyStart = qsizetype(member.key().raw() - text) - 1;
            ondemand::value &value = member.value();
            const std::string_view token = value.raw_json_token();
            if (token.empty()) {
                return std::nullopt;
            }
            if (token.front() == '[') {
                ondemand::array list;
                std::string_view raw;
                if (value.get_array().get(list) || list.raw_json().get(raw)) {
                    return std::nullopt;
                }
                range.valueEnd = trimmedEnd(raw);
            } else {
                range.valueEnd = trimmedEnd(token);
            }
            return range;
        }
        return std::nullopt;
    }
    return std::nullopt;
}

// memberCut() is the range to remove for one member `"key": value` of the object text, together
// with the comma that separated it from its neighbour, so that what is left is still valid JSON.
std::pair<qsizetype, qsizetype> memberCut(const QByteArray &json, qsizetype keyStart, qsizetype valueEnd)
{
    qsizetype before = keyStart - 1;
    while (before >= 0 && isJsonSpace(json.at(before))) {
        --before;
    }
    qsizetype cutStart = keyStart;
    qsizetype cutEnd = valueEnd;
    if (before >= 0 && json.at(before) == ',') {
        cutStart = before;
    } else {
        // The first member: take the comma that follows instead, if there is one.
        qsizetype after = valueEnd;
        while (after < json.size() && isJsonSpace(json.at(after))) {
            ++after;
        }
        if (after < json.size() && json.at(after) == ',') {
            cutEnd = after + 1;
        }
    }
    return {cutStart, cutEnd};
}

// textRef() finds text in the stored bytes, or adds it to the spill when they do not hold it
// verbatim (it was written with escapes).
KubeObjectData::TextRef textRef(KubeObjectData &data, std::string_view text)
{
    KubeObjectData::TextRef ref;
    if (text.empty()) {
        return ref;
    }
    ref.size = quint32(text.size());
    const std::string_view stored(data.stored.constData(), std::size_t(data.stored.size()));
    if (const std::size_t at = stored.find(text); at != std::string_view::npos) {
        ref.offset = quint32(at);
        return ref;
    }
    ref.offset = quint32(data.spill.size());
    ref.spilled = 1;
    data.spill.append(text.data(), qsizetype(text.size()));
    return ref;
}

} // namespace

bool KubeObjectDecoder::decode(const QByteArray &json, KubeObject::Transform transform, KubeObjectData &data, QString *errorMessage)
{
    // simdjson reads up to SIMDJSON_PADDING bytes past the end. A QByteArray often has that much
    // spare capacity already; otherwise the text is copied into a per-thread scratch buffer,
    // because a fresh allocation per object would interleave short-lived blocks with the cached
    // ones and fragment the heap (measured: a fifth of ingest time went to malloc).
    const char *text = json.constData();
    const std::size_t length = std::size_t(json.size());
    std::vector<char> ownCopy;
    if (json.capacity() - json.size() < qsizetype(simdjson::SIMDJSON_PADDING)) {
        thread_local std::vector<char> scratch;
        std::vector<char> &copy = length + simdjson::SIMDJSON_PADDING <= LargeObjectBytes ? scratch : ownCopy;
        if (copy.size() < length + simdjson::SIMDJSON_PADDING) {
            copy.resize(length + simdjson::SIMDJSON_PADDING);
        }
        std::memcpy(copy.data(), text, length);
        text = copy.data();
    }

    FieldReader reader(data);
    dom::element root;
    bool ok = false;
    std::unique_ptr<dom::parser> ownParser;
    if (length + simdjson::SIMDJSON_PADDING > LargeObjectBytes) {
        ownParser = std::make_unique<dom::parser>();
    }
    dom::parser &activeParser = ownParser ? *ownParser : parser();
    if (auto error = activeParser.parse(text, length, false).get(root)) {
        reader.m_error = u"invalid JSON: "_s % errorText(error);
    } else {
        ok = reader.decode(root);
    }
    if (!ok) {
        if (errorMessage) {
            *errorMessage = reader.m_error;
        }
        return false;
    }
    std::pair<qsizetype, qsizetype> cut{json.size(), json.size()};
    if (transform == KubeObject::Transform::DropManagedFields && reader.m_hasManagedFields) {
        const std::optional<MemberRange> managed = findManagedFields(text, length);
        if (managed) {
            cut = memberCut(json, managed->keyStart, managed->valueEnd);
        }
    }
    const std::string_view first(json.constData(), std::size_t(cut.first));
    const std::string_view second(json.constData() + cut.second, std::size_t(json.size() - cut.second));
    data.jsonSize = quint32(first.size() + second.size());
    if (StoredJson::canEncode(first) && StoredJson::canEncode(second)) {
        data.stored = StoredJson::encode(first, second);
        data.keysNumbered = 1;
    } else {
        data.stored = QByteArray(qsizetype(data.jsonSize), Qt::Uninitialized);
        std::memcpy(data.stored.data(), first.data(), first.size());
        std::memcpy(data.stored.data() + first.size(), second.data(), second.size());
    }
    data.uid = textRef(data, reader.m_uid);
    data.resourceVersion = textRef(data, reader.m_resourceVersion);
    return true;
}

} // namespace Cachescope
