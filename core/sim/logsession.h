#pragma once

#include "core/sim/logcursor.h"

#include <QObject>
#include <QPointer>

class QTimer;

namespace Cachescope::Sim {

class HttpExchange;

// LogSession is one `follow=true` log response in progress: a chunked text/plain stream (a DATA
// stream over HTTP/2) that first sends what the cursor starts at, as the reader drains it, then
// each new line at the moment the generator writes it: a timer waits for exactly the next
// line's time, so an idle follow costs nothing. It ends cleanly when limitBytes is reached, when
// a terminated instance has nothing more, or when end() is called (the pod was deleted, its
// container restarted); closed by the client, it just goes.
//
// Thread: server thread. A child of LogHandler; deletes itself after finished().
class LogSession final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogSession)
public:
    LogSession(HttpExchange *exchange, const LogCursor &cursor, QObject *parent = nullptr);
    ~LogSession() override;

    // Sends the response head and what is already there.
    void start();
    // Ends the stream cleanly (the terminating chunk, or END_STREAM over HTTP/2).
    void end();

Q_SIGNALS:
    void finished(Cachescope::Sim::LogSession *session);

private:
    void flush();
    void close();

    QPointer<HttpExchange> m_exchange;
    LogCursor m_cursor;
    QTimer *m_nextLine = nullptr; // owned (child)
    bool m_finished = false;
};

} // namespace Cachescope::Sim
