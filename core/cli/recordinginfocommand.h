#pragma once

#include <QString>

class QTextStream;

namespace Cachescope {

// RecordingInfoCommand is `cachescope-cli recording info FILE`: it opens a recording read-only
// and prints its session (cluster, context, server version, start, end — or that the recorder
// did not close it), its informers, its inputs counted per kind, the time range they cover,
// the objects and their bytes, the checkpoints and the file's size. A recording whose recorder
// was killed opens too and shows what it committed. Synchronous; exit code 1 with the reader's
// message when the file cannot be read, and when a query failed part way (a damaged page):
// then what could be read is printed first, and RecordingReader::errorString() on err.
class RecordingInfoCommand
{
public:
    static int run(const QString &file, QTextStream &out, QTextStream &err);
};

} // namespace Cachescope
