#pragma once

#include <QJsonArray>
#include <QString>
#include <QStringView>

namespace Cachescope {

// conditionStatus() is the status ("True", "False", "Unknown") of the condition of that type in
// an object's status.conditions, or an empty string when it has none: how kubectl's printers read
// a Node's Ready, a Job's Complete or a Pod's Ready.
[[nodiscard]] QString conditionStatus(const QJsonArray &conditions, QStringView type);

} // namespace Cachescope
