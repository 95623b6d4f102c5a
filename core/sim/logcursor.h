#pragma once

#include "core/sim/containerloggenerator.h"

#include <QByteArray>

namespace Cachescope::Sim {

// LogCursor is a position in a container's generated log as one log request reads it: the next
// line to send, whether lines carry the kubelet's timestamp prefix, and what limitBytes leaves
// (the kubelet cuts the stream at the byte, even inside a line). A value type.
struct LogCursor
{
    ContainerLogGenerator generator;
    qint64 next = 0;
    bool timestamps = false;
    qint64 bytesLeft = -1; // -1: no limitBytes

    // The lines from next up to (not including) end, newline-terminated, about maxBytes at most
    // (at least one line), cut at limitBytes; advances next past what it returns.
    [[nodiscard]] QByteArray read(qint64 end, qint64 maxBytes);
    // Whether limitBytes has been reached: nothing more is sent.
    [[nodiscard]] bool isExhausted() const { return bytesLeft == 0; }
};

} // namespace Cachescope::Sim
