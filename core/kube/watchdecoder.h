#pragma once

#include "core/kube/watchevent.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace Cachescope {

// WatchDecoder turns the bytes of a watch response, in whatever pieces the network delivers
// them, into WatchEvents. Frames are found by JSON object boundaries (brace depth outside
// strings), not by newlines: the apiserver happens to end each event with "\n", but proxies,
// HTTP/2 and other servers need not, and an object may be split anywhere, even inside a UTF-8
// sequence or an escape. Each complete frame is then validated and picked apart by simdjson.
//
// Failure behaviour: a frame that is not valid JSON, lacks a type or object, or has an unknown
// type gives one Malformed event and decoding resumes with the next frame; bytes between frames
// that are not whitespace give one Malformed event per run; a frame larger than the frame size
// limit gives one Malformed event and its remaining bytes are skipped without being buffered.
// finish() reports a truncated last frame. Nothing here throws or crashes on any input.
//
// Cost: linear in the bytes fed; memory bounded by the frame size limit. Not thread-safe; owned
// by one WatchStream on its thread.
class WatchDecoder
{
public:
    static constexpr qsizetype defaultMaxFrameSize = 64 * 1024 * 1024;

    explicit WatchDecoder(qsizetype maxFrameSize = defaultMaxFrameSize);

    // feed() consumes the next bytes and returns the events they complete, in order.
    [[nodiscard]] QList<WatchEvent> feed(QByteArrayView bytes);
    // finish() ends the stream: a partial frame left over becomes one Malformed event.
    [[nodiscard]] QList<WatchEvent> finish();

    // decodeFrame() decodes one complete frame (also used by tests and by replay).
    [[nodiscard]] static WatchEvent decodeFrame(QByteArrayView frame);

    qsizetype bufferedBytes() const { return m_frame.size(); }

private:
    enum class State { BetweenFrames, InFrame, InString, InStringEscape, Junk };

    // decodeLine() is the fast path for a stream of one event per line, as the apiserver
    // writes it: the frame starting at data[start] ('{') taken to the next newline in this piece
    // and decoded at once, without the byte-by-byte scan (which cost a client as much CPU as
    // decoding the frame). It appends the event and returns the newline's index when those
    // bytes are one JSON object (then the scan would have found the same frame: a raw newline
    // cannot be inside a JSON string); else -1, and the scan takes the frame as before.
    // nextNewline carries the last search's answer between calls on one piece.
    qsizetype decodeLine(const char *data, qsizetype start, qsizetype size, qsizetype *nextNewline, QList<WatchEvent> *events);
    // decode() is decodeFrame(), telling whether the frame was not one JSON object at all.
    static WatchEvent decode(QByteArrayView frame, bool *notJson);

    qsizetype m_maxFrameSize;
    State m_state = State::BetweenFrames;
    int m_depth = 0;
    bool m_skipping = false; // oversized frame: track structure, drop bytes
    bool m_linesAreFrames = true; // decodeLine() has not met a line that is not one frame
    QByteArray m_frame;
};

} // namespace Cachescope
