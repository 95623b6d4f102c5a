#include "core/controller/ownerreferencecheck.h"

#include "core/cache/indexer.h"

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

OwnerReferenceCheck::OwnerReferenceCheck(OwnerLookup lookup)
    : m_lookup(std::move(lookup))
{
}

QString OwnerReferenceCheck::name() const
{
    return u"owner-references"_s;
}

ProcessResult OwnerReferenceCheck::process(const QString &key, const KubeObject &object, const ProcessContext &context)
{
    Q_UNUSED(key)
    Q_UNUSED(context)
    if (!object.isValid() || !m_lookup) {
        return ProcessResult::ok();
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<Finding> findings;
    for (const KubeObject::OwnerReference &reference : object.ownerReferences()) {
        const std::optional<KubeObject> owner = m_lookup(object.namespaceName(), reference);
        if (!owner) {
            continue;
        }
        if (!owner->isValid()) {
            findings.append(Finding{FindingSeverity::Warning,
                                    u"DanglingOwner"_s,
                                    u"owner %1 %2 (uid %3) does not exist"_s.arg(reference.kind, reference.name, reference.uid),
                                    now});
        } else if (owner->uid() != reference.uid) {
            findings.append(
                Finding{FindingSeverity::Warning,
                        u"DanglingOwner"_s,
                        u"owner %1 %2 was replaced: it has uid %3, the reference names %4"_s.arg(reference.kind, reference.name, owner->uid(), reference.uid),
                        now});
        }
    }
    return ProcessResult::ok(findings);
}

OwnerLookup OwnerReferenceCheck::lookupIn(const QHash<QString, const Indexer *> &indexersByKind)
{
    return [indexersByKind](const QString &namespaceName, const KubeObject::OwnerReference &owner) -> std::optional<KubeObject> {
        const Indexer *indexer = indexersByKind.value(owner.kind);
        if (!indexer) {
            return std::nullopt;
        }
        // A namespaced dependent's owner is in its namespace or cluster-scoped (a Node owns a
        // static pod's mirror); the reference does not say which, the key tells.
        if (!namespaceName.isEmpty()) {
            if (KubeObject found = indexer->getByKey(namespaceName + u'/' + owner.name); found.isValid()) {
                return found;
            }
        }
        return indexer->getByKey(owner.name);
    };
}

ControllerInfo OwnerReferenceCheck::info()
{
    ControllerInfo info;
    info.name = u"owner-references"_s;
    info.description = QStringLiteral(QT_TRANSLATE_NOOP("Cachescope::Controller", "Objects whose ownerReferences point to an owner that does not exist."));
    info.resource = u"pods"_s;
    info.needsOwnerLookup = true;
    return info;
}

std::unique_ptr<ProcessFunction> OwnerReferenceCheck::create(const ProcessFunctionParameters &parameters, QString *error)
{
    if (!parameters.ownerLookup) {
        if (error) {
            *error = u"owner-references needs the informers of the owners' kinds"_s;
        }
        return nullptr;
    }
    return std::make_unique<OwnerReferenceCheck>(parameters.ownerLookup);
}

} // namespace Cachescope
