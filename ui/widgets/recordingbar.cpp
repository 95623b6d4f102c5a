#include "ui/widgets/recordingbar.h"

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTime>
#include <QToolButton>

#include <algorithm>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// clock() writes an offset as a player does: "01:23", "1:02:03" from an hour on.
QString clock(qint64 ms)
{
    const QTime time = QTime(0, 0).addMSecs(int(std::min<qint64>(ms, 23 * 3600 * 1000)));
    return time.toString(ms >= 3600 * 1000 ? u"h:mm:ss"_s : u"mm:ss"_s);
}

} // namespace

RecordingBar::RecordingBar(QWidget *parent)
    : QToolBar(tr("Recording"), parent)
{
    setObjectName(u"recordingBar"_s);
    setMovable(false);

    m_play = new QToolButton(this);
    m_play->setObjectName(u"play"_s);
    m_play->setCheckable(true);
    m_play->setToolTip(tr("Play or pause the recording"));
    connect(m_play, &QToolButton::clicked, this, [this](bool checked) {
        // The button shows what is served: the answer sets it.
        m_play->setChecked(!checked);
        Q_EMIT playingRequested(checked);
    });
    addWidget(m_play);

    // Stepping through one object's changes: the one shown in the object view (whoever serves
    // the recording knows which and where its changes are).
    auto *previous = new QToolButton(this);
    previous->setObjectName(u"previousChange"_s);
    previous->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
    previous->setText(tr("Previous Change"));
    previous->setToolTip(tr("Previous change of the selected object"));
    connect(previous, &QToolButton::clicked, this, &RecordingBar::previousChangeRequested);
    addWidget(previous);
    auto *next = new QToolButton(this);
    next->setObjectName(u"nextChange"_s);
    next->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    next->setText(tr("Next Change"));
    next->setToolTip(tr("Next change of the selected object"));
    connect(next, &QToolButton::clicked, this, &RecordingBar::nextChangeRequested);
    addWidget(next);

    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(u"position"_s);
    m_slider->setToolTip(tr("The instant of the recording the cluster shows"));
    m_slider->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_slider->setPageStep(10000);
    m_slider->setSingleStep(1000);
    connect(m_slider, &QSlider::sliderMoved, this, &RecordingBar::showPosition);
    connect(m_slider, &QSlider::sliderReleased, this, [this] { Q_EMIT seekRequested(m_slider->value()); });
    // A click beside the handle or a key moves by a step: ask at once (a drag asks on release).
    connect(m_slider, &QSlider::actionTriggered, this, [this](int action) {
        if (action != QAbstractSlider::SliderMove) {
            Q_EMIT seekRequested(m_slider->sliderPosition());
        }
    });
    addWidget(m_slider);

    m_time = new QLabel(this);
    m_time->setMargin(4);
    addWidget(m_time);

    m_speed = new QComboBox(this);
    m_speed->setObjectName(u"speed"_s);
    m_speed->setToolTip(tr("Speed, × the recorded pace"));
    for (const double speed : speeds()) {
        m_speed->addItem(tr("%1×").arg(speed), speed);
    }
    connect(m_speed, &QComboBox::activated, this, [this](int index) { Q_EMIT speedRequested(m_speed->itemData(index).toDouble()); });
    addWidget(m_speed);

    m_name = new QLabel(this);
    m_name->setMargin(4);
    addWidget(m_name);

    setPlaying(false);
    setSpeed(1);
}

RecordingBar::~RecordingBar() = default;

void RecordingBar::setRecording(const QString &name, const QDateTime &startedAt, qint64 durationMs)
{
    m_startedAt = startedAt;
    m_durationMs = durationMs;
    m_name->setText(name);
    m_slider->setRange(0, int(std::min<qint64>(durationMs, std::numeric_limits<int>::max())));
    showPosition(m_slider->value());
}

void RecordingBar::setPosition(qint64 offsetMs)
{
    if (m_slider->isSliderDown()) {
        return; // the user is choosing an instant
    }
    m_slider->setValue(int(std::clamp<qint64>(offsetMs, 0, m_slider->maximum())));
    showPosition(m_slider->value());
}

void RecordingBar::setPlaying(bool playing)
{
    m_play->setChecked(playing);
    m_play->setIcon(QIcon::fromTheme(playing ? u"media-playback-pause"_s : u"media-playback-start"_s));
    m_play->setText(playing ? tr("Pause") : tr("Play"));
}

void RecordingBar::setSpeed(double speed)
{
    const int index = m_speed->findData(speed);
    if (index >= 0) {
        m_speed->setCurrentIndex(index);
    }
}

qint64 RecordingBar::position() const
{
    return m_slider->value();
}

QString RecordingBar::positionText() const
{
    return m_time->text();
}

void RecordingBar::showPosition(qint64 offsetMs)
{
    QString text = clock(offsetMs) + u" / "_s + clock(m_durationMs);
    if (m_startedAt.isValid()) {
        text += u" · "_s + m_startedAt.addMSecs(offsetMs).toUTC().toString(u"yyyy-MM-dd HH:mm:ss 'UTC'"_s);
    }
    m_time->setText(text);
}

} // namespace Cachescope
