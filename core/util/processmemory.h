#pragma once

#include <QtGlobal>

namespace Cachescope {

// This process's memory as the system and as malloc see it (Linux; 0 or false elsewhere).

// residentBytes() is the resident set now (/proc/self/statm).
qint64 residentBytes();

// heapInUseBytes() is what malloc has handed out and not had back, in every arena, with the
// blocks it mapped on their own (glibc's mallinfo2()): the live heap. Resident memory above it is
// code, stacks, mapped files and freed pages malloc keeps.
// Cost: a walk over every free chunk of every arena, each arena locked while it is walked: a
// second or more for a heap of gigabytes, during which other threads' mallocs in that arena
// wait. Sample it sparingly (bench_scale waits 50 times a sample's length before the next).
qint64 heapInUseBytes();

// releaseFreedHeap() gives the system back the pages malloc holds free, in every arena and in
// the middle of a heap as well as at its top (glibc's malloc_trim(0)). glibc keeps what a
// process frees for reuse: after a relist has freed the old objects and the list's buffers, the
// resident size stays at the list's peak, and a client relisting after every apiserver restart
// ratchets it up a little each time, while the heap in use stays flat.
// Cost: a walk over every arena's free chunks, each arena locked while it is walked (milliseconds
// for a heap of a few hundred MB): call it off the GUI thread, after large frees, never on a hot
// path. Returns whether anything was released.
bool releaseFreedHeap();

} // namespace Cachescope
