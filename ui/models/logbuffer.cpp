#include "ui/models/logbuffer.h"

#include "core/kube/logfollower.h"

#include <QSettings>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString LogBuffer::maxLinesSettingsKey()
{
    return u"logs/maxLines"_s;
}

LogBuffer::LogBuffer(QObject *parent)
    : QAbstractListModel(parent)
{
    const int configured = QSettings().value(maxLinesSettingsKey(), DefaultMaxLines).toInt();
    m_maxLines = configured > 0 ? configured : DefaultMaxLines;
}

LogBuffer::~LogBuffer() = default;

int LogBuffer::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_count);
}

QVariant LogBuffer::data(const QModelIndex &index, int role) const
{
    Q_ASSERT(checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid));
    const Line &line = at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return line.text;
    case TimestampRole:
        return line.timestamp;
    case LineRole:
        return line.timestamp.isEmpty() ? line.text : line.timestamp + u' ' + line.text;
    case SourceRole:
        return line.source;
    default:
        return {};
    }
}

QHash<int, QByteArray> LogBuffer::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(TimestampRole, "timestamp");
    names.insert(LineRole, "line");
    names.insert(SourceRole, "source");
    return names;
}

void LogBuffer::append(const QStringList &lines, bool timestamped)
{
    LogLines parted;
    parted.reserve(lines.size());
    for (const QString &raw : lines) {
        LogLine line;
        if (timestamped) {
            const auto [time, text] = LogFollower::splitTimestamp(raw);
            line.timestamp = time.toString();
            line.text = text.toString();
        } else {
            line.text = raw;
        }
        parted.append(std::move(line));
    }
    append(parted);
}

void LogBuffer::append(const LogLines &lines)
{
    if (lines.isEmpty())
        return;
    // Of a batch larger than the ring only its end is kept; the rest counts as dropped at once.
    const qsizetype skip = qMax<qsizetype>(0, lines.size() - m_maxLines);
    const qsizetype adding = lines.size() - skip;
    const qsizetype overflow = qMax<qsizetype>(0, m_count + adding - m_maxLines);
    if (overflow > 0)
        dropFront(int(overflow));
    m_dropped += skip;
    beginInsertRows({}, int(m_count), int(m_count + adding - 1));
    for (qsizetype i = skip; i < lines.size(); ++i) {
        if (m_ring.size() < m_maxLines) {
            m_ring.append(lines.at(i));
        } else {
            m_ring[(m_start + m_count) % m_ring.size()] = lines.at(i);
        }
        ++m_count;
    }
    endInsertRows();
    if (skip > 0)
        Q_EMIT linesDropped(int(skip));
}

void LogBuffer::dropFront(int count)
{
    count = int(qMin<qsizetype>(count, m_count));
    if (count <= 0)
        return;
    beginRemoveRows({}, 0, count - 1);
    if (m_ring.size() < m_maxLines) {
        // Not yet a circle: the list is the rows from its start, and stays so.
        m_ring.remove(0, count);
        m_start = 0;
    } else {
        for (int i = 0; i < count; ++i)
            m_ring[(m_start + i) % m_ring.size()] = {};
        m_start = (m_start + count) % m_ring.size();
    }
    m_count -= count;
    m_dropped += count;
    endRemoveRows();
    Q_EMIT linesDropped(count);
}

void LogBuffer::clear()
{
    beginResetModel();
    m_ring.clear();
    m_start = 0;
    m_count = 0;
    m_dropped = 0;
    endResetModel();
}

void LogBuffer::setMaxLines(int maxLines)
{
    maxLines = qMax(1, maxLines);
    if (maxLines == m_maxLines)
        return;
    if (m_count > maxLines)
        dropFront(int(m_count - maxLines));
    // Compact the ring to its new size, oldest first.
    QList<Line> compacted;
    compacted.reserve(m_count);
    for (qsizetype i = 0; i < m_count; ++i)
        compacted.append(at(int(i)));
    m_ring = std::move(compacted);
    m_start = 0;
    m_maxLines = maxLines;
}

QString LogBuffer::text(int row) const
{
    return at(row).text;
}

QString LogBuffer::timestamp(int row) const
{
    return at(row).timestamp;
}

QString LogBuffer::source(int row) const
{
    return at(row).source;
}

QString LogBuffer::line(int row, bool withTimestamp) const
{
    const Line &l = at(row);
    const QString shown = withTimestamp && !l.timestamp.isEmpty() ? l.timestamp + u' ' + l.text : l.text;
    return l.source.isEmpty() ? shown : l.source + u' ' + shown;
}

QList<int> LogBuffer::matches(const QString &needle, Qt::CaseSensitivity cs) const
{
    QList<int> rows;
    if (needle.isEmpty())
        return rows;
    for (qsizetype i = 0; i < m_count; ++i) {
        if (at(int(i)).text.contains(needle, cs))
            rows.append(int(i));
    }
    return rows;
}

} // namespace Cachescope
