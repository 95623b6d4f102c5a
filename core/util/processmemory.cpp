#include "core/util/processmemory.h"

#include <cstdio>
#include <cstdlib> // defines __GLIBC__ where the C library is glibc
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace Cachescope {

qint64 residentBytes()
{
    std::FILE *statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr) {
        return 0;
    }
    long long size = 0;
    long long resident = 0;
    if (std::fscanf(statm, "%lld %lld", &size, &resident) != 2) {
        resident = 0;
    }
    std::fclose(statm);
    return qint64(resident) * ::sysconf(_SC_PAGESIZE);
}

qint64 heapInUseBytes()
{
#if defined(__GLIBC__)
    const struct mallinfo2 heap = ::mallinfo2();
    return qint64(heap.uordblks + heap.hblkhd);
#else
    return 0;
#endif
}

bool releaseFreedHeap()
{
#if defined(__GLIBC__)
    return ::malloc_trim(0) != 0;
#else
    return false;
#endif
}

} // namespace Cachescope
