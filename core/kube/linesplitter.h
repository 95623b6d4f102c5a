#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QStringList>

#include <optional>

namespace Cachescope {

// LineSplitter cuts a byte stream that arrives in arbitrary pieces into lines at '\n': feed()
// returns the lines the piece completes (without their newline) and keeps the start of a line
// whose end has not arrived; finish() returns that rest, if any, once the stream is over. Lines
// are decoded from UTF-8 only when whole, so a character split between two pieces is never
// mangled. Memory is one unfinished line. A value type; not thread-safe.
class LineSplitter
{
public:
    [[nodiscard]] QStringList feed(QByteArrayView bytes);
    [[nodiscard]] std::optional<QString> finish();
    [[nodiscard]] qsizetype pendingBytes() const { return m_partial.size(); }

private:
    QByteArray m_partial;
};

} // namespace Cachescope
