#include "ui/widgets/objecteventsview.h"

#include "ui/models/objecteventsmodel.h"

#include <QHeaderView>
#include <QTableView>
#include <QVBoxLayout>

namespace Cachescope {

ObjectEventsView::ObjectEventsView(QWidget *parent)
    : QWidget(parent)
    , m_model(new ObjectEventsModel(this))
    , m_table(new QTableView(this))
{
    m_table->setObjectName(QStringLiteral("objectEvents"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    for (const int column : {ObjectEventsModel::LastSeenColumn,
                             ObjectEventsModel::TypeColumn,
                             ObjectEventsModel::ReasonColumn,
                             ObjectEventsModel::ObjectColumn,
                             ObjectEventsModel::CountColumn,
                             ObjectEventsModel::FromColumn}) {
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    }
    m_table->horizontalHeader()->setSectionResizeMode(ObjectEventsModel::MessageColumn, QHeaderView::Stretch);
    connect(m_model, &ObjectEventsModel::countChanged, this, &ObjectEventsView::tabTitleChanged);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
}

ObjectEventsView::~ObjectEventsView() = default;

void ObjectEventsView::showObject(ObjectEvents *events, const ObjectRef &object)
{
    m_model->setSource(events);
    m_model->setObject(object);
}

QString ObjectEventsView::tabTitle() const
{
    return m_model->isKnown() ? tr("Events (%1)").arg(m_model->rowCount()) : tr("Events");
}

} // namespace Cachescope
