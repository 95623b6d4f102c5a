#pragma once

#include "core/controller/controllerinfo.h"
#include "core/controller/processfunction.h"
#include "core/controller/processfunctionparameters.h"

#include <QHash>

#include <memory>

namespace Cachescope {

class Indexer;

// OwnerReferenceCheck is the `owner-references` process function: it reports DanglingOwner
// (warning) for each ownerReference of an object whose owner does not exist in the owners'
// cache, or exists with another uid (it was deleted and made again: the reference still points
// to the old one). In the simulated cluster (and in a real one) pods are owned by ReplicaSets
// and ReplicaSets by Deployments; deleting an owner with propagationPolicy=Orphan leaves its
// dependents dangling, which is what the garbage collector would clean up.
// References whose kind the OwnerLookup cannot judge (std::nullopt) are skipped.
// Freshness: findings are as fresh as the owners' informers; an owner created a moment before
// its dependent may be reported until the dependent is processed again (resync, next change).
// Read-only; thread-safe as its lookup is.
class OwnerReferenceCheck final : public ProcessFunction
{
public:
    explicit OwnerReferenceCheck(OwnerLookup lookup);

    [[nodiscard]] QString name() const override;
    [[nodiscard]] ProcessResult process(const QString &key, const KubeObject &object, const ProcessContext &context) override;

    // lookupIn() answers from the indexers of the owners' informers, by owner kind ("ReplicaSet");
    // kinds not in the map are not judged. The indexers must outlive the lookup (they belong to
    // informers that outlive the controller).
    [[nodiscard]] static OwnerLookup lookupIn(const QHash<QString, const Indexer *> &indexersByKind);

    [[nodiscard]] static ControllerInfo info();
    [[nodiscard]] static std::unique_ptr<ProcessFunction> create(const ProcessFunctionParameters &parameters, QString *error);

private:
    const OwnerLookup m_lookup;
};

} // namespace Cachescope
