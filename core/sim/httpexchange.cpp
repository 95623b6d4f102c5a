#include "core/sim/httpexchange.h"

#include <QTcpSocket>

#include <sys/socket.h>

namespace Cachescope::Sim {

HttpExchange::HttpExchange(QObject *parent)
    : QObject(parent)
{
}

HttpExchange::~HttpExchange() = default;

void HttpExchange::resetTcp(QTcpSocket *socket)
{
    if (!socket || socket->socketDescriptor() < 0)
        return;
    const linger option{1, 0};
    ::setsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_LINGER, &option, sizeof option);
}

} // namespace Cachescope::Sim
