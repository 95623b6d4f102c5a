#include "core/cli/contextscommand.h"

#include "core/printers/tableprinter.h"

#include <QTextStream>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

int ContextsCommand::run(const Kubeconfig &config, QTextStream &out, QTextStream &err)
{
    for (const KubeconfigError &error : config.errors()) {
        err << "error: " << error.toString() << '\n';
    }
    TablePrinter table({u"CURRENT"_s, u"NAME"_s, u"CLUSTER"_s, u"AUTHINFO"_s, u"NAMESPACE"_s, u"FILE"_s});
    const QList<ContextConfig> contexts = config.contexts();
    for (const ContextConfig &context : contexts) {
        const bool current = !context.shadowed && context.name == config.currentContext();
        table.addRow({current ? u"*"_s : QString(),
                      context.name,
                      context.cluster,
                      context.user,
                      context.ns,
                      context.shadowed ? context.file + u" (shadowed)"_s : context.file});
    }
    if (!contexts.isEmpty()) {
        table.print(out);
    }
    out.flush();
    err.flush();
    return config.hasErrors() ? 1 : 0;
}

} // namespace Cachescope
