// cachescope: the desktop explorer.
#include "core/version.h"
#include "ui/localization.h"
#include "ui/widgets/mainwindow.h"
#include "ui/widgets/objectview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QStatusBar>

#include <cstdio>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"Cachescope"_s);
    QApplication::setApplicationName(u"cachescope"_s);
    QApplication::setApplicationDisplayName(u"Cachescope"_s);
    QApplication::setApplicationVersion(Cachescope::version());
    QApplication::setDesktopFileName(u"io.github.cachescope.Cachescope"_s);

    QCommandLineParser parser;
    parser.setApplicationDescription(u"Explore a Kubernetes cluster through its informer cache."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(u"demo"_s, u"Explore a simulated cluster started in-process."_s);
    const QCommandLineOption lang(u"lang"_s, u"Language of the interface, e.g. zh_CN (default: the system's)."_s, u"LANG"_s);
    const QCommandLineOption kubeconfig(u"kubeconfig"_s, u"Kubeconfig file to open."_s, u"FILE"_s);
    parser.addOptions({demo, lang, kubeconfig});
    parser.process(app);

    const QLocale locale = parser.isSet(lang) ? QLocale(parser.value(lang)) : QLocale::system();
    if (!Cachescope::installTranslations(app, locale) && parser.isSet(lang)) {
        std::fprintf(stderr, "cachescope: no translation for %s, using English\n", qPrintable(parser.value(lang)));
    }

    Cachescope::MainWindow window;
    window.restoreWindowState();
    if (parser.isSet(demo)) {
        QFile sample(u":/samples/pod.json"_s);
        if (sample.open(QIODevice::ReadOnly)) {
            window.objectView()->setObject(sample.readAll());
        }
        window.statusBar()->showMessage(QCoreApplication::translate("main", "Demo: a sample object"));
    }
    window.show();
    return QApplication::exec();
}
