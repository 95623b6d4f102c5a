#include "ui/widgets/indexview.h"

#include "ui/models/indexkeysmodel.h"
#include "ui/models/indexvaluesmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QTreeView *makeTreeView(QWidget *parent, const QString &objectName)
{
    auto *view = new QTreeView(parent);
    view->setObjectName(objectName);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true); // lets a 100k-row pane scroll without measuring each row
    view->setAllColumnsShowFocus(true);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    return view;
}

QSortFilterProxyModel *makeSorted(QAbstractItemModel *source, QObject *parent)
{
    auto *proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(source);
    proxy->setSortRole(IndexRowsModel::SortRole);
    // Keep the sort live as counts change, which is the point of a live count.
    proxy->setDynamicSortFilter(true);
    return proxy;
}

} // namespace

IndexView::IndexView(QWidget *parent)
    : QWidget(parent)
    , m_indexes(new IndexListModel(this))
    , m_values(new IndexValuesModel(this))
    , m_keys(new IndexKeysModel(this))
    , m_sortedValues(makeSorted(m_values, this))
    , m_sortedKeys(makeSorted(m_keys, this))
    , m_indexesView(makeTreeView(this, u"indexes"_s))
    , m_valuesView(makeTreeView(this, u"values"_s))
    , m_keysView(makeTreeView(this, u"objects"_s))
    , m_addSource(new QComboBox(this))
    , m_addText(new QLineEdit(this))
    , m_addButton(new QPushButton(tr("Add index"), this))
    , m_error(new QLabel(this))
{
    m_indexesView->setModel(m_indexes);
    m_valuesView->setModel(m_sortedValues);
    m_valuesView->setSortingEnabled(true);
    m_valuesView->sortByColumn(IndexValuesModel::CountColumn, Qt::DescendingOrder);
    m_keysView->setModel(m_sortedKeys);
    m_keysView->setSortingEnabled(true);
    m_keysView->sortByColumn(IndexKeysModel::KeyColumn, Qt::AscendingOrder);
    for (QTreeView *view : {m_indexesView, m_valuesView}) {
        view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
        view->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
        view->header()->setStretchLastSection(false);
    }

    m_addSource->setObjectName(u"addSource"_s);
    m_addSource->addItem(tr("Field path"), QVariant::fromValue(IndexListModel::Source::FieldPath));
    m_addSource->addItem(tr("Label key"), QVariant::fromValue(IndexListModel::Source::LabelKey));
    m_addText->setObjectName(u"addText"_s);
    m_addText->setClearButtonEnabled(true);
    m_addButton->setObjectName(u"addButton"_s);
    m_error->setObjectName(u"addError"_s);
    m_error->setWordWrap(true);
    m_error->hide();
    updateAddPlaceholder();

    auto *indexPane = new QWidget(this);
    auto *indexLayout = new QVBoxLayout(indexPane);
    indexLayout->setContentsMargins(0, 0, 0, 0);
    indexLayout->addWidget(m_indexesView, 1);
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_addSource);
    addRow->addWidget(m_addText, 1);
    addRow->addWidget(m_addButton);
    indexLayout->addLayout(addRow);
    indexLayout->addWidget(m_error);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(indexPane);
    splitter->addWidget(m_valuesView);
    splitter->addWidget(m_keysView);
    splitter->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_indexesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &IndexView::onIndexSelected);
    connect(m_valuesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &IndexView::onValueSelected);
    connect(
        m_keysView, &QTreeView::activated, this, [this](const QModelIndex &index) { Q_EMIT objectActivated(index.data(IndexRowsModel::TextRole).toString()); });
    connect(m_addButton, &QPushButton::clicked, this, &IndexView::onAddClicked);
    connect(m_addText, &QLineEdit::returnPressed, this, &IndexView::onAddClicked);
    connect(m_addSource, &QComboBox::currentIndexChanged, this, &IndexView::updateAddPlaceholder);
}

IndexView::~IndexView() = default;

SharedIndexInformer *IndexView::informer() const
{
    return m_indexes->informer();
}

void IndexView::setInformer(SharedIndexInformer *informer)
{
    m_keys->setSelection({}, {});
    m_values->setIndexName({});
    m_indexes->setInformer(informer);
    m_values->setInformer(informer);
    m_keys->setInformer(informer);
    m_error->hide();
    m_error->clear();
}

bool IndexView::selectIndex(const QString &indexName)
{
    const int row = m_indexes->rowOf(indexName);
    if (row < 0) {
        return false;
    }
    m_indexesView->setCurrentIndex(m_indexes->index(row, 0));
    return true;
}

bool IndexView::selectValue(const QString &value)
{
    const int row = m_values->rowOf(value);
    if (row < 0) {
        return false;
    }
    m_valuesView->setCurrentIndex(m_sortedValues->mapFromSource(m_values->index(row, 0)));
    return true;
}

QString IndexView::selectedIndex() const
{
    return m_values->indexName();
}

QString IndexView::selectedValue() const
{
    return m_keys->value();
}

bool IndexView::addIndex(IndexListModel::Source source, const QString &text)
{
    QString error;
    const std::optional<QString> name = m_indexes->addIndex(source, text, &error);
    if (!name) {
        m_error->setText(error);
        m_error->show();
        return false;
    }
    m_error->hide();
    m_error->clear();
    selectIndex(*name);
    return true;
}

QString IndexView::errorText() const
{
    return m_error->text();
}

void IndexView::onIndexSelected()
{
    const QModelIndex current = m_indexesView->currentIndex();
    const QString indexName = current.isValid() ? current.data(IndexRowsModel::TextRole).toString() : QString();
    m_keys->setSelection({}, {});
    m_values->setIndexName(indexName);
}

void IndexView::onValueSelected()
{
    const QModelIndex current = m_valuesView->currentIndex();
    if (!current.isValid()) {
        m_keys->setSelection({}, {});
        return;
    }
    m_keys->setSelection(m_values->indexName(), current.data(IndexRowsModel::TextRole).toString());
}

void IndexView::onAddClicked()
{
    const auto source = m_addSource->currentData().value<IndexListModel::Source>();
    if (addIndex(source, m_addText->text())) {
        m_addText->clear();
    }
}

void IndexView::updateAddPlaceholder()
{
    const auto source = m_addSource->currentData().value<IndexListModel::Source>();
    m_addText->setPlaceholderText(source == IndexListModel::Source::FieldPath ? tr("e.g. spec.nodeName") : tr("e.g. app"));
}

} // namespace Cachescope
