#pragma once

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

} // namespace Cachescope
