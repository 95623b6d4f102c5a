#include "ui/widgets/logsourcehighlighter.h"

#include <QTextCharFormat>

#include <cmath>

namespace Cachescope {

LogSourceHighlighter::LogSourceHighlighter(QObject *parent)
    : QSyntaxHighlighter(parent)
{
}

LogSourceHighlighter::~LogSourceHighlighter() = default;

QColor LogSourceHighlighter::colorOf(const QString &pod)
{
    auto it = m_colors.find(pod);
    if (it == m_colors.end())
        it = m_colors.insert(pod, int(m_colors.size()));
    // 137.5°, the golden angle: each new hue lands in the widest gap the others left.
    const int hue = int(std::fmod(it.value() * 137.508, 360.0));
    return QColor::fromHsl(hue, 170, m_dark ? 170 : 90);
}

void LogSourceHighlighter::setDark(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    rehighlight();
}

void LogSourceHighlighter::highlightBlock(const QString &text)
{
    const qsizetype space = text.indexOf(u' ');
    const qsizetype slash = text.indexOf(u'/');
    if (space <= 0 || slash <= 0 || slash > space)
        return;
    QTextCharFormat format;
    format.setForeground(colorOf(text.left(slash)));
    setFormat(0, int(space), format);
}

} // namespace Cachescope
