#include "ui/widgets/logview.h"

#include "core/cache/cluster.h"
#include "core/relations/relationservice.h"
#include "core/relations/workloadlogs.h"
#include "ui/models/logbuffer.h"
#include "ui/widgets/logsourcehighlighter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QThread>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
// Highlighting every match of a 10 000-line log costs a pass over the document: after a batch
// of lines it waits this long, so a follow at hundreds of lines a second redraws a few times a
// second, not once per batch.
constexpr auto HighlightDelay = std::chrono::milliseconds(200);
// More highlighted matches than this add nothing a user can see and slow each redraw.
constexpr int MaxHighlights = 2000;
} // namespace

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_containerBox(new QComboBox(this))
    , m_previousBox(new QCheckBox(tr("Previous"), this))
    , m_followBox(new QCheckBox(tr("Follow"), this))
    , m_timestampsBox(new QCheckBox(tr("Timestamps"), this))
    , m_sinceBox(new QComboBox(this))
    , m_search(new QLineEdit(this))
    , m_nextButton(new QToolButton(this))
    , m_previousMatchButton(new QToolButton(this))
    , m_wrapBox(new QCheckBox(tr("Wrap lines"), this))
    , m_text(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_buffer(new LogBuffer(this))
    , m_highlighter(new LogSourceHighlighter(this))
    , m_maxStreams(WorkloadLogs::DefaultMaxStreams)
{
    m_containerBox->setObjectName(u"container"_s);
    m_containerBox->setToolTip(tr("The container whose log is shown"));
    m_previousBox->setObjectName(u"previous"_s);
    m_previousBox->setToolTip(tr("The log of the container's instance before its last restart"));
    m_followBox->setObjectName(u"follow"_s);
    m_followBox->setChecked(true);
    m_timestampsBox->setObjectName(u"timestamps"_s);
    m_sinceBox->setObjectName(u"since"_s);
    m_sinceBox->addItem(tr("All"), 0);
    m_sinceBox->addItem(tr("Last 5 minutes"), 5 * 60);
    m_sinceBox->addItem(tr("Last 15 minutes"), 15 * 60);
    m_sinceBox->addItem(tr("Last hour"), 60 * 60);
    m_sinceBox->addItem(tr("Last 6 hours"), 6 * 60 * 60);
    m_sinceBox->addItem(tr("Last 24 hours"), 24 * 60 * 60);
    m_search->setObjectName(u"search"_s);
    m_search->setPlaceholderText(tr("Search"));
    m_search->setClearButtonEnabled(true);
    m_nextButton->setIcon(QIcon::fromTheme(u"go-down"_s));
    m_nextButton->setToolTip(tr("Next match"));
    m_previousMatchButton->setIcon(QIcon::fromTheme(u"go-up"_s));
    m_previousMatchButton->setToolTip(tr("Previous match"));
    m_wrapBox->setObjectName(u"wrap"_s);

    m_text->setObjectName(u"text"_s);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(tr("No pod selected"));
    // Undo would keep every removed line alive: the ring is the bound of what is held.
    m_text->setUndoRedoEnabled(false);
    m_text->document()->setMaximumBlockCount(m_buffer->maxLines());
    m_status->setObjectName(u"status"_s);
    // The status can be long (a refusal's message): it wraps rather than widening the pane.
    m_status->setWordWrap(true);
    // Follow the end only while the user has not scrolled up to read. The document's layout
    // extends the scroll range after an insertion, sometimes later than the insertion returns,
    // so the end is followed where the range changes, not right after inserting.
    QScrollBar *bar = m_text->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) { m_atBottom = value >= bar->maximum(); });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int maximum) {
        if (m_atBottom)
            bar->setValue(maximum);
    });

    m_highlightTimer.setSingleShot(true);
    m_highlightTimer.setInterval(HighlightDelay);
    connect(&m_highlightTimer, &QTimer::timeout, this, &LogView::highlightMatches);

    connect(m_buffer, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int first, int last) { appendRows(first, last); });
    connect(m_buffer, &LogBuffer::linesDropped, this, &LogView::updateStatus);
    connect(m_containerBox, &QComboBox::currentIndexChanged, this, &LogView::restart);
    connect(m_previousBox, &QCheckBox::toggled, this, &LogView::restart);
    connect(m_followBox, &QCheckBox::toggled, this, &LogView::restart);
    connect(m_sinceBox, &QComboBox::currentIndexChanged, this, &LogView::restart);
    connect(m_timestampsBox, &QCheckBox::toggled, this, &LogView::redraw);
    connect(m_wrapBox, &QCheckBox::toggled, this, [this](bool wrap) { m_text->setLineWrapMode(wrap ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap); });
    connect(m_search, &QLineEdit::textChanged, this, [this] { m_highlightTimer.start(); });
    connect(m_search, &QLineEdit::returnPressed, this, &LogView::findNext);
    connect(m_nextButton, &QToolButton::clicked, this, &LogView::findNext);
    connect(m_previousMatchButton, &QToolButton::clicked, this, &LogView::findPrevious);

    // A tool bar rather than a row of widgets: it folds what does not fit into its extension
    // menu, so the controls never widen the pane they sit in.
    auto *controls = new QToolBar(this);
    controls->setObjectName(u"logControls"_s);
    controls->addWidget(m_containerBox);
    controls->addWidget(m_previousBox);
    controls->addWidget(m_followBox);
    controls->addWidget(m_timestampsBox);
    controls->addWidget(m_sinceBox);
    controls->addWidget(m_wrapBox);
    controls->addSeparator();
    controls->addWidget(m_search);
    controls->addWidget(m_previousMatchButton);
    controls->addWidget(m_nextButton);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(controls);
    layout->addWidget(m_text);
    layout->addWidget(m_status);
    updateStatus();
}

LogView::~LogView()
{
    stop();
}

void LogView::setCluster(Cluster *cluster)
{
    if (cluster == m_cluster)
        return;
    stop();
    m_cluster = cluster;
}

bool LogView::hasLogs(const KubeObject &object)
{
    if (!object.isValid())
        return false;
    const QString kind = object.kind();
    if (kind == u"Pod" || WorkloadLogs::isWorkload(object))
        return true;
    // An informer's list items may carry no kind: a pod is what has containers in its spec.
    return kind.isEmpty() && QJsonDocument::fromJson(object.json()).object().value(u"spec").toObject().value(u"containers").isArray();
}

void LogView::setRelations(RelationService *relations)
{
    if (relations == m_relations)
        return;
    m_relations = relations;
    // A workload's pods are read through it: read them again from there.
    if (m_workload.isValid())
        restart();
}

void LogView::showControlsFor(const KubeObject &object)
{
    const bool workload = WorkloadLogs::isWorkload(object);
    // A workload's pods each have their own previous instance, or none: not one to show.
    m_previousBox->setEnabled(!workload);
    m_previousBox->setToolTip(workload ? tr("Only for a single pod's log") : tr("The log of the container's instance before its last restart"));
    m_containerBox->setToolTip(workload ? tr("The container whose log is shown, in every pod") : tr("The container whose log is shown"));
    m_highlighter->clear();
    m_highlighter->setDark(palette().color(QPalette::Base).lightness() < 128);
    m_highlighter->setDocument(workload ? m_text->document() : nullptr);
}

bool LogView::setObject(const KubeObject &object)
{
    if (!hasLogs(object)) {
        stop();
        m_pod = {};
        m_workload = {};
        showControlsFor(object);
        m_containerBox->blockSignals(true);
        m_containerBox->clear();
        m_containerBox->blockSignals(false);
        m_buffer->clear();
        m_text->clear();
        m_state = LogFollower::State::Idle;
        m_stateMessage.clear();
        updateStatus();
        return false;
    }
    if (WorkloadLogs::isWorkload(object)) {
        // The same workload again (a newer version of it): its streams go on.
        if (m_workload.isValid() && m_workload.uid() == object.uid() && m_workload.name() == object.name()) {
            m_workload = object;
            return true;
        }
        stop();
        m_pod = {};
        m_workload = object;
        m_reconnects = 0;
        showControlsFor(object);
        {
            const QSignalBlocker blocker(m_containerBox);
            m_containerBox->clear();
            m_containerBox->addItem(tr("All containers"), QString());
            const QStringList containers = WorkloadLogs::containersOf(object);
            for (const QString &name : containers)
                m_containerBox->addItem(name, name);
            m_containerBox->setCurrentIndex(0);
        }
        restart();
        return true;
    }
    // The same pod again (a newer version of it): the stream it has goes on.
    if (m_pod.isValid() && m_pod.uid() == object.uid() && m_pod.name() == object.name()) {
        m_pod = object;
        return true;
    }
    if (m_workload.isValid())
        stop();
    m_workload = {};
    showControlsFor(object);
    m_pod = object;
    m_reconnects = 0;
    const QJsonObject spec = QJsonDocument::fromJson(object.json()).object().value(u"spec").toObject();
    const QJsonObject annotations = QJsonDocument::fromJson(object.json()).object().value(u"metadata").toObject().value(u"annotations").toObject();
    {
        const QSignalBlocker blocker(m_containerBox);
        m_containerBox->clear();
        for (const QJsonValue &container : spec.value(u"containers").toArray()) {
            const QString name = container.toObject().value(u"name").toString();
            m_containerBox->addItem(name, name);
        }
        for (const QJsonValue &container : spec.value(u"initContainers").toArray()) {
            const QString name = container.toObject().value(u"name").toString();
            m_containerBox->addItem(tr("%1 (init)").arg(name), name);
        }
        // kubectl's default: the annotated container, else the first.
        const int preferred = m_containerBox->findData(annotations.value(u"kubectl.kubernetes.io/default-container").toString());
        m_containerBox->setCurrentIndex(preferred >= 0 ? preferred : 0);
    }
    restart();
    return true;
}

QStringList LogView::containers() const
{
    QStringList names;
    for (int i = 0; i < m_containerBox->count(); ++i)
        names.append(m_containerBox->itemData(i).toString());
    return names;
}

QString LogView::container() const
{
    return m_containerBox->currentData().toString();
}

void LogView::setContainer(const QString &name)
{
    m_containerBox->setCurrentIndex(m_containerBox->findData(name));
}

void LogView::setPrevious(bool previous)
{
    m_previousBox->setChecked(previous);
}

void LogView::setFollow(bool follow)
{
    m_followBox->setChecked(follow);
}

void LogView::setTimestampsShown(bool shown)
{
    m_timestampsBox->setChecked(shown);
}

void LogView::setSearchText(const QString &text)
{
    m_search->setText(text);
    highlightMatches();
}

void LogView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!isStreaming())
        restart();
}

void LogView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    // No stream that nobody sees; what was read stays until the view reads again.
    stop();
    if (m_state == LogFollower::State::Streaming || m_state == LogFollower::State::Reconnecting) {
        m_state = LogFollower::State::Idle;
        m_stateMessage.clear();
    }
    updateStatus();
}

void LogView::restart()
{
    stop();
    m_buffer->clear();
    m_mergerDropped = 0;
    m_text->clear();
    m_atBottom = true;
    m_state = LogFollower::State::Idle;
    m_stateMessage.clear();
    if (isVisible())
        start();
    updateStatus();
}

void LogView::start()
{
    if (m_workload.isValid()) {
        if (!m_cluster || !m_relations || !m_cluster->client())
            return;
        LogOptions options;
        options.container = container();
        options.follow = m_followBox->isChecked();
        if (const int since = m_sinceBox->currentData().toInt(); since > 0)
            options.sinceSeconds = since;
        m_workloadLogs = new WorkloadLogs(m_cluster, m_relations, ObjectRef::of(m_workload), options, this);
        m_workloadLogs->setBound(m_buffer->maxLines());
        m_workloadLogs->setMaxStreams(m_maxStreams);
        m_workloadLogs->setInitialBackoff(m_initialBackoff);
        connect(m_workloadLogs, &WorkloadLogs::linesReceived, this, [this](const LogLines &lines) { m_buffer->append(lines); });
        connect(m_workloadLogs, &WorkloadLogs::countsChanged, this, &LogView::updateStatus);
        m_workloadLogs->start();
        m_state = LogFollower::State::Streaming;
        return;
    }
    if (!m_cluster || !m_pod.isValid() || m_containerBox->count() == 0 || !m_cluster->client())
        return;
    LogOptions options;
    options.container = container();
    options.previous = m_previousBox->isChecked();
    // A previous instance has ended: there is nothing to follow.
    options.follow = m_followBox->isChecked() && !options.previous;
    if (const int since = m_sinceBox->currentData().toInt(); since > 0)
        options.sinceSeconds = since;
    m_follower = new LogFollower(m_cluster->client(), m_pod.namespaceName(), m_pod.name(), options);
    m_follower->setInitialBackoff(m_initialBackoff);
    m_follower->moveToThread(m_cluster->workerThread());
    const int generation = ++m_generation;
    connect(m_follower, &LogFollower::linesReceived, this, [this, generation](const QStringList &lines) {
        // A batch already queued when the follower was replaced belongs to what was shown before.
        if (generation == m_generation)
            m_buffer->append(lines);
    });
    connect(m_follower, &LogFollower::stateChanged, this, [this, generation](LogFollower::State state, const QString &message) {
        if (generation == m_generation)
            onState(state, message);
    });
    QMetaObject::invokeMethod(m_follower, &LogFollower::start);
    m_state = LogFollower::State::Streaming;
}

void LogView::stop()
{
    if (m_workloadLogs) {
        // What waits in the merge window is shown, not lost.
        WorkloadLogs *logs = std::exchange(m_workloadLogs, nullptr);
        m_buffer->append(logs->takePending());
        m_mergerDropped += logs->merger().droppedCount();
        delete logs;
    }
    if (!m_follower)
        return;
    ++m_generation;
    disconnect(m_follower, nullptr, this, nullptr);
    // Deleted on its own thread, where its request lives; deleting it aborts the request.
    m_follower->deleteLater();
    m_follower = nullptr;
}

void LogView::onState(LogFollower::State state, const QString &message)
{
    m_state = state;
    m_stateMessage = message;
    if (state == LogFollower::State::Reconnecting)
        ++m_reconnects;
    switch (state) {
    case LogFollower::State::Ended:
    case LogFollower::State::PodDeleted:
    case LogFollower::State::Failed:
        // Nothing more will come: the lines stay, the follower goes.
        stop();
        break;
    default:
        break;
    }
    updateStatus();
}

void LogView::appendRows(int first, int last)
{
    const bool timestamps = m_timestampsBox->isChecked();
    QStringList lines;
    lines.reserve(last - first + 1);
    for (int row = first; row <= last; ++row)
        lines.append(m_buffer->line(row, timestamps));
    QTextCursor cursor(m_text->document());
    cursor.movePosition(QTextCursor::End);
    const bool empty = m_text->document()->isEmpty();
    // Inserted through a cursor of its own, the text moves no view: the scroll bar's range
    // change decides (the constructor's rangeChanged connection).
    cursor.insertText(empty ? lines.join(u'\n') : u'\n' + lines.join(u'\n'));
    if (!m_search->text().isEmpty() && !m_highlightTimer.isActive())
        m_highlightTimer.start();
    updateStatus();
}

void LogView::redraw()
{
    const bool timestamps = m_timestampsBox->isChecked();
    QStringList lines;
    lines.reserve(m_buffer->lineCount());
    for (int row = 0; row < m_buffer->lineCount(); ++row)
        lines.append(m_buffer->line(row, timestamps));
    m_atBottom = true;
    m_text->setPlainText(lines.join(u'\n'));
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    highlightMatches();
}

void LogView::highlightMatches()
{
    QList<QTextEdit::ExtraSelection> selections;
    const QString needle = m_search->text();
    if (!needle.isEmpty()) {
        QTextCharFormat format;
        format.setBackground(palette().color(QPalette::Highlight).lighter(160));
        QTextCursor cursor(m_text->document());
        while (selections.size() < MaxHighlights) {
            cursor = m_text->document()->find(needle, cursor);
            if (cursor.isNull())
                break;
            selections.append({cursor, format});
        }
    }
    m_text->setExtraSelections(selections);
    updateStatus();
}

bool LogView::findNext()
{
    return find(false);
}

bool LogView::findPrevious()
{
    return find(true);
}

bool LogView::find(bool backward)
{
    const QString needle = m_search->text();
    if (needle.isEmpty())
        return false;
    const QTextDocument::FindFlags flags = backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_text->find(needle, flags))
        return true;
    // Around the end: from the other end of the log.
    QTextCursor cursor(m_text->document());
    cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
    m_text->setTextCursor(cursor);
    return m_text->find(needle, flags);
}

QString LogView::statusText() const
{
    return m_status->text();
}

void LogView::updateWorkloadStatus(QStringList &parts) const
{
    if (!m_relations) {
        parts.append(tr("waiting for the cluster's caches"));
        return;
    }
    if (!m_workloadLogs)
        return;
    parts.append(tr("%n pod(s)", nullptr, m_workloadLogs->podCount()));
    parts.append(tr("%n stream(s)", nullptr, m_workloadLogs->streamCount()));
    if (const int waiting = m_workloadLogs->waitingCount(); waiting > 0)
        parts.append(tr("%n pod(s) not followed (at most %1 streams)", nullptr, waiting).arg(m_workloadLogs->maxStreams()));
    if (const int notStarted = m_workloadLogs->notStartedCount(); notStarted > 0)
        parts.append(tr("%n pod(s) not started", nullptr, notStarted));
    if (m_workloadLogs->streamCount() > 0 && m_followBox->isChecked())
        parts.append(tr("following"));
    // Read without follow: the end once every pod's log was read.
    if (!m_followBox->isChecked() && m_workloadLogs->streamCount() == 0 && m_workloadLogs->waitingCount() == 0 && !m_workloadLogs->sources().isEmpty())
        parts.append(tr("end of log"));
    if (!m_workloadLogs->lastError().isEmpty())
        parts.append(tr("error: %1").arg(m_workloadLogs->lastError()));
}

void LogView::updateStatus()
{
    QStringList parts;
    parts.append(tr("%n line(s)", nullptr, m_buffer->lineCount()));
    const qint64 dropped = m_buffer->droppedCount() + m_mergerDropped + (m_workloadLogs ? m_workloadLogs->merger().droppedCount() : 0);
    if (dropped > 0)
        parts.append(tr("%1 older dropped (limit %2)").arg(dropped).arg(m_buffer->maxLines()));
    if (m_workload.isValid()) {
        updateWorkloadStatus(parts);
        const QString text = parts.join(u" · "_s);
        if (text != m_status->text()) {
            m_status->setText(text);
            Q_EMIT statusChanged(text);
        }
        return;
    }
    switch (m_state) {
    case LogFollower::State::Idle:
        break;
    case LogFollower::State::Streaming:
        if (m_followBox->isChecked() && !m_previousBox->isChecked())
            parts.append(tr("following"));
        break;
    case LogFollower::State::Reconnecting:
        parts.append(tr("reconnecting…"));
        break;
    case LogFollower::State::Ended:
        parts.append(tr("end of log"));
        break;
    case LogFollower::State::PodDeleted:
        parts.append(tr("pod deleted"));
        break;
    case LogFollower::State::Failed:
        parts.append(tr("error: %1").arg(m_stateMessage));
        break;
    }
    const QString text = parts.join(u" · "_s);
    if (text == m_status->text())
        return;
    m_status->setText(text);
    Q_EMIT statusChanged(text);
}

} // namespace Cachescope
