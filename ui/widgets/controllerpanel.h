#pragma once

#include "core/controller/controller.h"
#include "core/controller/controllersettings.h"

#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;

namespace Cachescope {

class FindingsTableModel;

// ControllerPanel is where a user runs a controller on the shown informer: its form chooses a
// built-in process function and its parameters, and the ControllerSettings (workers, the
// exponential backoff's base and maximum, the bucket's qps and burst, max retries, resync
// period); Start / Pause / Resume / Stop ask for an action (the Explorer owns the controller and
// does it); below, the controller's state and counters and its findings table, where activating a
// row names the object.
// The form remembers its values in QSettings ("controller/…") when a start is asked for.
// Thread: GUI thread. Ownership: the controller is not owned (QPointer; setController(nullptr)
// clears the panel); the findings model is a child.
class ControllerPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ControllerPanel)

public:
    explicit ControllerPanel(QWidget *parent = nullptr);
    ~ControllerPanel() override;

    // What the form says now.
    [[nodiscard]] QString controllerName() const;
    void setControllerName(const QString &name);
    // parameterAssignments() are the parameter field's `name=value` items (comma separated).
    [[nodiscard]] QStringList parameterAssignments() const;
    [[nodiscard]] ControllerSettings settings() const;
    void setSettings(const ControllerSettings &settings);

    // setController() follows a controller's state, counters and findings; describe names what
    // it runs on ("pods -n shop of kind-demo").
    void setController(Controller *controller, const QString &description = {});
    // setWaitingFor() says what a controller that has not started yet waits for ("the caches of
    // the owners to sync"); empty: nothing. Stop can be asked for while it waits.
    void setWaitingFor(const QString &what);
    // setRunnable() says whether a start can be asked for (a resource is shown).
    void setRunnable(bool runnable);

    [[nodiscard]] FindingsTableModel *findingsModel() const { return m_findings; }
    // The counters line as shown, for tests.
    [[nodiscard]] QString statusText() const;

Q_SIGNALS:
    void startRequested();
    void pauseRequested();
    void resumeRequested();
    void stopRequested();
    // A finding's row was activated: select that object.
    void objectActivated(const QString &key);

private:
    void updateDescription();
    void updateState();
    void saveSettings() const;
    void loadSettings();

    QComboBox *m_name = nullptr;
    QLabel *m_description = nullptr;
    QLineEdit *m_parameters = nullptr;
    QSpinBox *m_workers = nullptr;
    QSpinBox *m_baseDelay = nullptr; // ms
    QDoubleSpinBox *m_maxDelay = nullptr; // s
    QDoubleSpinBox *m_qps = nullptr;
    QSpinBox *m_burst = nullptr;
    QSpinBox *m_maxRetries = nullptr;
    QSpinBox *m_resync = nullptr; // s, 0 = never
    QPushButton *m_start = nullptr;
    QPushButton *m_pause = nullptr;
    QPushButton *m_stop = nullptr;
    QLabel *m_state = nullptr;
    QLabel *m_counters = nullptr;
    QTableView *m_findingsView = nullptr;
    FindingsTableModel *m_findings = nullptr; // owned (child)
    QPointer<Controller> m_controller; // not owned
    QString m_runsOn;
    QString m_waitingFor;
    bool m_runnable = false;
    QTimer m_refresh;
};

} // namespace Cachescope
