#pragma once

#include <QTcpSocket>

namespace CachescopeTest {

// SinkSocket is a socket with no peer that takes every write and drops it, so a server-side
// session (the simulator's Http2Session) fed through its receive() drains completely, with no
// network, in a unit test or a fuzzer.
class SinkSocket final : public QTcpSocket
{
public:
    SinkSocket() { QIODevice::open(QIODevice::ReadWrite | QIODevice::Unbuffered); }

protected:
    qint64 writeData(const char *, qint64 size) override { return size; }
};

} // namespace CachescopeTest
