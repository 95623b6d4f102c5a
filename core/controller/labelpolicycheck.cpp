#include "core/controller/labelpolicycheck.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

LabelPolicyCheck::LabelPolicyCheck(const QStringList &requiredKeys)
    : m_required(requiredKeys)
{
}

QString LabelPolicyCheck::name() const
{
    return u"label-policy"_s;
}

ProcessResult LabelPolicyCheck::process(const QString &key, const KubeObject &object, const ProcessContext &context)
{
    Q_UNUSED(key)
    Q_UNUSED(context)
    if (!object.isValid()) {
        return ProcessResult::ok();
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<Finding> findings;
    for (const QString &required : m_required) {
        if (!object.label(required)) {
            findings.append(Finding{FindingSeverity::Warning, u"MissingLabel"_s, u"label \"%1\" is missing"_s.arg(required), now});
        }
    }
    return ProcessResult::ok(findings);
}

ControllerInfo LabelPolicyCheck::info()
{
    ControllerInfo info;
    info.name = u"label-policy"_s;
    info.description = QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "Objects that lack any of the required label keys."));
    info.parameters = {
        {u"required"_s, QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "comma-separated label keys every object must have")), u"app"_s}};
    return info;
}

std::unique_ptr<ProcessFunction> LabelPolicyCheck::create(const ProcessFunctionParameters &parameters, QString *error)
{
    const QStringList required = parameters.list(u"required"_s, {u"app"_s});
    if (required.isEmpty()) {
        if (error) {
            *error = u"label-policy needs at least one required label key"_s;
        }
        return nullptr;
    }
    return std::make_unique<LabelPolicyCheck>(required);
}

} // namespace Cachescope
