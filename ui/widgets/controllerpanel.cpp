#include "ui/widgets/controllerpanel.h"

#include "core/controller/controller.h"
#include "core/controller/findingsstore.h"
#include "core/controller/processfunctionregistry.h"
#include "ui/models/findingstablemodel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <chrono>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {
QSpinBox *spinBox(int minimum, int maximum, const QString &suffix, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setSuffix(suffix);
    return box;
}

QDoubleSpinBox *doubleSpinBox(double minimum, double maximum, int decimals, const QString &suffix, QWidget *parent)
{
    auto *box = new QDoubleSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    return box;
}
} // namespace

ControllerPanel::ControllerPanel(QWidget *parent)
    : QWidget(parent)
    , m_findings(new FindingsTableModel(this))
{
    auto *form = new QWidget(this);
    auto *formLayout = new QFormLayout(form);
    m_name = new QComboBox(form);
    m_name->setObjectName(u"controllerName"_s);
    m_name->addItems(controllerNames());
    formLayout->addRow(tr("Controller"), m_name);
    m_description = new QLabel(form);
    m_description->setWordWrap(true);
    formLayout->addRow(m_description);
    m_parameters = new QLineEdit(form);
    m_parameters->setObjectName(u"parameters"_s);
    m_parameters->setClearButtonEnabled(true);
    formLayout->addRow(tr("Parameters"), m_parameters);
    m_workers = spinBox(1, 64, {}, form);
    formLayout->addRow(tr("Workers"), m_workers);
    m_baseDelay = spinBox(1, 60000, tr(" ms"), form);
    formLayout->addRow(tr("Backoff base"), m_baseDelay);
    m_maxDelay = doubleSpinBox(0.001, 100000, 3, tr(" s"), form);
    formLayout->addRow(tr("Backoff maximum"), m_maxDelay);
    m_qps = doubleSpinBox(0.1, 100000, 1, tr(" qps"), form);
    formLayout->addRow(tr("Bucket rate"), m_qps);
    m_burst = spinBox(1, 1000000, {}, form);
    formLayout->addRow(tr("Bucket burst"), m_burst);
    m_maxRetries = spinBox(0, 1000, {}, form);
    formLayout->addRow(tr("Max retries"), m_maxRetries);
    m_resync = spinBox(0, 86400, tr(" s"), form);
    m_resync->setSpecialValueText(tr("never"));
    formLayout->addRow(tr("Resync"), m_resync);

    auto *buttons = new QHBoxLayout;
    m_start = new QPushButton(tr("Start"), form);
    m_start->setObjectName(u"start"_s);
    m_pause = new QPushButton(tr("Pause"), form);
    m_pause->setObjectName(u"pause"_s);
    m_stop = new QPushButton(tr("Stop (drain)"), form);
    m_stop->setObjectName(u"stop"_s);
    buttons->addWidget(m_start);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_stop);
    formLayout->addRow(buttons);

    auto *results = new QWidget(this);
    auto *resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    m_state = new QLabel(results);
    m_state->setObjectName(u"state"_s);
    m_counters = new QLabel(results);
    m_counters->setObjectName(u"counters"_s);
    m_counters->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Wrapped, so that growing numbers never widen the window.
    m_state->setWordWrap(true);
    m_counters->setWordWrap(true);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(m_findings);
    sorted->setSortRole(FindingsTableModel::SortRole);
    m_findingsView = new QTableView(results);
    m_findingsView->setObjectName(u"findings"_s);
    m_findingsView->setModel(sorted);
    m_findingsView->setSortingEnabled(true);
    m_findingsView->sortByColumn(FindingsTableModel::SeverityColumn, Qt::AscendingOrder);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_findingsView->verticalHeader()->hide();
    m_findingsView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_findingsView->setWordWrap(false);
    m_findingsView->setTextElideMode(Qt::ElideMiddle); // keys: namespace and the name's tail both matter
    m_findingsView->setColumnWidth(FindingsTableModel::KeyColumn, fontMetrics().horizontalAdvance(u'x') * 40);
    m_findingsView->horizontalHeader()->setStretchLastSection(false);
    m_findingsView->horizontalHeader()->setSectionResizeMode(FindingsTableModel::MessageColumn, QHeaderView::Stretch);
    resultsLayout->addWidget(m_state);
    resultsLayout->addWidget(m_counters);
    resultsLayout->addWidget(m_findingsView, 1);

    // Wide enough for the parameters' placeholder ("restartThreshold=3, pendingSeconds=300").
    form->setMinimumWidth(fontMetrics().horizontalAdvance(u'x') * 48);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(form);
    splitter->addWidget(results);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    setSettings(ControllerSettings{});
    loadSettings();
    updateDescription();

    connect(m_name, &QComboBox::currentIndexChanged, this, [this] {
        m_parameters->clear();
        updateDescription();
    });
    connect(m_start, &QPushButton::clicked, this, [this] {
        saveSettings();
        Q_EMIT startRequested();
    });
    connect(m_pause, &QPushButton::clicked, this, [this] {
        if (m_controller && m_controller->state() == Controller::State::Paused) {
            Q_EMIT resumeRequested();
        } else {
            Q_EMIT pauseRequested();
        }
    });
    connect(m_stop, &QPushButton::clicked, this, &ControllerPanel::stopRequested);
    connect(m_findingsView, &QTableView::activated, this, [this](const QModelIndex &index) {
        Q_EMIT objectActivated(index.data(FindingsTableModel::KeyRole).toString());
    });
    // The counters move with every key processed; four times a second is as fast as they are read.
    m_refresh.setInterval(std::chrono::milliseconds(250));
    connect(&m_refresh, &QTimer::timeout, this, &ControllerPanel::updateState);
    updateState();
}

ControllerPanel::~ControllerPanel() = default;

QString ControllerPanel::controllerName() const
{
    return m_name->currentText();
}

void ControllerPanel::setControllerName(const QString &name)
{
    const int index = m_name->findText(name);
    if (index >= 0) {
        m_name->setCurrentIndex(index);
    }
}

QStringList ControllerPanel::parameterAssignments() const
{
    QStringList assignments = m_parameters->text().split(u',', Qt::SkipEmptyParts);
    for (QString &assignment : assignments) {
        assignment = assignment.trimmed();
    }
    assignments.removeAll(QString());
    return assignments;
}

ControllerSettings ControllerPanel::settings() const
{
    ControllerSettings settings;
    settings.workers = m_workers->value();
    settings.baseDelay = std::chrono::milliseconds(m_baseDelay->value());
    settings.maxDelay = std::chrono::duration_cast<Duration>(std::chrono::duration<double>(m_maxDelay->value()));
    settings.qps = m_qps->value();
    settings.burst = m_burst->value();
    settings.maxRetries = m_maxRetries->value();
    settings.resyncPeriod = std::chrono::seconds(m_resync->value());
    return settings;
}

void ControllerPanel::setSettings(const ControllerSettings &settings)
{
    using namespace std::chrono;
    m_workers->setValue(settings.workers);
    m_baseDelay->setValue(int(duration_cast<milliseconds>(settings.baseDelay).count()));
    m_maxDelay->setValue(duration<double>(settings.maxDelay).count());
    m_qps->setValue(settings.qps);
    m_burst->setValue(settings.burst);
    m_maxRetries->setValue(settings.maxRetries);
    m_resync->setValue(int(duration_cast<seconds>(settings.resyncPeriod).count()));
}

void ControllerPanel::setController(Controller *controller, const QString &description)
{
    if (m_controller) {
        disconnect(m_controller, nullptr, this, nullptr);
    }
    m_controller = controller;
    m_runsOn = description;
    m_waitingFor.clear();
    m_findings->setStore(controller ? controller->findings() : nullptr);
    if (controller) {
        connect(controller, &Controller::stateChanged, this, &ControllerPanel::updateState);
        m_refresh.start();
    } else {
        m_refresh.stop();
    }
    updateState();
}

void ControllerPanel::setWaitingFor(const QString &what)
{
    m_waitingFor = what;
    updateState();
}

void ControllerPanel::setRunnable(bool runnable)
{
    m_runnable = runnable;
    updateState();
}

QString ControllerPanel::statusText() const
{
    return m_counters->text();
}

void ControllerPanel::updateDescription()
{
    const auto info = controllerInfo(controllerName());
    if (!info) {
        m_description->clear();
        m_parameters->setPlaceholderText({});
        return;
    }
    m_description->setText(QCoreApplication::translate("Cachescope::Controller", info->description.toUtf8().constData()));
    QStringList defaults;
    QStringList help;
    for (const ControllerInfo::Parameter &parameter : info->parameters) {
        defaults.append(parameter.name + u'=' + parameter.defaultValue);
        help.append(parameter.name + u": "_s + QCoreApplication::translate("Cachescope::Controller", parameter.description.toUtf8().constData()));
    }
    m_parameters->setPlaceholderText(defaults.join(u", "_s));
    m_parameters->setToolTip(help.join(u'\n'));
    m_parameters->setEnabled(!info->parameters.isEmpty());
}

void ControllerPanel::updateState()
{
    const Controller::State state = m_controller ? m_controller->state() : Controller::State::Stopped;
    const bool active = m_controller && (state == Controller::State::Running || state == Controller::State::Paused);
    const bool waiting = m_controller && state == Controller::State::Idle && !m_waitingFor.isEmpty();
    m_start->setEnabled(m_runnable && !active);
    m_pause->setEnabled(active);
    m_pause->setText(state == Controller::State::Paused ? tr("Resume") : tr("Pause"));
    m_stop->setEnabled(active || waiting);
    if (!m_controller) {
        m_state->setText(m_runnable ? tr("No controller runs. Choose one and start it on the shown resource.")
                                    : tr("Show a resource to run a controller on it."));
        m_counters->clear();
        return;
    }
    QString stateText;
    switch (state) {
    case Controller::State::Idle:
        stateText = m_waitingFor.isEmpty() ? tr("starting") : tr("waiting for %1").arg(m_waitingFor);
        break;
    case Controller::State::Running:
        stateText = tr("running");
        break;
    case Controller::State::Paused:
        stateText = tr("paused: keys are queued, not processed");
        break;
    case Controller::State::Draining:
        stateText = tr("stopping: processing the keys queued before the stop");
        break;
    case Controller::State::Stopped:
        stateText = tr("stopped");
        break;
    }
    m_state->setText(tr("<b>%1</b> on %2, %n worker(s): %3", nullptr, m_controller->settings().workers)
                         .arg(m_controller->name().toHtmlEscaped(), m_runsOn.toHtmlEscaped(), stateText));
    const Controller::Counters counters = m_controller->counters();
    const QueueMetrics metrics = m_controller->metrics();
    m_counters->setText(tr("processed %1 · succeeded %2 · retried %3 · gave up %4 · dropped %5 · queue depth %6 · findings %7")
                            .arg(counters.processed)
                            .arg(counters.succeeded)
                            .arg(counters.retried)
                            .arg(counters.gaveUp)
                            .arg(counters.dropped)
                            .arg(metrics.depth)
                            .arg(m_controller->findings()->findingCount()));
}

void ControllerPanel::saveSettings() const
{
    using namespace std::chrono;
    QSettings store;
    store.beginGroup(u"controller"_s);
    store.setValue(u"name"_s, controllerName());
    store.setValue(u"workers"_s, m_workers->value());
    store.setValue(u"baseDelayMs"_s, m_baseDelay->value());
    store.setValue(u"maxDelaySeconds"_s, m_maxDelay->value());
    store.setValue(u"qps"_s, m_qps->value());
    store.setValue(u"burst"_s, m_burst->value());
    store.setValue(u"maxRetries"_s, m_maxRetries->value());
    store.setValue(u"resyncSeconds"_s, m_resync->value());
}

void ControllerPanel::loadSettings()
{
    QSettings store;
    store.beginGroup(u"controller"_s);
    setControllerName(store.value(u"name"_s).toString());
    m_workers->setValue(store.value(u"workers"_s, m_workers->value()).toInt());
    m_baseDelay->setValue(store.value(u"baseDelayMs"_s, m_baseDelay->value()).toInt());
    m_maxDelay->setValue(store.value(u"maxDelaySeconds"_s, m_maxDelay->value()).toDouble());
    m_qps->setValue(store.value(u"qps"_s, m_qps->value()).toDouble());
    m_burst->setValue(store.value(u"burst"_s, m_burst->value()).toInt());
    m_maxRetries->setValue(store.value(u"maxRetries"_s, m_maxRetries->value()).toInt());
    m_resync->setValue(store.value(u"resyncSeconds"_s, m_resync->value()).toInt());
}

} // namespace Cachescope
