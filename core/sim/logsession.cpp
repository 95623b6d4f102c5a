#include "core/sim/logsession.h"

#include "core/sim/httpexchange.h"

#include <QDateTime>
#include <QTimer>

namespace Cachescope::Sim {

LogSession::LogSession(HttpExchange *exchange, const LogCursor &cursor, QObject *parent)
    : QObject(parent)
    , m_exchange(exchange)
    , m_cursor(cursor)
    , m_nextLine(new QTimer(this))
{
    m_nextLine->setSingleShot(true);
    connect(m_nextLine, &QTimer::timeout, this, &LogSession::flush);
    connect(exchange, &HttpExchange::closed, this, &LogSession::close);
}

LogSession::~LogSession() = default;

void LogSession::start()
{
    if (!m_exchange)
        return;
    m_exchange->beginChunked(200, "text/plain");
    connect(m_exchange, &HttpExchange::writable, this, &LogSession::flush);
    flush();
}

void LogSession::flush()
{
    // Pieces of 64 KiB until a megabyte waits for the reader: a long backlog goes out as the
    // reader drains it, never all at once into memory.
    constexpr qint64 Piece = 64 * 1024;
    constexpr qint64 HighWater = 1024 * 1024;
    const ContainerLogGenerator &generator = m_cursor.generator;
    while (!m_finished && m_exchange && m_exchange->pendingBytes() < HighWater) {
        const QByteArray piece = m_cursor.read(generator.lineCountAt(QDateTime::currentMSecsSinceEpoch()), Piece);
        if (piece.isEmpty())
            break;
        m_exchange->writeChunk(piece);
    }
    if (m_finished || !m_exchange)
        return;
    if (m_cursor.isExhausted() || (generator.isTerminated() && m_cursor.next >= generator.lineCountAt(generator.instance().endMs))) {
        end();
        return;
    }
    if (m_exchange->pendingBytes() < HighWater) {
        const qint64 wait = generator.timeOf(m_cursor.next) - QDateTime::currentMSecsSinceEpoch();
        m_nextLine->start(int(qBound(qint64(0), wait, qint64(60 * 60 * 1000))));
    }
}

void LogSession::end()
{
    if (m_finished)
        return;
    m_finished = true;
    m_nextLine->stop();
    if (m_exchange)
        m_exchange->endChunked();
    Q_EMIT finished(this);
    deleteLater();
}

void LogSession::close()
{
    if (m_finished)
        return;
    m_finished = true;
    m_nextLine->stop();
    Q_EMIT finished(this);
    deleteLater();
}

} // namespace Cachescope::Sim
