#include "core/kube/linesplitter.h"

#include <utility>

namespace Cachescope {

QStringList LineSplitter::feed(QByteArrayView bytes)
{
    QStringList lines;
    qsizetype from = 0;
    for (qsizetype newline = bytes.indexOf('\n'); newline >= 0; newline = bytes.indexOf('\n', from)) {
        const QByteArrayView line = bytes.sliced(from, newline - from);
        if (m_partial.isEmpty()) {
            lines.append(QString::fromUtf8(line));
        } else {
            m_partial += line;
            lines.append(QString::fromUtf8(std::exchange(m_partial, {})));
        }
        from = newline + 1;
    }
    m_partial += bytes.sliced(from);
    return lines;
}

std::optional<QString> LineSplitter::finish()
{
    if (m_partial.isEmpty())
        return std::nullopt;
    return QString::fromUtf8(std::exchange(m_partial, {}));
}

} // namespace Cachescope
