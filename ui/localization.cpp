#include "ui/localization.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

bool installTranslations(QCoreApplication &app, const QLocale &locale)
{
    if (locale.language() == QLocale::English || locale.language() == QLocale::C) {
        return true;
    }
    auto *own = new QTranslator(&app);
    if (!own->load(locale, u"cachescope"_s, u"_"_s, u":/i18n"_s)) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);

    // Qt's catalogue translates the standard dialogs and context menus; a missing one is
    // not an error (it comes from qt6-translations-l10n).
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
    } else {
        delete qt;
    }
    return true;
}

} // namespace Cachescope
