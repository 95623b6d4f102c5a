#pragma once

#include "core/kube/logline.h"

#include <QAbstractListModel>
#include <QList>
#include <QString>

namespace Cachescope {

// LogBuffer is the lines a log view holds: a ring of at most maxLines() lines (default 10 000,
// the QSettings key "logs/maxLines"), the oldest dropped as new ones arrive, counted in
// droppedCount() so the view can say what it no longer shows. One row per line; a line keeps its
// kubelet timestamp apart from its text (DisplayRole is the text, TimestampRole the time), and,
// in a workload's merged view, the "pod/container" it came from (SourceRole).
// append() takes a batch and tells the model's users once per batch (a removal of the dropped
// rows, an insertion of the new ones), never once per line. Memory: the lines' text, no more.
// Lives on the GUI thread; never makes requests.
class LogBuffer final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogBuffer)

public:
    enum Role {
        TimestampRole = Qt::UserRole + 1, // the line's RFC 3339 time as the kubelet wrote it (QString; empty if none)
        LineRole, // the line as received, "TIMESTAMP TEXT" (QString)
        SourceRole, // where it came from, "pod/container" (QString; empty in a single container's view)
    };

    static constexpr int DefaultMaxLines = 10000;
    // The QSettings key of the bound.
    static QString maxLinesSettingsKey();

    explicit LogBuffer(QObject *parent = nullptr);
    ~LogBuffer() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // append() adds lines as LogFollower delivers them ("TIMESTAMP TEXT" when `timestamped`).
    void append(const QStringList &lines, bool timestamped = true);
    // append() adds lines already parted (LogMerger's), with their sources.
    void append(const LogLines &lines);
    void clear();

    [[nodiscard]] int maxLines() const { return m_maxLines; }
    // setMaxLines() bounds the ring (at least 1), dropping the oldest lines beyond it.
    void setMaxLines(int maxLines);

    [[nodiscard]] int lineCount() const { return int(m_count); }
    // droppedCount() is how many lines were dropped from the front since the last clear().
    [[nodiscard]] qint64 droppedCount() const { return m_dropped; }
    [[nodiscard]] QString text(int row) const;
    [[nodiscard]] QString timestamp(int row) const;
    [[nodiscard]] QString source(int row) const;
    // line() is the row as shown: its source (when it has one), its time when `withTimestamp`,
    // then its text.
    [[nodiscard]] QString line(int row, bool withTimestamp) const;

    // matches() are the rows whose text contains `needle`, in order (none for an empty needle).
    [[nodiscard]] QList<int> matches(const QString &needle, Qt::CaseSensitivity cs = Qt::CaseInsensitive) const;

Q_SIGNALS:
    // linesDropped(): `count` lines left the front of the ring (already removed from the model).
    void linesDropped(int count);

private:
    using Line = LogLine;
    const Line &at(int row) const { return m_ring.at((m_start + row) % m_ring.size()); }
    void dropFront(int count);

    QList<Line> m_ring; // grows up to m_maxLines, then is reused in a circle from m_start
    qsizetype m_start = 0;
    qsizetype m_count = 0;
    int m_maxLines = DefaultMaxLines;
    qint64 m_dropped = 0;
};

} // namespace Cachescope
