// core/util/processmemory: the heap in use follows what is allocated and freed, and
// releaseFreedHeap() gives back pages freed under a live block, which glibc keeps resident after
// free(). Under AddressSanitizer malloc is ASan's, which keeps freed memory in its quarantine
// whatever glibc is told: the test says so and is skipped there.
#include "core/util/processmemory.h"

#include "testmain.h"

#include <QTest>

#include <cstdlib>
#include <vector>

using namespace Cachescope;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool UnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool UnderAddressSanitizer = true;
#else
constexpr bool UnderAddressSanitizer = false;
#endif
#else
constexpr bool UnderAddressSanitizer = false;
#endif

} // namespace

class TestProcessMemory : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void releasesPagesFreedUnderLiveOnes()
    {
        if (UnderAddressSanitizer) {
            QSKIP("ASan's allocator keeps freed memory in its quarantine; glibc's malloc is not in use");
        }
        // 128 MiB in blocks below the mmap threshold, so they come from the heap, written so
        // that they are resident; then one block after them, so the heap's top stays in use and
        // free() cannot shrink it.
        constexpr std::size_t Block = 4096;
        constexpr std::size_t Blocks = 128 * 1024 * 1024 / Block;
        std::vector<char *> blocks;
        blocks.reserve(Blocks);
        for (std::size_t i = 0; i < Blocks; ++i) {
            auto *block = static_cast<char *>(std::malloc(Block));
            QVERIFY(block != nullptr);
            for (std::size_t offset = 0; offset < Block; offset += 512) {
                block[offset] = char(i);
            }
            blocks.push_back(block);
        }
        qInfo("resident with the blocks %lld MB", residentBytes() / 1000000);
        void *pin = std::malloc(Block);
        QVERIFY(pin != nullptr);
        const qint64 heapWithBlocks = heapInUseBytes();
        for (char *block : blocks) {
            std::free(block);
        }
        QVERIFY2(heapWithBlocks - heapInUseBytes() >= qint64(Blocks * Block), "the heap in use did not shrink by what was freed");
        const qint64 afterFree = residentBytes();
        QVERIFY(afterFree > 0);
        const bool released = releaseFreedHeap();
        const qint64 afterRelease = residentBytes();
        qInfo("resident after free() %lld MB, after releaseFreedHeap() %lld MB", afterFree / 1000000, afterRelease / 1000000);
        QVERIFY(released);
        QVERIFY2(afterFree - afterRelease >= 96 * 1024 * 1024, "less than 96 of the 128 MiB freed were released");
        std::free(pin);
    }
};

CACHESCOPE_TEST_GUILESS_MAIN(TestProcessMemory)
#include "tst_processmemory.moc"
