#pragma once

#include <QDateTime>
#include <QToolBar>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace Cachescope {

// RecordingBar is the time bar of an open recording: play/pause, the instant as a slider over the
// recording's span with the offset and the wall-clock time it stands for, and the speed. It only
// asks (seekRequested(), playingRequested(), speedRequested()); whoever serves the recording
// answers through setPosition(), setPlaying() and setSpeed(), so the bar shows what is served,
// not what was asked. Dragging the slider asks once, when it is released. Two buttons ask for
// the previous and the next change of the object selected in the explorer
// (previousChangeRequested(), nextChangeRequested()); the answer is a seek, shown as any other.
class RecordingBar final : public QToolBar
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RecordingBar)

public:
    explicit RecordingBar(QWidget *parent = nullptr);
    ~RecordingBar() override;

    // setRecording() names the recording and its span: its wall-clock start and length.
    void setRecording(const QString &name, const QDateTime &startedAt, qint64 durationMs);
    void setPosition(qint64 offsetMs);
    void setPlaying(bool playing);
    void setSpeed(double speed);

    // The speeds offered, × the recorded pace.
    static QList<double> speeds() { return {0.5, 1, 2, 5, 10, 50}; }

    // For tests and the status text: what the bar shows.
    [[nodiscard]] qint64 position() const;
    [[nodiscard]] QString positionText() const;

Q_SIGNALS:
    void seekRequested(qint64 offsetMs);
    void playingRequested(bool playing);
    void speedRequested(double speed);
    void previousChangeRequested();
    void nextChangeRequested();

private:
    void showPosition(qint64 offsetMs);

    QToolButton *m_play = nullptr; // owned (child)
    QSlider *m_slider = nullptr; // owned (child)
    QLabel *m_time = nullptr; // owned (child)
    QComboBox *m_speed = nullptr; // owned (child)
    QLabel *m_name = nullptr; // owned (child)
    QDateTime m_startedAt;
    qint64 m_durationMs = 0;
};

} // namespace Cachescope
