#include "ui/models/indexlistmodel.h"

#include "core/cache/indexfunctions.h"
#include "core/cache/sharedindexinformer.h"

#include <QRegularExpression>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

IndexListModel::IndexListModel(QObject *parent)
    : IndexRowsModel(parent)
{
}

IndexListModel::~IndexListModel() = default;

int IndexListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IndexListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case NameColumn:
        return tr("Index");
    case ValueCountColumn:
        return tr("Values");
    default:
        return {};
    }
}

QHash<QString, qsizetype> IndexListModel::fetchRows(const SharedIndexInformer &informer) const
{
    const Indexer &indexer = informer.indexer();
    QHash<QString, qsizetype> rows;
    const Indexers indexers = indexer.indexers();
    for (auto it = indexers.cbegin(); it != indexers.cend(); ++it) {
        rows.insert(it.key(), indexer.indexValueCount(it.key()));
    }
    return rows;
}

QString IndexListModel::validateFieldPath(const QString &fieldPath)
{
    if (fieldPath.isEmpty()) {
        return tr("Enter a field path, such as spec.nodeName.");
    }
    for (const QChar c : fieldPath) {
        if (c.isSpace()) {
            return tr("A field path has no blanks.");
        }
    }
    // Split on the dots that are not escaped (`\.` is a literal dot inside a key).
    qsizetype segmentLength = 0;
    for (qsizetype i = 0; i < fieldPath.size(); ++i) {
        if (fieldPath.at(i) == u'\\' && i + 1 < fieldPath.size() && fieldPath.at(i + 1) == u'.') {
            ++i;
            ++segmentLength;
        } else if (fieldPath.at(i) == u'.') {
            if (segmentLength == 0) {
                return tr("A field path has no empty parts: check the dots.");
            }
            segmentLength = 0;
        } else {
            ++segmentLength;
        }
    }
    if (segmentLength == 0) {
        return tr("A field path has no empty parts: check the dots.");
    }
    return {};
}

QString IndexListModel::validateLabelKey(const QString &labelKey)
{
    if (labelKey.isEmpty()) {
        return tr("Enter a label key, such as app.");
    }
    // Kubernetes' qualified name: an optional DNS-subdomain prefix and a slash, then a name of
    // at most 63 characters that starts and ends with a letter or digit.
    static const QRegularExpression name(u"^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"_s);
    static const QRegularExpression prefix(u"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"_s);
    const qsizetype slash = labelKey.indexOf(u'/');
    const QString namePart = slash < 0 ? labelKey : labelKey.mid(slash + 1);
    if (slash >= 0) {
        const QString prefixPart = labelKey.left(slash);
        if (prefixPart.isEmpty() || prefixPart.size() > 253 || !prefix.match(prefixPart).hasMatch()) {
            return tr("The prefix of a label key must be a DNS subdomain, such as example.com.");
        }
    }
    if (!name.match(namePart).hasMatch()) {
        return tr("A label key's name has at most 63 letters, digits, '-', '_' or '.', and starts and ends with a letter or digit.");
    }
    return {};
}

std::optional<QString> IndexListModel::addIndex(Source source, const QString &text, QString *errorMessage)
{
    const auto fail = [errorMessage](const QString &message) -> std::optional<QString> {
        if (errorMessage) {
            *errorMessage = message;
        }
        return std::nullopt;
    };
    SharedIndexInformer *target = informer();
    if (!target) {
        return fail(tr("No informer is selected."));
    }
    const QString input = text.trimmed();
    const QString invalid = source == Source::FieldPath ? validateFieldPath(input) : validateLabelKey(input);
    if (!invalid.isEmpty()) {
        return fail(invalid);
    }
    const QString name = source == Source::FieldPath ? fieldPathIndexName(input) : labelIndexName(input);
    if (target->indexer().hasIndex(name)) {
        return fail(tr("An index named %1 exists already.").arg(name));
    }
    const IndexFunction function = source == Source::FieldPath ? fieldPathIndexFunction(input) : labelIndexFunction(input);
    QString reason;
    if (!target->addIndexers(Indexers{{name, function}}, &reason)) {
        // Someone else added the same name between the check and now; the store says so.
        return fail(tr("The index %1 could not be added: %2").arg(name, reason));
    }
    refresh();
    return name;
}

} // namespace Cachescope
