#include "ui/widgets/eventstreamview.h"

#include "ui/models/eventstreamfilter.h"
#include "ui/models/eventstreammodel.h"

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

EventStreamView::EventStreamView(QWidget *parent)
    : QWidget(parent)
    , m_filter(new EventStreamFilter(this))
    , m_table(new QTableView(this))
    , m_search(new QLineEdit(this))
    , m_namespaces(new QComboBox(this))
    , m_rate(new QLabel(this))
    , m_searchDebounce(new QTimer(this))
    , m_rateTimer(new QTimer(this))
    , m_addedAction(new QAction(tr("Added"), this))
    , m_updatedAction(new QAction(tr("Updated"), this))
    , m_deletedAction(new QAction(tr("Deleted"), this))
    , m_pauseAction(new QAction(tr("Pause"), this))
    , m_followAction(new QAction(tr("Follow"), this))
{
    const auto typeAction = [this](QAction *action, Notification::Type type) {
        action->setCheckable(true);
        action->setChecked(true);
        connect(action, &QAction::toggled, this, [this, type](bool shown) { m_filter->setTypeShown(type, shown); });
    };
    typeAction(m_addedAction, Notification::Type::Add);
    typeAction(m_updatedAction, Notification::Type::Update);
    typeAction(m_deletedAction, Notification::Type::Delete);

    m_namespaces->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_namespaces->addItem(tr("All namespaces"), QString());
    connect(m_namespaces, &QComboBox::currentIndexChanged, this, [this] { m_filter->setNamespace(m_namespaces->currentData().toString()); });

    m_search->setPlaceholderText(tr("Filter events"));
    m_search->setClearButtonEnabled(true);
    // Refiltering 50k rows on every keystroke would stall typing; 200 ms is below the pause
    // between words and above the one between keys.
    m_searchDebounce->setSingleShot(true);
    m_searchDebounce->setInterval(200);
    connect(m_search, &QLineEdit::textChanged, m_searchDebounce, qOverload<>(&QTimer::start));
    connect(m_searchDebounce, &QTimer::timeout, this, [this] { m_filter->setText(m_search->text()); });

    m_pauseAction->setCheckable(true);
    m_pauseAction->setToolTip(tr("Hold new events back; they appear when the stream resumes"));
    connect(m_pauseAction, &QAction::toggled, this, [this](bool paused) {
        if (m_model) {
            m_model->setPaused(paused);
        }
        updateRate();
    });
    m_followAction->setCheckable(true);
    m_followAction->setChecked(true);
    m_followAction->setToolTip(tr("Keep the newest event in view"));
    connect(m_followAction, &QAction::toggled, this, [this](bool follow) {
        if (follow) {
            m_table->scrollToBottom();
        }
    });

    auto *toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(m_addedAction);
    toolBar->addAction(m_updatedAction);
    toolBar->addAction(m_deletedAction);
    toolBar->addSeparator();
    toolBar->addWidget(m_namespaces);
    toolBar->addWidget(m_search);
    toolBar->addSeparator();
    toolBar->addAction(m_pauseAction);
    toolBar->addAction(m_followAction);
    toolBar->addSeparator();
    toolBar->addWidget(m_rate);

    m_filter->setDynamicSortFilter(true);
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle); // keys: namespace and the name's end both matter
    m_table->setShowGrid(false);
    m_table->verticalHeader()->hide();
    // A fixed row height spares the view from measuring 50k rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Column widths are measured once, on the first rows, and on no more than 64 of them:
    // measuring every row of a 50k buffer would take the GUI thread for a visible while.
    m_table->horizontalHeader()->setResizeContentsPrecision(64);
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int first) {
        if (first == 0) {
            m_table->resizeColumnsToContents();
            // The first rows may all be short (one namespace, "Added"): keep room for the rest.
            const int x = m_table->fontMetrics().horizontalAdvance(u'x');
            m_table->setColumnWidth(EventStreamModel::TypeColumn, std::max(m_table->columnWidth(EventStreamModel::TypeColumn), x * 10));
            m_table->setColumnWidth(EventStreamModel::KeyColumn, std::max(m_table->columnWidth(EventStreamModel::KeyColumn), x * 40));
        }
        if (m_followAction->isChecked()) {
            m_table->scrollToBottom();
        }
    });
    // Scrolling up to read stops following; scrolling back to the end resumes it.
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        const QScrollBar *bar = m_table->verticalScrollBar();
        if (bar->isSliderDown()) {
            m_followAction->setChecked(value == bar->maximum());
        }
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolBar);
    layout->addWidget(m_table);

    // The rate is a rolling count per second; refreshing faster would only make it flicker.
    m_rateTimer->setInterval(1000);
    connect(m_rateTimer, &QTimer::timeout, this, &EventStreamView::updateRate);
    m_rateTimer->start();
    updateRate();
}

EventStreamView::~EventStreamView() = default;

void EventStreamView::setModel(EventStreamModel *model)
{
    if (m_model == model) {
        return;
    }
    if (m_model) {
        disconnect(m_model, nullptr, this, nullptr);
    }
    m_model = model;
    m_filter->setSourceModel(model);
    if (model) {
        connect(model, &EventStreamModel::namespacesChanged, this, &EventStreamView::refreshNamespaces);
        connect(model, &EventStreamModel::pausedChanged, this, [this](bool paused) {
            m_pauseAction->setChecked(paused);
            updateRate();
        });
        m_pauseAction->setChecked(model->isPaused());
    }
    refreshNamespaces();
    updateRate();
}

void EventStreamView::refreshNamespaces()
{
    const QString current = m_namespaces->currentData().toString();
    const QSignalBlocker blocker(m_namespaces);
    while (m_namespaces->count() > 1) {
        m_namespaces->removeItem(1);
    }
    if (m_model) {
        for (const QString &name : m_model->namespaces()) {
            m_namespaces->addItem(name, name);
        }
    }
    const int index = m_namespaces->findData(current);
    m_namespaces->setCurrentIndex(std::max(index, 0));
    m_filter->setNamespace(m_namespaces->currentData().toString());
}

void EventStreamView::updateRate()
{
    if (!m_model) {
        m_rate->clear();
        return;
    }
    QString text = tr("%1 events/s").arg(QLocale().toString(m_model->eventsPerSecond(), 'f', 1));
    if (m_model->isPaused()) {
        text += u" · "_s + tr("paused, %1 held back").arg(m_model->pendingCount());
    }
    m_rate->setText(text);
}

} // namespace Cachescope
