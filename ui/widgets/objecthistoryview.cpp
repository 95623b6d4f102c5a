#include "ui/widgets/objecthistoryview.h"

#include "ui/models/objecthistory.h"
#include "ui/widgets/objectdiffview.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace Cachescope {

ObjectHistoryView::ObjectHistoryView(QWidget *parent)
    : QWidget(parent)
    , m_table(new QTableView(this))
    , m_diff(new ObjectDiffView(this))
{
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_diff);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    m_diff->setMessage(tr("Select a version to see what it changed"));
}

ObjectHistoryView::~ObjectHistoryView() = default;

void ObjectHistoryView::setHistory(ObjectHistory *history)
{
    if (m_history == history) {
        return;
    }
    if (m_history) {
        disconnect(m_history, nullptr, this, nullptr);
    }
    m_history = history;
    m_table->setModel(history);
    if (history) {
        connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { showSelected(); });
        connect(history, &QAbstractItemModel::modelReset, this, [this] { showSelected(); });
        // Follow a live object: when the newest version was selected (or none), select the new
        // newest one; otherwise the user is reading an older one and keeps it.
        connect(history, &QAbstractItemModel::rowsAboutToBeInserted, this, [this](const QModelIndex &, int first) {
            const int selected = selectedRow();
            m_followNewest = selected < 0 || selected == first - 1;
        });
        connect(history, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int, int last) {
            if (m_followNewest) {
                selectRow(last);
            }
        });
    }
    showSelected();
}

void ObjectHistoryView::setFormat(ObjectView::Format format)
{
    if (m_format == format) {
        return;
    }
    m_format = format;
    showSelected();
}

void ObjectHistoryView::setSecretsRevealed(bool revealed)
{
    if (m_revealed == revealed) {
        return;
    }
    m_revealed = revealed;
    showSelected();
}

void ObjectHistoryView::selectRow(int row)
{
    if (!m_history || row < 0 || row >= m_history->rowCount()) {
        if (m_table->selectionModel()) {
            m_table->selectionModel()->clear();
        }
        showSelected();
        return;
    }
    m_table->selectionModel()->setCurrentIndex(m_history->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

int ObjectHistoryView::selectedRow() const
{
    if (!m_table->selectionModel()) {
        return -1;
    }
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void ObjectHistoryView::showSelected()
{
    const int row = selectedRow();
    if (!m_history || row < 0) {
        m_diff->setMessage(tr("Select a version to see what it changed"));
        return;
    }
    const ObjectHistory::Entry entry = m_history->entry(row);
    const QString resource = m_history->currentResource();
    const auto render = [this, &resource](const KubeObject &object) {
        return object.isValid() ? ObjectView::renderText(object.json(), m_format, !m_revealed, resource) : QString();
    };
    switch (entry.type) {
    case Notification::Type::Add:
        m_diff->setTexts({}, render(entry.object));
        break;
    case Notification::Type::Update:
        m_diff->setTexts(render(entry.oldObject), render(entry.object));
        break;
    case Notification::Type::Delete:
        if (!entry.object.isValid()) {
            m_diff->setMessage(tr("Deleted while the watch was down; the final state is unknown"));
            return;
        }
        m_diff->setTexts(render(entry.object), {});
        break;
    }
}

} // namespace Cachescope
