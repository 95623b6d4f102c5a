#pragma once

#include "ui/models/indexlistmodel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTreeView;

namespace Cachescope {

class IndexKeysModel;
class IndexValuesModel;
class SharedIndexInformer;

// IndexView shows an informer's indexes in three panes: the indexes | the values of the
// selected index with their object counts (sortable by either) | the objects under the selected
// value. Below the indexes, "Add index" takes a field path or a label key; its errors are shown
// beside it. Activating an object (double-click, Enter) emits objectActivated() with its key.
// Everything is live: the models refresh from the indexer about 4 times a second.
// Thread: GUI thread. Ownership: the models are children; the informer is not owned.
class IndexView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IndexView)

public:
    explicit IndexView(QWidget *parent = nullptr);
    ~IndexView() override;

    SharedIndexInformer *informer() const;
    void setInformer(SharedIndexInformer *informer);

    // selectIndex() / selectValue() select a row as a click would; false when it is not shown.
    bool selectIndex(const QString &indexName);
    bool selectValue(const QString &value);
    QString selectedIndex() const;
    QString selectedValue() const;

    // addIndex() adds an index as the "Add index" control does and selects it; on failure the
    // reason is shown beside the control and returned by errorText().
    bool addIndex(IndexListModel::Source source, const QString &text);
    QString errorText() const;

    IndexListModel *indexModel() const { return m_indexes; }
    IndexValuesModel *valuesModel() const { return m_values; }
    IndexKeysModel *keysModel() const { return m_keys; }
    QTreeView *valuesView() const { return m_valuesView; }
    QTreeView *keysView() const { return m_keysView; }

Q_SIGNALS:
    void objectActivated(const QString &key);

private:
    void onIndexSelected();
    void onValueSelected();
    void onAddClicked();
    void updateAddPlaceholder();

    IndexListModel *m_indexes; // owned (child)
    IndexValuesModel *m_values; // owned (child)
    IndexKeysModel *m_keys; // owned (child)
    QSortFilterProxyModel *m_sortedValues; // owned (child)
    QSortFilterProxyModel *m_sortedKeys; // owned (child)
    QTreeView *m_indexesView; // owned (child)
    QTreeView *m_valuesView; // owned (child)
    QTreeView *m_keysView; // owned (child)
    QComboBox *m_addSource; // owned (child)
    QLineEdit *m_addText; // owned (child)
    QPushButton *m_addButton; // owned (child)
    QLabel *m_error; // owned (child)
};

} // namespace Cachescope
