#pragma once

#include <QtGlobal>

#include <functional>

class QThreadPool;

namespace Cachescope {

// backgroundPool() is the thread pool for the application's own long work off the GUI thread:
// a table's cells parsed for a sort, freed heap given back to the system. One thread per core;
// it lives until the process exits.
// Not QThreadPool::globalInstance(): Qt's raster paint engine splits large fills among the
// global pool's threads and waits for them (a QSemaphore on the GUI thread), so seconds of work
// queued there stall every repaint behind them (seen in bench_explorer: no repaint for the
// 4.7 s that 100k pods' cells took to parse).
QThreadPool *backgroundPool();

// inParallel() calls work(begin, end) over [0, count) in pieces of at most `piece`, on the
// calling thread and on whichever backgroundPool() threads are free meanwhile, and returns once
// every piece is done. A piece is claimed before it is worked on, so the caller never waits for
// a pool thread that had not begun: with the pool busy, the caller does it all. For work that
// must finish before the caller goes on (a sort's keys), memory-bound and split into pieces
// that touch disjoint data; work must not throw.
void inParallel(qsizetype count, qsizetype piece, const std::function<void(qsizetype begin, qsizetype end)> &work);

} // namespace Cachescope
