#pragma once

#include <QLocale>

class QCoreApplication;

namespace Cachescope {

// installTranslations() loads Cachescope's catalogue for `locale` (compiled into cachescope-ui
// as ":/i18n/cachescope_LANG.qm") and Qt's own catalogue for the same language from the
// system's Qt translations, and installs both on `app`, which owns them.
// English is the source language and needs no catalogue: then it installs nothing and
// returns true. Returns false when Cachescope has no catalogue for the language.
bool installTranslations(QCoreApplication &app, const QLocale &locale);

} // namespace Cachescope
