#include "ui/models/resourcetablemodel.h"

#include "core/cache/keys.h"
#include "core/cache/notificationbatcher.h"
#include "core/util/backgroundpool.h"
#include "ui/models/resourcetableroles.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <QThreadPool>
#include <QVariantMap>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

// The way back from the pool's threads: the model while it lives, nullptr after. generation is
// the model's cell generation, bumped by a reset or new columns and 0 once the model is gone:
// work made for another one stops early (a million rows take the pool's threads tens of
// seconds, which a reset or quitting need not wait) and is not put in place.
struct ResourceTableModel::CellReturn
{
    std::mutex mutex;
    ResourceTableModel *model = nullptr;
    std::atomic<quint64> generation = 1;
};

// One prepareCells(): the rows' objects as they were, and the cells made of them. Each pool
// task fills its own slice of cells; the last one to finish sends the whole back.
struct ResourceTableModel::CellWork
{
    ResourceColumns columns;
    quint64 generation = 0;
    std::vector<int> rows;
    std::vector<KubeObject> objects;
    std::vector<std::shared_ptr<const QList<QVariant>>> cells;
    std::atomic<int> tasksLeft = 0;
};

ResourceTableModel::ResourceTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_columns(ResourceColumns::forKind(QString(), true))
    , m_cellReturn(std::make_shared<CellReturn>())
{
    m_cellReturn->model = this;
    m_ageColumn = m_columns.indexOf(ResourceColumns::Field::Age);
    // The registration's own hasSynced() trails the informer's by the handler's backlog; a short
    // poll covers the moment between the informer's synced() and the last initial add arriving.
    m_syncCheck.setInterval(std::chrono::milliseconds(20));
    connect(&m_syncCheck, &QTimer::timeout, this, &ResourceTableModel::checkSynced);
    // The backlog's next slice, after the event loop has had its turn.
    m_nextSlice.setSingleShot(true);
    m_nextSlice.setInterval(0);
    connect(&m_nextSlice, &QTimer::timeout, this, &ResourceTableModel::applySlice);
    // One repaint of the age column per second: ages are shown to the second at most.
    m_ageTick.setInterval(std::chrono::seconds(1));
    connect(&m_ageTick, &QTimer::timeout, this, &ResourceTableModel::tickAges);
    m_ageTick.start();
}

ResourceTableModel::~ResourceTableModel()
{
    {
        const std::lock_guard lock(m_cellReturn->mutex);
        m_cellReturn->model = nullptr;
        m_cellReturn->generation = 0;
    }
    detach();
}

void ResourceTableModel::detach()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_informerConnections)) {
        disconnect(connection);
    }
    m_informerConnections.clear();
    if (m_informer && m_registration.isValid()) {
        m_informer->removeEventHandler(m_registration);
    }
    m_registration = {};
    // The handler may still be called by the informer's listener for a moment: once the batcher
    // is gone it drops what it gets.
    delete m_batcher;
    m_batcher = nullptr;
    m_syncCheck.stop();
    m_backlog.clear();
    m_backlogOffset = 0;
    m_nextSlice.stop();
}

void ResourceTableModel::setInformer(SharedIndexInformer *informer)
{
    Q_ASSERT(thread() == QThread::currentThread());
    detach();
    const bool wasSynced = m_synced;
    beginResetModel();
    m_rows.clear();
    m_rowOfKey.clear();
    ++m_cellReturn->generation;
    m_informer = informer;
    m_synced = false;
    m_itemsSoFar = 0;
    m_remaining = -1;
    const bool hadProblem = m_problem.isError();
    m_problem = {};
    m_retryAtMs = 0;
    endResetModel();
    if (hadProblem) {
        Q_EMIT problemChanged();
    }
    if (wasSynced) {
        Q_EMIT syncedChanged(false);
    }
    Q_EMIT progressChanged(m_itemsSoFar, m_remaining);
    if (!informer) {
        return;
    }

    m_batcher = new NotificationBatcher(NotificationBatcher::Mode::Coalesce, this);
    connect(m_batcher, &NotificationBatcher::notificationsReady, this, &ResourceTableModel::receiveBatch);
    m_informerConnections.append(connect(informer, &SharedIndexInformer::listProgress, this, [this](qint64 itemsSoFar, qint64 remaining) {
        m_itemsSoFar = itemsSoFar;
        m_remaining = remaining;
        Q_EMIT progressChanged(itemsSoFar, remaining);
    }));
    m_informerConnections.append(connect(informer, &SharedIndexInformer::synced, this, &ResourceTableModel::checkSynced));
    m_informerConnections.append(connect(informer, &SharedIndexInformer::reflectorStateChanged, this, &ResourceTableModel::onReflectorStateChanged));
    m_registration = informer->addEventHandler(m_batcher->handler());
    checkSynced();
}

void ResourceTableModel::onReflectorStateChanged(Reflector::State)
{
    if (!m_informer) {
        return;
    }
    // The change arrives queued from the network thread: go by what the reflector says now.
    const Reflector::Status status = m_informer->counters().reflector;
    if (status.state == Reflector::State::Watching) {
        if (m_problem.isError()) {
            m_problem = {};
            m_retryAtMs = 0;
            Q_EMIT problemChanged();
        }
        return;
    }
    if (status.state == Reflector::State::BackingOff && status.lastError.isError()) {
        m_problem = status.lastError;
        m_retryAtMs = status.retryAtMs;
        Q_EMIT problemChanged();
    } else if (m_problem.isError() && m_retryAtMs != 0) {
        m_retryAtMs = 0; // trying again now
        Q_EMIT problemChanged();
    }
}

void ResourceTableModel::setColumns(const ResourceColumns &columns)
{
    beginResetModel();
    m_columns = columns;
    ++m_cellReturn->generation;
    m_ageColumn = m_columns.indexOf(ResourceColumns::Field::Age);
    if (m_ageColumn < 0) {
        m_ageColumn = m_columns.indexOf(ResourceColumns::Field::EventLastSeen);
    }
    for (const Row &row : m_rows) {
        row.cells.reset();
    }
    endResetModel();
}

void ResourceTableModel::setAgeTickInterval(std::chrono::milliseconds interval)
{
    if (interval.count() <= 0) {
        m_ageTick.stop();
        return;
    }
    m_ageTick.start(interval);
}

void ResourceTableModel::checkSynced()
{
    if (m_synced || !m_informer || !m_informer->hasSynced()) {
        return;
    }
    if (!m_registration.hasSynced()) {
        if (!m_syncCheck.isActive()) {
            m_syncCheck.start();
        }
        return;
    }
    m_syncCheck.stop();
    // Every initial add has reached the batcher: take them now, so that "synced" means the rows
    // are all there. What waits in the backlog is applied a slice at a time first: applySlice()
    // asks again once it is empty.
    if (m_batcher) {
        m_batcher->flush();
    }
    if (m_synced || !m_backlog.empty()) {
        return;
    }
    m_synced = true;
    Q_EMIT syncedChanged(true);
}

void ResourceTableModel::flushPending()
{
    if (m_batcher) {
        m_batcher->flush();
    }
    m_nextSlice.stop();
    while (!m_backlog.empty()) {
        applyBatch(takeFromBacklog(std::numeric_limits<qsizetype>::max()));
    }
    if (!m_synced) {
        checkSynced();
    }
}

QList<Notification> ResourceTableModel::takeFromBacklog(qsizetype most)
{
    // Taken out before it is applied: a reaction to its signals may reset the model (another
    // informer), which empties the backlog.
    QList<Notification> &front = m_backlog.front();
    const qsizetype count = std::min(most, front.size() - m_backlogOffset);
    const bool rest = m_backlogOffset + count == front.size();
    QList<Notification> taken = m_backlogOffset == 0 && rest ? std::move(front) : front.mid(m_backlogOffset, count);
    if (rest) {
        m_backlog.pop_front();
        m_backlogOffset = 0;
    } else {
        m_backlogOffset += count;
    }
    return taken;
}

qsizetype ResourceTableModel::backlog() const
{
    qsizetype count = -m_backlogOffset;
    for (const QList<Notification> &batch : m_backlog) {
        count += batch.size();
    }
    return count;
}

void ResourceTableModel::receiveBatch(const QList<Notification> &batch)
{
    m_backlog.push_back(batch);
    // A burst larger than the table (a first list, a relist) gets its room at once: the rows
    // and the key index would otherwise double, and rehash or move, several times over it,
    // each time in one slice (the key index of a million rows: ~100 ms).
    if (const qsizetype waiting = backlog(); waiting > rowCount()) {
        m_rows.reserve(m_rows.size() + size_t(waiting));
        m_rowOfKey.reserve(m_rowOfKey.size() + waiting);
    }
    if (!m_nextSlice.isActive()) {
        applySlice();
    }
}

void ResourceTableModel::applySlice()
{
    if (m_backlog.empty()) {
        return;
    }
    const QList<Notification> slice = takeFromBacklog(m_sliceSize);
    const qsizetype count = slice.size();
    QElapsedTimer took;
    took.start();
    applyBatch(slice);
    const qint64 ns = std::max<qint64>(1, took.nsecsElapsed());
    // The next slice: what would have taken the budget at this slice's pace (the proxy's merge
    // included: it runs in batchApplied()), at most twice this one. Not below a 256th of the
    // rows: at a million, the proxy's pass over its rows costs milliseconds whatever the slice.
    if (count == m_sliceSize || ns > SliceBudget.count()) {
        const qsizetype paced = qsizetype(double(count) * double(SliceBudget.count()) / double(ns));
        const qsizetype least = std::max<qsizetype>(MinSlice, rowCount() / 256);
        m_sliceSize = std::clamp(paced, least, std::max(least, std::min(MaxSlice, 2 * count)));
    }
    if (!m_backlog.empty()) {
        m_nextSlice.start();
    } else if (!m_synced) {
        checkSynced();
    }
}

void ResourceTableModel::emitChangedRuns(QList<int> &rows)
{
    if (rows.isEmpty()) {
        return;
    }
    std::sort(rows.begin(), rows.end());
    const int lastColumn = columnCount() - 1;
    int first = rows.front();
    int previous = first;
    for (qsizetype i = 1; i <= rows.size(); ++i) {
        if (i < rows.size() && rows.at(i) <= previous + 1) {
            previous = rows.at(i);
            continue;
        }
        Q_EMIT dataChanged(index(first, 0), index(previous, lastColumn));
        if (i < rows.size()) {
            first = previous = rows.at(i);
        }
    }
}

void ResourceTableModel::applyBatch(const QList<Notification> &batch)
{
    Q_ASSERT(thread() == QThread::currentThread());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Q_EMIT batchAboutToBeApplied();

    // 1. Deletions: the table shrinks by the number of deleted rows. Deleted rows inside the new
    // size are holes, filled by the surviving rows of the tail; the tail is then removed as one
    // range. Filled holes get their new content by copy, so that the tail still reads the same
    // until it is removed (a sorting proxy compares against it meanwhile).
    QList<int> removed;
    for (const Notification &notification : batch) {
        if (notification.type == Notification::Type::Delete) {
            const auto it = m_rowOfKey.constFind(notification.key);
            if (it != m_rowOfKey.cend()) {
                removed.append(*it);
            }
        }
    }
    if (!removed.isEmpty()) {
        std::sort(removed.begin(), removed.end());
        const int oldCount = int(m_rows.size());
        const int newCount = oldCount - int(removed.size());
        std::vector<bool> isRemovedInTail(size_t(oldCount - newCount), false);
        QList<int> holes;
        for (const int row : std::as_const(removed)) {
            m_rowOfKey.remove(m_rows[size_t(row)].key);
            if (row < newCount) {
                holes.append(row);
            } else {
                isRemovedInTail[size_t(row - newCount)] = true;
            }
        }
        qsizetype hole = 0;
        for (int row = newCount; row < oldCount && hole < holes.size(); ++row) {
            if (isRemovedInTail[size_t(row - newCount)]) {
                continue;
            }
            const int target = holes.at(hole++);
            m_rows[size_t(target)] = m_rows[size_t(row)];
            m_rowOfKey.insert(m_rows[size_t(target)].key, target);
        }
        emitChangedRuns(holes);
        beginRemoveRows({}, newCount, oldCount - 1);
        m_rows.resize(size_t(newCount));
        endRemoveRows();
    }

    // 2. Changes of rows present; 3. new keys, appended as one range.
    QList<int> changed;
    QList<const Notification *> added;
    for (const Notification &notification : batch) {
        if (notification.type == Notification::Type::Delete) {
            continue;
        }
        const auto it = m_rowOfKey.constFind(notification.key);
        if (it == m_rowOfKey.cend()) {
            added.append(&notification);
            continue;
        }
        Row &row = m_rows[size_t(*it)];
        row.object = notification.object;
        row.cells.reset();
        row.createdMs = Unset;
        // A synthetic add for an object the table already shows (a handler re-registered) is
        // no change a user should see flash.
        if (!(notification.type == Notification::Type::Add && notification.isInInitialList)) {
            row.changedAt = now;
        }
        changed.append(*it);
    }
    emitChangedRuns(changed);
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        for (const Notification *notification : std::as_const(added)) {
            Row row;
            row.key = notification->key;
            row.object = notification->object;
            row.changedAt = notification->isInInitialList ? 0 : now;
            m_rowOfKey.insert(row.key, int(m_rows.size()));
            m_rows.push_back(std::move(row));
        }
        endInsertRows();
    }
    Q_EMIT batchApplied(int(added.size()), int(changed.size()), int(removed.size()));
}

void ResourceTableModel::tickAges()
{
    if (m_ageColumn < 0 || m_rows.empty()) {
        return;
    }
    Q_EMIT dataChanged(index(0, int(m_ageColumn)), index(rowCount() - 1, int(m_ageColumn)), {Qt::DisplayRole});
}

int ResourceTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResourceTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.count());
}

int ResourceTableModel::rowOfKey(const QString &key) const
{
    return m_rowOfKey.value(key, -1);
}

const KubeObject &ResourceTableModel::objectAt(int row) const
{
    if (row < 0 || row >= rowCount()) {
        static const KubeObject invalid;
        return invalid;
    }
    return m_rows[size_t(row)].object;
}

const QVariant &ResourceTableModel::cachedCell(const Row &row, int column) const
{
    if (!row.cells) {
        row.cells = std::make_shared<const QList<QVariant>>(m_columns.values(row.object));
    }
    return row.cells->at(column);
}

qsizetype ResourceTableModel::cellsMissing() const
{
    if (!m_columns.anyNeedsDocument()) {
        return 0;
    }
    return std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Row &row) { return !row.cells; });
}

bool ResourceTableModel::prepareCells(qsizetype affordable)
{
    Q_ASSERT(thread() == QThread::currentThread());
    if (m_preparingCells) {
        return true;
    }
    if (!m_columns.anyNeedsDocument()) {
        return false;
    }
    auto work = std::make_shared<CellWork>();
    for (size_t row = 0; row < m_rows.size(); ++row) {
        if (!m_rows[row].cells) {
            work->rows.push_back(int(row));
        }
    }
    if (qsizetype(work->rows.size()) <= affordable) {
        return false;
    }
    work->columns = m_columns;
    work->generation = m_cellReturn->generation;
    work->objects.reserve(work->rows.size());
    for (const int row : work->rows) {
        work->objects.push_back(m_rows[size_t(row)].object);
    }
    work->cells.resize(work->objects.size());
    QThreadPool *pool = backgroundPool();
    const size_t tasks = size_t(std::max(1, pool->maxThreadCount()));
    const size_t slice = (work->objects.size() + tasks - 1) / tasks;
    work->tasksLeft = int((work->objects.size() + slice - 1) / slice);
    m_preparingCells = true;
    for (size_t begin = 0; begin < work->objects.size(); begin += slice) {
        const size_t end = std::min(work->objects.size(), begin + slice);
        pool->start([work, begin, end, back = m_cellReturn] {
            for (size_t i = begin; i < end && back->generation == work->generation; ++i) {
                work->cells[i] = std::make_shared<const QList<QVariant>>(work->columns.values(work->objects[i]));
            }
            if (--work->tasksLeft > 0) {
                return;
            }
            // Posted while the model is known to live; a model deleted before the event is
            // delivered takes the event with it.
            const std::lock_guard lock(back->mutex);
            if (back->model) {
                QMetaObject::invokeMethod(
                    back->model, [model = back->model, work] { model->takeCells(*work); }, Qt::QueuedConnection);
            }
        });
    }
    return true;
}

void ResourceTableModel::takeCells(const CellWork &work)
{
    m_preparingCells = false;
    if (work.generation == m_cellReturn->generation) {
        for (size_t i = 0; i < work.rows.size(); ++i) {
            const size_t row = size_t(work.rows[i]);
            // The row may hold another object now (changed, or moved into a deleted row's place).
            if (work.cells[i] && row < m_rows.size() && !m_rows[row].cells && m_rows[row].object == work.objects[i]) {
                m_rows[row].cells = work.cells[i];
            }
        }
    }
    Q_EMIT cellsPrepared();
}

QVariant ResourceTableModel::cell(const Row &row, int column) const
{
    // Cells of extracted fields cost nothing to compute; only the others are parsed and cached.
    if (!m_columns.needsDocument(column)) {
        return m_columns.value(column, row.object, QJsonObject());
    }
    return cachedCell(row, column);
}

QVariant ResourceTableModel::sortValue(int row, int column) const
{
    return cell(m_rows[size_t(row)], column);
}

namespace {

template<typename T>
int threeWay(const T &a, const T &b)
{
    return a < b ? -1 : (b < a ? 1 : 0);
}

int compareText(const QString &a, const QString &b)
{
    // Missing (empty) values first; Kubernetes names are lower case, so a plain comparison
    // orders them as a user expects and costs far less than a case-folding one.
    return QString::compare(a, b, Qt::CaseSensitive);
}

int compareVariants(const QVariant &a, const QVariant &b)
{
    if (!a.isValid() || !b.isValid()) {
        return int(a.isValid()) - int(b.isValid());
    }
    const int type = a.typeId();
    if (type == b.typeId()) {
        switch (type) {
        case QMetaType::LongLong:
            return threeWay(*static_cast<const qint64 *>(a.constData()), *static_cast<const qint64 *>(b.constData()));
        case QMetaType::Double:
            return threeWay(*static_cast<const double *>(a.constData()), *static_cast<const double *>(b.constData()));
        case QMetaType::Bool:
            return threeWay(*static_cast<const bool *>(a.constData()), *static_cast<const bool *>(b.constData()));
        case QMetaType::QString:
            // Values of printer columns may be in any case.
            return QString::compare(*static_cast<const QString *>(a.constData()), *static_cast<const QString *>(b.constData()), Qt::CaseInsensitive);
        default:
            break;
        }
    }
    const QPartialOrdering order = QVariant::compare(a, b);
    return order == QPartialOrdering::Less ? -1 : order == QPartialOrdering::Greater ? 1 : 0;
}

} // namespace

qint64 ResourceTableModel::createdMs(const Row &row)
{
    if (row.createdMs == Unset) {
        const QDateTime created = row.object.creationTimestamp();
        row.createdMs = created.isValid() ? created.toMSecsSinceEpoch() : std::numeric_limits<qint64>::max(); // missing sorts first
    }
    return row.createdMs;
}

int ResourceTableModel::compareRows(int left, int right, int column) const
{
    const Row &a = m_rows[size_t(left)];
    const Row &b = m_rows[size_t(right)];
    int order = 0;
    switch (m_columns.column(column).field) {
    case ResourceColumns::Field::Name:
        order = compareText(a.object.name(), b.object.name());
        break;
    case ResourceColumns::Field::Namespace:
        order = compareText(a.object.namespaceName(), b.object.namespaceName());
        break;
    case ResourceColumns::Field::Node:
        order = compareText(a.object.nodeName(), b.object.nodeName());
        break;
    case ResourceColumns::Field::Age:
        // Younger first, as the cells' values (the negated creation time) sort.
        order = threeWay(createdMs(b), createdMs(a));
        break;
    default:
        order =
            m_columns.needsDocument(column) ? compareVariants(cachedCell(a, column), cachedCell(b, column)) : compareVariants(cell(a, column), cell(b, column));
        break;
    }
    // Ties keep a stable, meaningful order: by key (namespace/name).
    return order != 0 ? order : compareText(a.key, b.key);
}

quint64 ResourceTableModel::textPrefix(QStringView text, qsizetype offset)
{
    // One byte per character, shifted up by one so that 0 is the end of the text (shorter
    // sorts first); 0xFF stands for every character from U+00FE up, and ends the prefix: what
    // follows it can no longer be told apart.
    quint64 prefix = 0;
    const qsizetype end = std::min(text.size(), offset + 8);
    int shift = 56;
    for (qsizetype i = offset; i < end; ++i, shift -= 8) {
        const char16_t c = text.at(i).unicode();
        if (c >= 0xFE) {
            prefix |= quint64(0xFF) << shift;
            break;
        }
        prefix |= quint64(c + 1) << shift;
    }
    return prefix;
}

ResourceTableModel::PrefixWord ResourceTableModel::prefixWord(quint64 word)
{
    for (int shift = 56; shift >= 0; shift -= 8) {
        const quint64 byte = (word >> shift) & 0xFF;
        if (byte == 0xFF) {
            return PrefixWord::Inexact;
        }
        if (byte == 0) {
            return PrefixWord::Ended;
        }
    }
    return PrefixWord::Whole;
}

ResourceTableModel::PackedText ResourceTableModel::packText(QStringView text)
{
    PackedText words = {};
    for (qsizetype word = 0; word < PackedWords; ++word) {
        words[size_t(word)] = textPrefix(text, 8 * word);
        if (prefixWord(words[size_t(word)]) != PrefixWord::Whole) {
            break;
        }
    }
    return words;
}

quint64 ResourceTableModel::orderedBits(double number)
{
    if (number == 0) {
        number = 0; // -0 equals +0
    }
    quint64 bits = 0;
    static_assert(sizeof(bits) == sizeof(number));
    std::memcpy(&bits, &number, sizeof(bits));
    // Negative numbers: all bits flipped (a larger magnitude is smaller); others: the sign set.
    return (bits & (quint64(1) << 63)) ? ~bits : bits | (quint64(1) << 63);
}

ResourceTableModel::SortKey ResourceTableModel::sortKey(int row, int column) const
{
    SortKey key;
    refreshSortKey(key, row, column);
    return key;
}

void ResourceTableModel::refreshSortKey(SortKey &key, int row, int column) const
{
    const Row &r = m_rows[size_t(row)];
    if (!key.key.isSharedWith(r.key)) {
        key.key = r.key;
        key.keyPrefix = packText(r.key);
    }
    const auto text = [&key](const QString &value) {
        key.kind = SortKey::Kind::Text;
        key.number = 0;
        // Two null strings count as shared: a null value (a missing field, or the null text a
        // number's key holds) packs again, or a number's bits would stay as the text's prefix.
        if (!key.text.isSharedWith(value) || value.isNull()) {
            key.text = value;
            key.prefix = packText(value);
        }
    };
    const auto number = [&key](double value) {
        key.kind = SortKey::Kind::Number;
        key.number = value;
        key.text = QString();
        key.prefix = {orderedBits(value)};
    };
    switch (m_columns.column(column).field) {
    case ResourceColumns::Field::Name:
        text(r.object.name());
        return;
    case ResourceColumns::Field::Namespace:
        text(r.object.namespaceName());
        return;
    case ResourceColumns::Field::Node:
        text(r.object.nodeName());
        return;
    case ResourceColumns::Field::Age:
        number(-double(createdMs(r)));
        return;
    default:
        break;
    }
    const QVariant value = m_columns.needsDocument(column) ? cachedCell(r, column) : cell(r, column);
    switch (value.typeId()) {
    case QMetaType::UnknownType:
        key.kind = SortKey::Kind::Missing;
        key.number = 0;
        key.text = QString();
        key.prefix = {};
        return;
    case QMetaType::QString:
        // compareVariants() compares strings ignoring case: fold once here instead.
        text(value.toString().toCaseFolded());
        return;
    case QMetaType::LongLong:
    case QMetaType::Int:
    case QMetaType::Double:
    case QMetaType::Bool:
        number(value.toDouble());
        return;
    default:
        text(value.toString());
        return;
    }
}

int ResourceTableModel::compareSortKeys(const SortKey &a, const SortKey &b)
{
    int order = 0;
    if (a.kind == SortKey::Kind::Missing || b.kind == SortKey::Kind::Missing) {
        order = int(a.kind != SortKey::Kind::Missing) - int(b.kind != SortKey::Kind::Missing);
    } else if (a.kind == SortKey::Kind::Number && b.kind == SortKey::Kind::Number) {
        order = threeWay(a.number, b.number);
    } else if (a.kind == SortKey::Kind::Text && b.kind == SortKey::Kind::Text) {
        // Words after the first that differs, or that ends or stops the packing, are 0 or
        // never reached: equal words leave the texts to compare only past their 32 characters.
        order = threeWay(a.prefix, b.prefix);
        if (order == 0) {
            order = QString::compare(a.text, b.text, Qt::CaseSensitive);
        }
    }
    if (order != 0) {
        return order;
    }
    // A number and a text do not compare (as QVariant::compare says): the keys decide.
    // Words after one that differs, or that ends or stops the packing, are 0 or never reached.
    order = threeWay(a.keyPrefix, b.keyPrefix);
    return order != 0 ? order : compareText(a.key, b.key);
}

QVariant ResourceTableModel::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const Row &row = m_rows[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return m_columns.displayText(index.column(), cell(row, index.column()), QDateTime::currentDateTimeUtc());
    case Qt::ToolTipRole:
        if (m_columns.column(index.column()).type == ResourceColumns::Type::Age) {
            const QVariant value = cell(row, index.column());
            return value.isValid() ? QVariant(QDateTime::fromMSecsSinceEpoch(-value.toLongLong(), Qt::UTC).toString(Qt::ISODate)) : QVariant();
        }
        return {};
    case Qt::TextAlignmentRole: {
        const ResourceColumns::Type type = m_columns.column(index.column()).type;
        if (type == ResourceColumns::Type::Integer || type == ResourceColumns::Type::Number) {
            return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        }
        return {};
    }
    case ResourceTableRoles::ObjectRole:
        return QVariant::fromValue(row.object);
    case ResourceTableRoles::KeyRole:
        return row.key;
    case ResourceTableRoles::NameRole:
        return row.object.name();
    case ResourceTableRoles::NamespaceRole:
        return row.object.namespaceName();
    case ResourceTableRoles::ResourceVersionRole:
        return row.object.resourceVersion();
    case ResourceTableRoles::LabelsRole: {
        QVariantMap labels;
        const QList<KubeObject::Label> list = row.object.labels();
        for (const auto &[key, value] : list) {
            labels.insert(key, value);
        }
        return labels;
    }
    case ResourceTableRoles::ChangedAtRole:
        return row.changedAt;
    case ResourceTableRoles::SortRole:
        return cell(row, index.column());
    default:
        return {};
    }
}

QVariant ResourceTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const ResourceColumns::Column &column = m_columns.column(section);
    switch (role) {
    case Qt::DisplayRole:
        return QCoreApplication::translate("ResourceColumns", column.title.toUtf8().constData());
    case Qt::ToolTipRole:
        return column.description.isEmpty() ? QVariant() : QVariant(column.description);
    default:
        return {};
    }
}

QHash<int, QByteArray> ResourceTableModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractTableModel::roleNames();
    names.insert(ResourceTableRoles::ObjectRole, "object");
    names.insert(ResourceTableRoles::KeyRole, "key");
    names.insert(ResourceTableRoles::NameRole, "name");
    names.insert(ResourceTableRoles::NamespaceRole, "namespace");
    names.insert(ResourceTableRoles::ResourceVersionRole, "resourceVersion");
    names.insert(ResourceTableRoles::LabelsRole, "labels");
    names.insert(ResourceTableRoles::ChangedAtRole, "changedAt");
    names.insert(ResourceTableRoles::SortRole, "sortValue");
    return names;
}

} // namespace Cachescope
