#include "core/cli/recordinginfocommand.h"

#include "core/printers/duration.h"
#include "core/record/recordingreader.h"

#include <QFileInfo>
#include <QTextStream>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

QString instant(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : u"-"_s;
}

} // namespace

int RecordingInfoCommand::run(const QString &file, QTextStream &out, QTextStream &err)
{
    if (file.isEmpty()) {
        err << "error: recording info needs the recording: recording info FILE" << Qt::endl;
        return 1;
    }
    RecordingReader reader;
    QString error;
    if (!reader.open(file, &error)) {
        err << "error: " << error << Qt::endl;
        return 1;
    }
    const RecordingReader::Session &session = reader.session();
    const RecordingReader::Summary summary = reader.summary();
    out << "file:            " << file << '\n';
    out << "cluster:         " << session.cluster << '\n';
    out << "context:         " << session.context << '\n';
    out << "server version:  " << session.serverVersion << '\n';
    out << "started:         " << instant(session.started) << '\n';
    out << "ended:           " << (session.ended.isValid() ? instant(session.ended) : u"- (the recorder did not close the file: it runs, or was killed)"_s)
        << '\n';
    out << "secret values:   " << (session.includeSecretValues ? "included" : "redacted") << '\n';
    out << "informers:       " << reader.informers().size() << '\n';
    for (const RecordedInformer &informer : reader.informers()) {
        out << "  " << informer.id << "  " << informer.name << " (" << (informer.queueKind == DeltaQueue::Kind::DeltaFifo ? "DeltaFifo" : "RealFifo")
            << (informer.watchList ? ", streaming lists" : "") << ")\n";
    }
    out << "inputs:          " << summary.inputs << '\n';
    for (const RecordedInput::Kind kind : RecordedInput::allKinds()) {
        out << "  " << RecordedInput::kindName(kind).leftJustified(14) << summary.inputsByKind.value(kind) << '\n';
    }
    if (summary.inputs > 0) {
        const QDateTime first = QDateTime::fromMSecsSinceEpoch(summary.firstWallMs, Qt::UTC);
        const QDateTime last = QDateTime::fromMSecsSinceEpoch(summary.lastWallMs, Qt::UTC);
        out << "time range:      " << instant(first) << " .. " << instant(last) << " (" << durationText(std::chrono::nanoseconds(summary.lastMonoNs))
            << " from the start)\n";
        out << "seq range:       " << summary.firstSeq << " .. " << summary.lastSeq << '\n';
    }
    out << "objects:         " << summary.objects << " (" << summary.objectBytes << " bytes)\n";
    out << "checkpoints:     " << summary.checkpoints << '\n';
    out << "file size:       " << QFileInfo(file).size() << " bytes\n";
    out.flush();
    // A damaged file answers part of a query: what was read is printed above, and it is not all.
    if (!reader.errorString().isEmpty()) {
        err << "error: the recording is damaged, the counts above are what could be read: " << reader.errorString() << Qt::endl;
        return 1;
    }
    return 0;
}

} // namespace Cachescope
