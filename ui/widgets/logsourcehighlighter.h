#pragma once

#include <QColor>
#include <QHash>
#include <QSyntaxHighlighter>

namespace Cachescope {

// LogSourceHighlighter colors the "pod/container" that starts each line of a workload's merged
// log, one color per pod, the way stern tells pods apart: colors go round the hue wheel by the
// golden angle in the order pods are first seen (so the first pods differ most), light on a dark
// palette and dark on a light one. Only the prefix is colored; the text keeps the palette's.
// Cost: a hash lookup per block laid out. GUI thread; owned by its parent.
class LogSourceHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogSourceHighlighter)

public:
    explicit LogSourceHighlighter(QObject *parent = nullptr);
    ~LogSourceHighlighter() override;

    // colorOf() is the pod's color, given it now if it has none yet.
    QColor colorOf(const QString &pod);
    // setDark() picks the lightness for a dark background; the colors given keep their hues.
    void setDark(bool dark);
    // clear() forgets the colors given (another workload).
    void clear() { m_colors.clear(); }

protected:
    void highlightBlock(const QString &text) override;

private:
    QHash<QString, int> m_colors; // pod -> its index in the order first seen
    bool m_dark = false;
};

} // namespace Cachescope
