#include "ui/widgets/mainwindow.h"

#include "core/version.h"
#include "ui/widgets/recentfilesmenu.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Cachescope"));
    setWindowIcon(QIcon(u":/icons/cachescope.svg"_s));
    setDockNestingEnabled(true);
    createMenus();
    statusBar()->showMessage(tr("No cluster"));
    resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::addView(QWidget *view, const QString &title, Qt::DockWidgetArea area, Placement placement)
{
    auto *dock = new QDockWidget(title, this);
    // The object name keys the dock in the saved window state.
    dock->setObjectName(view->objectName().isEmpty() ? title : view->objectName());
    dock->setWidget(view);
    QDockWidget *first = m_firstDockOfArea.value(area);
    if (first != nullptr && placement == Placement::Tabbed) {
        tabifyDockWidget(first, dock);
        first->raise();
    } else {
        addDockWidget(area, dock, Qt::Vertical);
        if (first == nullptr) {
            m_firstDockOfArea.insert(area, dock);
        }
    }
    m_viewMenu->addAction(dock->toggleViewAction());
}

void MainWindow::setCentralView(QWidget *view)
{
    setCentralWidget(view);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Kubeconfig…"), this, &MainWindow::chooseKubeconfig);
    open->setShortcut(QKeySequence::Open);
    m_recentFiles = new RecentFilesMenu(file);
    file->addMenu(m_recentFiles);
    connect(m_recentFiles, &RecentFilesMenu::fileTriggered, this, &MainWindow::kubeconfigRequested);
    file->addAction(tr("Open &Recording…"), this, &MainWindow::chooseRecording);
    file->addSeparator();
    m_recordSession = file->addAction(tr("Record &Session…"), this, &MainWindow::chooseSessionRecording);
    m_recordSession->setObjectName(u"recordSession"_s);
    m_stopRecording = file->addAction(tr("S&top Recording"), this, &MainWindow::stopRecordingRequested);
    m_stopRecording->setObjectName(u"stopRecording"_s);
    m_stopRecording->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    m_helpMenu = menuBar()->addMenu(tr("&Help"));
    QMenu *help = m_helpMenu;
    help->addAction(tr("&About Cachescope"), this, &MainWindow::showAbout)->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setMenuRole(QAction::AboutQtRole);
}

QMenu *MainWindow::addMenu(const QString &title)
{
    auto *menu = new QMenu(title, menuBar());
    menuBar()->insertMenu(m_helpMenu->menuAction(), menu);
    return menu;
}

void MainWindow::chooseKubeconfig()
{
    const QString start = m_recentFiles->files().value(0, QDir::home().filePath(u".kube/config"_s));
    // A non-native dialog: the native one may run a nested event loop in another process's
    // portal and ignores our translations.
    auto *dialog = new QFileDialog(this, tr("Open Kubeconfig"), QFileInfo(start).absolutePath());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setNameFilters({tr("Kubeconfig files (config *.yaml *.yml *.conf *.kubeconfig)"), tr("All files (*)")});
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        m_recentFiles->addFile(path);
        Q_EMIT kubeconfigRequested(path);
    });
    dialog->open();
}

void MainWindow::chooseRecording()
{
    auto *dialog = new QFileDialog(this, tr("Open Recording"), QDir::homePath());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setNameFilters({tr("Recordings (*.cachescope *.db *.sqlite)"), tr("All files (*)")});
    connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::recordingRequested);
    dialog->open();
}

void MainWindow::chooseSessionRecording()
{
    auto *dialog = new QFileDialog(this, tr("Record Session"), QDir::homePath());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setDefaultSuffix(u"cachescope"_s);
    // A recording is never written over an older one (RecordingWriter refuses an existing file),
    // so the dialog must not offer to replace it.
    dialog->setOption(QFileDialog::DontConfirmOverwrite);
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->setNameFilters({tr("Recordings (*.cachescope *.db *.sqlite)"), tr("All files (*)")});
    connect(dialog, &QFileDialog::fileSelected, this, &MainWindow::recordSessionRequested);
    dialog->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this,
                       tr("About Cachescope"),
                       tr("<h3>Cachescope %1</h3>"
                          "<p>Explore a Kubernetes cluster through its informer cache: the Reflector, DeltaFIFO, "
                          "Indexer and WorkQueue of client-go, live.</p>"
                          "<p>Licensed under the Apache License, Version 2.0.</p>")
                           .arg(version()));
}

void MainWindow::restoreWindowState()
{
    QSettings settings;
    if (restoreGeometry(settings.value(u"mainWindow/geometry"_s).toByteArray())) {
        restoreState(settings.value(u"mainWindow/state"_s).toByteArray());
        return;
    }
    // First start: most of the screen, and most of the window for the table, the side panes
    // narrow until the user widens them.
    if (const QScreen *screen = this->screen()) {
        const QRect available = screen->availableGeometry();
        const QSize size = available.size() * FirstStartScreenShare;
        setGeometry(QStyle::alignedRect(layoutDirection(), Qt::AlignCenter, size, available));
    }
    QList<QDockWidget *> sideDocks;
    QList<int> widths;
    for (QDockWidget *dock : findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly)) {
        const Qt::DockWidgetArea area = dockWidgetArea(dock);
        if (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea) {
            sideDocks.append(dock);
            widths.append(int(width() * (area == Qt::LeftDockWidgetArea ? FirstStartLeftShare : FirstStartRightShare)));
        }
    }
    resizeDocks(sideDocks, widths, Qt::Horizontal);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(u"mainWindow/geometry"_s, saveGeometry());
    settings.setValue(u"mainWindow/state"_s, saveState());
    event->accept();
}

} // namespace Cachescope
