#include "core/cache/kubeobject.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSharedData>

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
constexpr qint64 NoTime = std::numeric_limits<qint64>::min();
// Objects larger than this get parse buffers of their own instead of the per-thread ones, so
// that one huge object does not pin that much memory per thread for good.
constexpr std::size_t LargeObjectBytes = std::size_t(1) << 20;
} // namespace

class KubeObjectData : public QSharedData
{
public:
    QByteArray json;
    QString apiVersion;
    QString kind;
    QString namespaceName;
    QString name;
    QString uid;
    QString resourceVersion;
    QString nodeName;
    QString phase;
    qint64 generation = 0;
    // Milliseconds since the epoch rather than QDateTime: the same 8 bytes, no time zone
    // bookkeeping, and a cheap "absent" value.
    qint64 creationMs = NoTime;
    qint64 deletionMs = NoTime;
    QList<KubeObject::Label> labels;
    QList<KubeObject::OwnerReference> ownerReferences;
};

namespace {

namespace dom = simdjson::dom;

// StringInterner shares one QString between the many objects that carry the same low-cardinality
// text (kinds, apiVersions, namespaces, label keys and values, node names, phases): 100k pods
// in a few namespaces should not hold 100k copies of "default". It is per thread, because
// decoding runs on each cluster's worker thread and a shared table would need a lock on the
// hottest path; it is bounded, because high-cardinality values would otherwise grow it forever.
class StringInterner
{
public:
    QString intern(std::string_view text)
    {
        if (auto it = m_strings.find(text); it != m_strings.end()) {
            return it->second;
        }
        if (m_strings.size() >= MaxEntries) {
            m_strings.clear();
        }
        QString value = QString::fromUtf8(text.data(), qsizetype(text.size()));
        m_strings.emplace(std::string(text), value);
        return value;
    }

private:
    static constexpr std::size_t MaxEntries = 8192;
    struct Hash
    {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
    };
    std::unordered_map<std::string, QString, Hash, std::equal_to<>> m_strings;
};

StringInterner &interner()
{
    thread_local StringInterner instance;
    return instance;
}

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

int digits(std::string_view text, std::size_t pos, std::size_t count)
{
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9') {
            return -1;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

// parseTimestamp() reads the RFC 3339 form the apiserver writes (`2026-11-30T09:12:44Z`)
// by hand, because QDateTime's ISO parser is an order of magnitude slower and timestamps sit on
// the decode path of every object; other forms (fractions, offsets) go through Qt.
qint64 parseTimestamp(std::string_view text)
{
    if (text.size() == 20 && text[4] == '-' && text[7] == '-' && text[10] == 'T' && text[13] == ':' && text[16] == ':' && text[19] == 'Z') {
        const int year = digits(text, 0, 4);
        const int month = digits(text, 5, 2);
        const int day = digits(text, 8, 2);
        const int hour = digits(text, 11, 2);
        const int minute = digits(text, 14, 2);
        const int second = digits(text, 17, 2);
        const QDate date(year, month, day);
        const QTime time(hour, minute, second);
        if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 && date.isValid() && time.isValid()) {
            return date.startOfDay(Qt::UTC).toMSecsSinceEpoch() + time.msecsSinceStartOfDay();
        }
        return NoTime;
    }
    const QDateTime parsed = QDateTime::fromString(toQString(text), Qt::ISODateWithMs);
    return parsed.isValid() ? parsed.toMSecsSinceEpoch() : NoTime;
}

// Decoder reads the extracted fields from a parsed document, filling a KubeObjectData. Every
// failure returns false with m_error set; nothing here throws (simdjson is used through its
// error-code API).
//
// It uses simdjson's DOM API rather than On Demand: Debian's build dispatches the DOM parser to
// the best kernel of the running CPU at run time, while On Demand is compiled for the baseline
// x86-64 only; the DOM parse also validates the whole document, so a truncated or malformed
// object is rejected even where it is never read.
class Decoder
{
public:
    explicit Decoder(KubeObjectData &data)
        : m_data(data)
    {
    }

    bool decode(dom::element root);

    QString m_error;
    bool m_hasManagedFields = false;

private:
    bool fail(const QString &message)
    {
        m_error = message;
        return false;
    }

    // A string or null; null leaves target unchanged.
    bool readString(dom::element value, const QString &where, QString &target, bool intern);
    bool readTimestamp(dom::element value, const QString &where, qint64 &target);
    bool readMetadata(dom::element value);
    bool readLabels(dom::element value);
    bool readOwnerReferences(dom::element value);
    void readOptionalObjectField(dom::element value, std::string_view wanted, QString &target);

    KubeObjectData &m_data;
};

bool Decoder::readString(dom::element value, const QString &where, QString &target, bool intern)
{
    if (value.is_null()) {
        return true;
    }
    std::string_view text;
    if (value.get_string().get(text)) {
        return fail(where % u" must be a string"_s);
    }
    target = intern ? interner().intern(text) : toQString(text);
    return true;
}

bool Decoder::readTimestamp(dom::element value, const QString &where, qint64 &target)
{
    if (value.is_null()) {
        return true;
    }
    std::string_view text;
    if (value.get_string().get(text)) {
        return fail(where % u" must be a string"_s);
    }
    target = parseTimestamp(text);
    return true;
}

bool Decoder::readLabels(dom::element value)
{
    if (value.is_null()) {
        return true;
    }
    dom::object labels;
    if (value.get_object().get(labels)) {
        return fail(u"metadata.labels must be an object"_s);
    }
    m_data.labels.reserve(qsizetype(labels.size()));
    for (const dom::key_value_pair field : labels) {
        std::string_view text;
        if (field.value.get_string().get(text)) {
            return fail(u"metadata.labels values must be strings"_s);
        }
        m_data.labels.append({interner().intern(field.key), interner().intern(text)});
    }
    std::sort(m_data.labels.begin(), m_data.labels.end(), [](const KubeObject::Label &a, const KubeObject::Label &b) { return a.first < b.first; });
    return true;
}

bool Decoder::readOwnerReferences(dom::element value)
{
    if (value.is_null()) {
        return true;
    }
    dom::array references;
    if (value.get_array().get(references)) {
        return fail(u"metadata.ownerReferences must be a list"_s);
    }
    for (const dom::element element : references) {
        dom::object fields;
        if (element.get_object().get(fields)) {
            return fail(u"metadata.ownerReferences[] must be objects"_s);
        }
        KubeObject::OwnerReference reference;
        for (const dom::key_value_pair field : fields) {
            bool ok = true;
            if (field.key == "uid") {
                ok = readString(field.value, u"ownerReferences[].uid"_s, reference.uid, false);
            } else if (field.key == "name") {
                ok = readString(field.value, u"ownerReferences[].name"_s, reference.name, false);
            } else if (field.key == "kind") {
                ok = readString(field.value, u"ownerReferences[].kind"_s, reference.kind, true);
            } else if (field.key == "apiVersion") {
                ok = readString(field.value, u"ownerReferences[].apiVersion"_s, reference.apiVersion, true);
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
        m_data.ownerReferences.append(std::move(reference));
    }
    return true;
}

bool Decoder::readMetadata(dom::element value)
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
            ok = readString(field.value, u"metadata.uid"_s, m_data.uid, false);
        } else if (key == "resourceVersion") {
            ok = readString(field.value, u"metadata.resourceVersion"_s, m_data.resourceVersion, false);
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
void Decoder::readOptionalObjectField(dom::element value, std::string_view wanted, QString &target)
{
    dom::object object;
    if (value.get_object().get(object)) {
        return;
    }
    std::string_view text;
    if (!object.at_key(wanted).get_string().get(text)) {
        target = interner().intern(text);
    }
}

bool Decoder::decode(dom::element root)
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

// The functions below find `metadata.managedFields` in text that simdjson has already validated,
// so they can skip values by counting brackets and quotes. The DOM parser knows the value but
// not where it sits in the input, and the bytes are kept rather than re-serialised: re-writing
// every object would cost more than the parse.

qsizetype skipSpace(const QByteArray &json, qsizetype pos)
{
    while (pos < json.size() && isJsonSpace(json.at(pos))) {
        ++pos;
    }
    return pos;
}

// skipValue() returns the offset just past the value that starts at pos.
qsizetype skipValue(const QByteArray &json, qsizetype pos)
{
    const qsizetype size = json.size();
    const auto skipString = [&](qsizetype at) {
        for (++at; at < size; ++at) {
            if (json.at(at) == '\\') {
                ++at;
            } else if (json.at(at) == '"') {
                return at + 1;
            }
        }
        return size;
    };
    if (pos >= size) {
        return size;
    }
    const char first = json.at(pos);
    if (first == '"') {
        return skipString(pos);
    }
    if (first == '{' || first == '[') {
        int depth = 0;
        while (pos < size) {
            const char c = json.at(pos);
            if (c == '"') {
                pos = skipString(pos);
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return pos + 1;
            }
            ++pos;
        }
        return size;
    }
    while (pos < size && !isJsonSpace(json.at(pos)) && json.at(pos) != ',' && json.at(pos) != '}' && json.at(pos) != ']') {
        ++pos;
    }
    return pos;
}

struct MemberRange
{
    qsizetype keyStart = -1;
    qsizetype valueStart = -1;
    qsizetype valueEnd = -1;
};

// findMember() looks for `"key": value` among the members of the object that starts at pos.
std::optional<MemberRange> findMember(const QByteArray &json, qsizetype pos, std::string_view key)
{
    pos = skipSpace(json, pos);
    if (pos >= json.size() || json.at(pos) != '{') {
        return std::nullopt;
    }
    ++pos;
    while (true) {
        pos = skipSpace(json, pos);
        if (pos >= json.size() || json.at(pos) != '"') {
            return std::nullopt;
        }
        MemberRange member;
        member.keyStart = pos;
        const qsizetype keyEnd = skipValue(json, pos);
        const std::string_view name(json.constData() + pos + 1, std::size_t(std::max<qsizetype>(0, keyEnd - pos - 2)));
        pos = skipSpace(json, keyEnd);
        if (pos >= json.size() || json.at(pos) != ':') {
            return std::nullopt;
        }
        member.valueStart = skipSpace(json, pos + 1);
        member.valueEnd = skipValue(json, member.valueStart);
        if (name == key) {
            return member;
        }
        pos = skipSpace(json, member.valueEnd);
        if (pos >= json.size() || json.at(pos) != ',') {
            return std::nullopt;
        }
        ++pos;
    }
}

// withoutMember() removes one member `"key": value` from the object text, together with the comma
// that separated it from its neighbour, so that the result is still valid JSON.
QByteArray withoutMember(const QByteArray &json, qsizetype keyStart, qsizetype valueEnd)
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
    QByteArray result;
    result.reserve(json.size() - (cutEnd - cutStart));
    result.append(json.constData(), cutStart);
    result.append(json.constData() + cutEnd, json.size() - cutEnd);
    return result;
}

QStringList splitFieldPath(const QString &fieldPath)
{
    QStringList segments;
    QString current;
    for (qsizetype i = 0; i < fieldPath.size(); ++i) {
        const QChar c = fieldPath.at(i);
        if (c == u'\\' && i + 1 < fieldPath.size() && fieldPath.at(i + 1) == u'.') {
            current.append(u'.');
            ++i;
        } else if (c == u'.') {
            segments.append(current);
            current.clear();
        } else {
            current.append(c);
        }
    }
    segments.append(current);
    return segments;
}

} // namespace

KubeObject::KubeObject() = default;
KubeObject::KubeObject(const KubeObject &other) = default;
KubeObject::KubeObject(KubeObject &&other) noexcept = default;
KubeObject &KubeObject::operator=(const KubeObject &other) = default;
KubeObject &KubeObject::operator=(KubeObject &&other) noexcept = default;
KubeObject::~KubeObject() = default;

KubeObject::KubeObject(KubeObjectData *data)
    : d(data)
{
}

std::optional<KubeObject> KubeObject::fromJson(const QByteArray &json, Transform transform, QString *errorMessage)
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

    auto data = std::make_unique<KubeObjectData>();
    Decoder decoder(*data);
    dom::element root;
    bool ok = false;
    std::unique_ptr<dom::parser> ownParser;
    if (length + simdjson::SIMDJSON_PADDING > LargeObjectBytes) {
        ownParser = std::make_unique<dom::parser>();
    }
    dom::parser &activeParser = ownParser ? *ownParser : parser();
    if (auto error = activeParser.parse(text, length, false).get(root)) {
        decoder.m_error = u"invalid JSON: "_s % errorText(error);
    } else {
        ok = decoder.decode(root);
    }
    if (!ok) {
        if (errorMessage) {
            *errorMessage = decoder.m_error;
        }
        return std::nullopt;
    }
    data->json = json;
    if (transform == Transform::DropManagedFields && decoder.m_hasManagedFields) {
        const std::optional<MemberRange> metadata = findMember(json, 0, "metadata");
        const std::optional<MemberRange> managed = metadata ? findMember(json, metadata->valueStart, "managedFields") : std::nullopt;
        // A key spelled with escapes is not found here; such an object keeps its managedFields.
        if (managed) {
            data->json = withoutMember(json, managed->keyStart, managed->valueEnd);
        }
    }
    return KubeObject(data.release());
}

QByteArray KubeObject::json() const
{
    return d ? d->json : QByteArray();
}

QString KubeObject::apiVersion() const
{
    return d ? d->apiVersion : QString();
}

QString KubeObject::kind() const
{
    return d ? d->kind : QString();
}

QString KubeObject::namespaceName() const
{
    return d ? d->namespaceName : QString();
}

QString KubeObject::name() const
{
    return d ? d->name : QString();
}

QString KubeObject::uid() const
{
    return d ? d->uid : QString();
}

QString KubeObject::resourceVersion() const
{
    return d ? d->resourceVersion : QString();
}

qint64 KubeObject::generation() const
{
    return d ? d->generation : 0;
}

QDateTime KubeObject::creationTimestamp() const
{
    return d && d->creationMs != NoTime ? QDateTime::fromMSecsSinceEpoch(d->creationMs, Qt::UTC) : QDateTime();
}

QDateTime KubeObject::deletionTimestamp() const
{
    return d && d->deletionMs != NoTime ? QDateTime::fromMSecsSinceEpoch(d->deletionMs, Qt::UTC) : QDateTime();
}

QList<KubeObject::Label> KubeObject::labels() const
{
    return d ? d->labels : QList<Label>();
}

std::optional<QString> KubeObject::label(const QString &key) const
{
    if (!d) {
        return std::nullopt;
    }
    const auto it = std::lower_bound(d->labels.cbegin(), d->labels.cend(), key, [](const Label &label, const QString &k) { return label.first < k; });
    if (it != d->labels.cend() && it->first == key) {
        return it->second;
    }
    return std::nullopt;
}

QList<KubeObject::OwnerReference> KubeObject::ownerReferences() const
{
    return d ? d->ownerReferences : QList<OwnerReference>();
}

std::optional<KubeObject::OwnerReference> KubeObject::controllerReference() const
{
    if (d) {
        for (const OwnerReference &reference : d->ownerReferences) {
            if (reference.controller) {
                return reference;
            }
        }
    }
    return std::nullopt;
}

QString KubeObject::nodeName() const
{
    return d ? d->nodeName : QString();
}

QString KubeObject::phase() const
{
    return d ? d->phase : QString();
}

QJsonValue KubeObject::value(const QString &fieldPath) const
{
    if (!d) {
        return QJsonValue(QJsonValue::Undefined);
    }
    const QStringList segments = splitFieldPath(fieldPath);
    // Answer from the extracted fields where that is exact: these are the paths that indexes
    // and default columns ask for on every object.
    if (segments.size() == 3 && segments.at(0) == u"metadata" && segments.at(1) == u"labels") {
        const std::optional<QString> text = label(segments.at(2));
        return text ? QJsonValue(*text) : QJsonValue(QJsonValue::Undefined);
    }
    if (segments.size() == 2) {
        const QString *extracted = nullptr;
        if (segments.at(0) == u"metadata") {
            if (segments.at(1) == u"name") {
                extracted = &d->name;
            } else if (segments.at(1) == u"namespace") {
                extracted = &d->namespaceName;
            } else if (segments.at(1) == u"uid") {
                extracted = &d->uid;
            } else if (segments.at(1) == u"resourceVersion") {
                extracted = &d->resourceVersion;
            }
        } else if (segments.at(0) == u"spec" && segments.at(1) == u"nodeName") {
            extracted = &d->nodeName;
        } else if (segments.at(0) == u"status" && segments.at(1) == u"phase") {
            extracted = &d->phase;
        }
        // An empty extracted field may be absent, null or of another type: ask the JSON.
        if (extracted && !extracted->isEmpty()) {
            return QJsonValue(*extracted);
        }
    }

    QJsonValue current = QJsonDocument::fromJson(d->json).object();
    for (const QString &segment : segments) {
        if (current.isObject()) {
            const QJsonObject object = current.toObject();
            const auto it = object.constFind(segment);
            if (it == object.constEnd()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = it.value();
        } else if (current.isArray()) {
            bool isIndex = false;
            const qsizetype index = segment.toLongLong(&isIndex);
            const QJsonArray array = current.toArray();
            if (!isIndex || index < 0 || index >= array.size()) {
                return QJsonValue(QJsonValue::Undefined);
            }
            current = array.at(index);
        } else {
            return QJsonValue(QJsonValue::Undefined);
        }
    }
    return current;
}

bool operator==(const KubeObject &a, const KubeObject &b)
{
    if (a.d == b.d) {
        return true;
    }
    if (!a.d || !b.d) {
        return false;
    }
    return a.d->json == b.d->json;
}

} // namespace Cachescope
