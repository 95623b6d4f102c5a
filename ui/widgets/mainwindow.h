#pragma once

#include <QHash>
#include <QMainWindow>

class QDockWidget;

namespace Cachescope {

class RecentFilesMenu;

// MainWindow only assembles: menus, status bar, dock areas that the feature views fill, and
// window geometry and state kept in QSettings. Features bring their own views and controllers.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // setCentralView() puts the main view (the resource table) in the middle.
    void setCentralView(QWidget *view);

    // addView() puts a feature's view in a dock area and its toggle in the View menu.
    // Placement::Tabbed puts a view in a tab beside the area's first view; Placement::Below
    // stacks it under the views already there.
    enum class Placement { Tabbed, Below };
    void addView(QWidget *view, const QString &title, Qt::DockWidgetArea area, Placement placement = Placement::Tabbed);
    // addMenu() adds a feature's menu to the menu bar, before Help (which stays last).
    QMenu *addMenu(const QString &title);

    // restoreWindowState() applies the geometry and dock layout saved at the last close; on the
    // first start the window takes FirstStartScreenShare of the screen's available geometry,
    // centred, the left and right panes their shares of its width. Call it once every view has
    // been added.
    void restoreWindowState();
    // chooseKubeconfig() asks for a kubeconfig file (File → Open Kubeconfig…); a file chosen
    // is remembered among the recent ones and requested (kubeconfigRequested()).
    void chooseKubeconfig();
    // chooseRecording() asks for a recording (File → Open Recording…, cachescope-cli record's
    // SQLite file) and requests it (recordingRequested()).
    void chooseRecording();
    // chooseSessionRecording() asks for a new file to record the current cluster's session to
    // (File → Record Session…) and requests it (recordSessionRequested()).
    void chooseSessionRecording();
    // File → Record Session… and Stop Recording: whoever records enables each (SessionRecorder).
    [[nodiscard]] QAction *recordSessionAction() const { return m_recordSession; }
    [[nodiscard]] QAction *stopRecordingAction() const { return m_stopRecording; }
    static constexpr double FirstStartScreenShare = 0.85;
    static constexpr double FirstStartLeftShare = 0.16;
    static constexpr double FirstStartRightShare = 0.26;

Q_SIGNALS:
    // The user chose a kubeconfig file to open (File › Open kubeconfig…, or a recent file).
    void kubeconfigRequested(const QString &path);
    // The user chose a recording to open (File › Open Recording…; the application serves it).
    void recordingRequested(const QString &path);
    // The user chose a file to record the current cluster's session to (File › Record Session…).
    void recordSessionRequested(const QString &path);
    // File › Stop Recording.
    void stopRecordingRequested();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void showAbout();

    QHash<Qt::DockWidgetArea, QDockWidget *> m_firstDockOfArea; // owned (children)
    RecentFilesMenu *m_recentFiles = nullptr; // owned (child of the File menu)
    QAction *m_recordSession = nullptr; // owned (child of the File menu)
    QAction *m_stopRecording = nullptr; // owned (child of the File menu)
    QMenu *m_viewMenu = nullptr; // owned (child of the menu bar)
    QMenu *m_helpMenu = nullptr; // owned (child of the menu bar)
};

} // namespace Cachescope
