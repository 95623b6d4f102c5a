#pragma once

#include "ui/models/indexrowsmodel.h"

#include <optional>

namespace Cachescope {

// IndexListModel lists every index of an informer's indexer (column 0: the index name, column
// 1: how many distinct values it holds), including indexes added at runtime, by this model or
// by anyone else. addIndex() adds one from a field path (`spec.nodeName`) or a label key (`app`)
// through SharedIndexInformer::addIndexers(), named as indexfunctions.h names them
// (`field:spec.nodeName`, `label:app`), so that the CLI's --index takes the same names.
//
// Refresh, threads and ownership as IndexRowsModel.
class IndexListModel final : public IndexRowsModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IndexListModel)

public:
    enum Column { NameColumn, ValueCountColumn, ColumnCount };
    enum class Source { FieldPath, LabelKey };
    Q_ENUM(Source)

    explicit IndexListModel(QObject *parent = nullptr);
    ~IndexListModel() override;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // addIndex() adds an index over `text` (a field path or a label key, surrounding blanks
    // ignored) and returns its name, or std::nullopt with a sentence for the user in
    // *errorMessage: empty or malformed input, an index of that name already there, no informer.
    [[nodiscard]] std::optional<QString> addIndex(Source source, const QString &text, QString *errorMessage = nullptr);

    // validateFieldPath() / validateLabelKey() return an empty string for valid input and the
    // reason otherwise. A field path is dot-separated non-empty segments without blanks (a
    // literal dot written `\.`); a label key is Kubernetes' qualified name, `[prefix/]name`.
    static QString validateFieldPath(const QString &fieldPath);
    static QString validateLabelKey(const QString &labelKey);

protected:
    QHash<QString, qsizetype> fetchRows(const SharedIndexInformer &informer) const override;
    int countColumn() const override { return ValueCountColumn; }
};

} // namespace Cachescope
