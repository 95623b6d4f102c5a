#include "core/sim/logcursor.h"

namespace Cachescope::Sim {

QByteArray LogCursor::read(qint64 end, qint64 maxBytes)
{
    QByteArray out;
    while (next < end && bytesLeft != 0 && (out.isEmpty() || out.size() < maxBytes)) {
        QByteArray line = timestamps ? generator.timestampPrefix(next) + generator.line(next) : generator.line(next);
        line += '\n';
        ++next;
        if (bytesLeft >= 0) {
            if (line.size() > bytesLeft)
                line.truncate(bytesLeft);
            bytesLeft -= line.size();
        }
        out += line;
    }
    return out;
}

} // namespace Cachescope::Sim
