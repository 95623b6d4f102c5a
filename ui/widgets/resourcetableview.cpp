#include "ui/widgets/resourcetableview.h"

#include "core/kube/labelselector.h"
#include "ui/models/resourcefilterproxymodel.h"
#include "ui/models/resourcetablemodel.h"
#include "ui/models/resourcetableroles.h"
#include "ui/widgets/headerlayout.h"
#include "ui/widgets/resourcetabledelegate.h"

#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ResourceTableView::ResourceTableView(QWidget *parent)
    : QWidget(parent)
    , m_proxy(new ResourceFilterProxyModel(this))
    , m_delegate(new ResourceTableDelegate(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_selector(new QLineEdit(this))
    , m_search(new QLineEdit(this))
    , m_selectorError(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_problem(new QLabel(this))
    , m_retry(new QPushButton(this))
{
    m_problem->setVisible(false);
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_problem->setMargin(8);
    m_problem->setAutoFillBackground(true);
    m_problem->setForegroundRole(QPalette::BrightText);
    m_problem->setBackgroundRole(QPalette::Dark);
    // The server may be back before the backoff ends (the user fixed RBAC, the VPN came back):
    // the user need not wait it out.
    m_retry->setVisible(false);
    connect(m_retry, &QPushButton::clicked, this, [this] {
        if (m_model && m_model->informer()) {
            m_model->informer()->retryNow();
        }
    });
    // A countdown in whole seconds: once a second is as often as its text changes.
    m_problemTick.setInterval(std::chrono::seconds(1));
    connect(&m_problemTick, &QTimer::timeout, this, &ResourceTableView::updateProblem);
    m_filter->setClearButtonEnabled(true);
    m_selector->setClearButtonEnabled(true);
    m_search->setClearButtonEnabled(true);
    m_selectorError->setVisible(false);
    m_selectorError->setForegroundRole(QPalette::BrightText);
    m_progress->setVisible(false);
    m_progress->setTextVisible(true);

    m_table->setModel(m_proxy);
    connect(m_proxy, &ResourceFilterProxyModel::sortPendingChanged, this, &ResourceTableView::updateProgress);
    m_table->setItemDelegate(m_delegate);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(0, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->setVisible(false);
    // Uniform row heights: a fixed section size means the view never measures 100k rows.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setDefaultSectionSize(140);
    // Names of pods differ at their end (replicaset hash, pod suffix): elide in the middle, and
    // give the name column room for a typical generated name.
    m_table->setTextElideMode(Qt::ElideMiddle);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        if (m_proxy->columnCount() > 0) {
            m_applyingLayout = true;
            m_table->setColumnWidth(0, m_table->fontMetrics().horizontalAdvance(u'x') * 42);
            m_applyingLayout = false;
        }
        applyColumnLayout();
    });
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionsMovable(true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [this, header](const QPoint &position) {
        QMenu *menu = createColumnsMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(header->mapToGlobal(position));
    });
    connect(header, &QHeaderView::sectionResized, this, &ResourceTableView::saveColumnLayout);
    connect(header, &QHeaderView::sectionMoved, this, &ResourceTableView::saveColumnLayout);

    auto *lines = new QHBoxLayout;
    lines->addWidget(m_filter, 2);
    lines->addWidget(m_selector, 3);
    lines->addWidget(m_search, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(lines);
    layout->addWidget(m_selectorError);
    layout->addWidget(m_progress);
    auto *problemRow = new QHBoxLayout;
    problemRow->addWidget(m_problem, 1);
    problemRow->addWidget(m_retry, 0, Qt::AlignTop);
    layout->addLayout(problemRow);
    layout->addWidget(m_table, 1);

    // Typing in the filter re-filters 100k rows: wait for a pause rather than per keystroke.
    m_filterDelay.setSingleShot(true);
    m_filterDelay.setInterval(std::chrono::milliseconds(150));
    connect(&m_filterDelay, &QTimer::timeout, this, &ResourceTableView::applyFilterNow);
    connect(m_filter, &QLineEdit::textChanged, this, [this] { m_filterDelay.start(); });
    connect(m_filter, &QLineEdit::returnPressed, this, &ResourceTableView::applyFilterNow);
    connect(m_selector, &QLineEdit::textChanged, this, &ResourceTableView::applySelector);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(m_search->text()); });

    auto *focusFilter = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_L), this);
    focusFilter->setContext(Qt::WidgetWithChildrenShortcut);
    connect(focusFilter, &QShortcut::activated, this, [this] {
        m_filter->setFocus(Qt::ShortcutFocusReason);
        m_filter->selectAll();
    });
    auto *find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, [this] {
        if (m_search->hasFocus() && !m_search->text().isEmpty()) {
            findNext(m_search->text());
            return;
        }
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    auto *findAgain = new QShortcut(QKeySequence::FindNext, this);
    findAgain->setContext(Qt::WidgetWithChildrenShortcut);
    connect(findAgain, &QShortcut::activated, this, [this] { findNext(m_search->text()); });

    // QAbstractItemView emits activated() for Enter and for a double click (or a single click
    // where the style says so): both open the object.
    connect(m_table, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        const KubeObject object = index.data(ResourceTableRoles::ObjectRole).value<KubeObject>();
        if (object.isValid()) {
            Q_EMIT objectActivated(object);
        }
    });
    // Flashes fade over a second; repaint the visible rows at ~30 fps only while one runs.
    m_flashRepaint.setInterval(std::chrono::milliseconds(33));
    connect(&m_flashRepaint, &QTimer::timeout, this, [this] {
        m_table->viewport()->update();
        if (QDateTime::currentMSecsSinceEpoch() > m_flashUntil) {
            m_flashRepaint.stop();
        }
    });

    retranslate();
}

ResourceTableView::~ResourceTableView()
{
    // The header and the proxy are children, deleted after this part of the object: they must
    // not call back into a view that is no longer a ResourceTableView.
    disconnect(m_table->horizontalHeader(), nullptr, this, nullptr);
    disconnect(m_proxy, nullptr, this, nullptr);
}

void ResourceTableView::retranslate()
{
    m_filter->setPlaceholderText(tr("Filter by name or namespace (Ctrl+L)"));
    m_selector->setPlaceholderText(tr("Label selector, e.g. app=web,tier in (front,back)"));
    m_search->setPlaceholderText(tr("Find (Ctrl+F)"));
    m_retry->setText(tr("Retry Now"));
    m_retry->setToolTip(tr("End the wait and try again now"));
    updateProgress();
    updateProblem();
}

void ResourceTableView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void ResourceTableView::setModel(ResourceTableModel *model)
{
    for (const QMetaObject::Connection &connection : std::as_const(m_modelConnections)) {
        disconnect(connection);
    }
    m_modelConnections.clear();
    m_model = model;
    m_proxy->setSourceModel(model);
    if (model) {
        m_modelConnections.append(connect(model, &ResourceTableModel::progressChanged, this, &ResourceTableView::updateProgress));
        m_modelConnections.append(connect(model, &ResourceTableModel::syncedChanged, this, &ResourceTableView::updateProgress));
        m_modelConnections.append(connect(model, &ResourceTableModel::syncedChanged, this, &ResourceTableView::updateProblem));
        m_modelConnections.append(connect(model, &ResourceTableModel::problemChanged, this, &ResourceTableView::updateProblem));
        m_modelConnections.append(connect(model, &ResourceTableModel::problemChanged, this, &ResourceTableView::updateProgress));
        m_modelConnections.append(connect(model, &ResourceTableModel::batchApplied, this, [this](int added, int updated, int) {
            if (added + updated == 0 || !m_model->hasSynced()) {
                return; // the initial list does not flash
            }
            m_flashUntil = QDateTime::currentMSecsSinceEpoch() + m_delegate->flashDuration() + 50;
            if (!m_flashRepaint.isActive()) {
                m_flashRepaint.start();
            }
        }));
    }
    updateProgress();
    updateProblem();
}

void ResourceTableView::setColumnsKey(const QString &kind)
{
    m_columnsKey = kind;
}

void ResourceTableView::setLabelColumns(const QStringList &keys)
{
    if (m_columnsKey.isEmpty() || keys == labelColumns()) {
        return;
    }
    HeaderLayout::setLabelColumns(m_columnsKey, keys);
    Q_EMIT labelColumnsChanged(keys);
}

QStringList ResourceTableView::labelColumns() const
{
    return m_columnsKey.isEmpty() ? QStringList() : HeaderLayout::labelColumns(m_columnsKey);
}

void ResourceTableView::applyColumnLayout()
{
    // A model being destroyed resets the proxy too: it is no longer the proxy's source then.
    if (m_columnsKey.isEmpty() || !m_model || m_proxy->sourceModel() != m_model) {
        return;
    }
    m_applyingLayout = true;
    HeaderLayout::apply(m_table->horizontalHeader(), m_model->columns(), m_columnsKey);
    m_applyingLayout = false;
}

void ResourceTableView::saveColumnLayout()
{
    if (m_applyingLayout || m_columnsKey.isEmpty() || !m_model || m_proxy->sourceModel() != m_model ||
        m_model->columns().count() != m_table->horizontalHeader()->count()) {
        return;
    }
    HeaderLayout::save(m_table->horizontalHeader(), m_model->columns(), m_columnsKey);
}

QMenu *ResourceTableView::createColumnsMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    QHeaderView *header = m_table->horizontalHeader();
    for (int logical = 0; logical < header->count(); ++logical) {
        QAction *action = menu->addAction(m_proxy->headerData(logical, Qt::Horizontal).toString());
        action->setCheckable(true);
        action->setChecked(!header->isSectionHidden(logical));
        // Rows are named by their first column: it stays.
        action->setEnabled(logical != 0);
        connect(action, &QAction::toggled, this, [this, header, logical](bool visible) {
            header->setSectionHidden(logical, !visible);
            saveColumnLayout();
        });
    }
    menu->addSeparator();
    QAction *labels = menu->addAction(tr("Label Columns…"));
    labels->setEnabled(!m_columnsKey.isEmpty());
    connect(labels, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString text = QInputDialog::getText(this,
                                                   tr("Label Columns"),
                                                   tr("Label keys to show as columns, comma-separated (as kubectl's -L):"),
                                                   QLineEdit::Normal,
                                                   labelColumns().join(u", "_s),
                                                   &ok);
        if (ok) {
            QStringList keys;
            for (const QString &key : text.split(u',', Qt::SkipEmptyParts)) {
                if (const QString trimmed = key.trimmed(); !trimmed.isEmpty() && !keys.contains(trimmed)) {
                    keys.append(trimmed);
                }
            }
            setLabelColumns(keys);
        }
    });
    QAction *reset = menu->addAction(tr("Reset Columns"));
    reset->setEnabled(!m_columnsKey.isEmpty());
    connect(reset, &QAction::triggered, this, [this, header] {
        const bool hadLabels = !labelColumns().isEmpty();
        HeaderLayout::forget(m_columnsKey);
        m_applyingLayout = true;
        for (int logical = 0; logical < header->count(); ++logical) {
            header->setSectionHidden(logical, false);
            header->moveSection(header->visualIndex(logical), logical);
        }
        m_applyingLayout = false;
        applyColumnLayout();
        if (hadLabels) {
            Q_EMIT labelColumnsChanged({});
        }
    });
    return menu;
}

void ResourceTableView::applyFilterNow()
{
    m_filterDelay.stop();
    m_proxy->setFilterText(m_filter->text());
}

void ResourceTableView::applySelector()
{
    const auto parsed = LabelSelector::parse(m_selector->text());
    if (const auto *error = std::get_if<LabelSelector::Error>(&parsed)) {
        // Keep the last valid selector applied while the user is still typing.
        m_selectorError->setText(tr("Label selector, at %1: %2").arg(error->position + 1).arg(error->message));
        m_selectorError->setVisible(true);
        return;
    }
    m_selectorError->setVisible(false);
    m_proxy->setLabelSelector(std::get<LabelSelector>(parsed));
}

void ResourceTableView::updateProgress()
{
    // While a problem stands in the table's place, a busy bar would claim progress there is none.
    if (!m_model || m_model->hasSynced() || !m_model->informer() || (m_model->problem().isError() && m_model->retryAtMs() > 0)) {
        // A sort that waits for its cells to be read off the GUI thread: the rows keep their
        // order meanwhile, which the user should not take for the sort's.
        if (m_model && m_proxy->isSortPending()) {
            m_progress->setVisible(true);
            m_progress->setRange(0, 0);
            m_progress->setFormat(tr("Sorting %1 rows by %2…")
                                      .arg(QLocale().toString(m_model->rowCount()), m_proxy->headerData(m_proxy->sortColumn(), Qt::Horizontal).toString()));
            return;
        }
        m_progress->setVisible(false);
        return;
    }
    const qint64 soFar = m_model->itemsSoFar();
    const qint64 remaining = m_model->remaining();
    m_progress->setVisible(true);
    if (remaining < 0) {
        // No estimate from the server: a busy bar with the count so far.
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("%1 items so far").arg(QLocale().toString(soFar)));
        return;
    }
    const qint64 total = soFar + remaining;
    // QProgressBar counts in int; scale to per mille so any total fits.
    m_progress->setRange(0, 1000);
    m_progress->setValue(total > 0 ? int(soFar * 1000 / total) : 0);
    m_progress->setFormat(tr("%1 items so far of %2").arg(QLocale().toString(soFar), QLocale().toString(total)));
}

void ResourceTableView::updateProblem()
{
    const bool hasProblem = m_model && m_model->informer() && m_model->problem().isError();
    m_problem->setVisible(hasProblem);
    // Until the first list arrives there are no rows to show: the problem takes their place.
    m_table->setVisible(!hasProblem || m_model->hasSynced());
    if (!hasProblem) {
        m_retry->setVisible(false);
        m_problemTick.stop();
        return;
    }
    const qint64 retryAt = m_model->retryAtMs();
    const qint64 seconds = retryAt > 0 ? std::max<qint64>(0, (retryAt - QDateTime::currentMSecsSinceEpoch() + 999) / 1000) : 0;
    m_retry->setVisible(retryAt > 0 && seconds > 0);
    const QString when = retryAt > 0 && seconds > 0 ? tr("retrying in %n s", nullptr, int(seconds)) : tr("retrying now");
    const QString what =
        m_model->hasSynced() ? tr("%1 is not up to date").arg(m_model->informer()->name()) : tr("Cannot list %1").arg(m_model->informer()->name());
    m_problem->setText(tr("%1: %2 (%3)").arg(what, m_model->problem().toString(), when));
    if (!m_problemTick.isActive()) {
        m_problemTick.start();
    }
}

bool ResourceTableView::findNext(const QString &text)
{
    const QString needle = text.trimmed();
    const int rows = m_proxy->rowCount();
    const int columns = m_proxy->columnCount();
    if (needle.isEmpty() || rows == 0) {
        return false;
    }
    const int start = m_table->currentIndex().isValid() ? m_table->currentIndex().row() + 1 : 0;
    for (int step = 0; step < rows; ++step) {
        const int row = (start + step) % rows;
        for (int column = 0; column < columns; ++column) {
            if (m_proxy->index(row, column).data().toString().contains(needle, Qt::CaseInsensitive)) {
                const QModelIndex found = m_proxy->index(row, 0);
                m_table->setCurrentIndex(found);
                m_table->selectionModel()->select(found, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                m_table->scrollTo(found);
                return true;
            }
        }
    }
    return false;
}

} // namespace Cachescope
