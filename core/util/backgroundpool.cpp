#include "core/util/backgroundpool.h"

#include <QThreadPool>

namespace Cachescope {

QThreadPool *backgroundPool()
{
    static QThreadPool pool;
    return &pool;
}

} // namespace Cachescope
