#include "core/cli/apiresourcescommand.h"

#include "core/kube/apiclient.h"
#include "core/kube/discovery.h"
#include "core/printers/tableprinter.h"

#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

ApiResourcesCommand::ApiResourcesCommand(const Kubeconfig &config, const QString &context, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_context(context)
    , m_out(out)
    , m_err(err)
{
}

ApiResourcesCommand::~ApiResourcesCommand() = default;

void ApiResourcesCommand::start()
{
    const auto resolved = m_config.commandRestConfig(m_context);
    if (const auto *errors = std::get_if<QList<KubeconfigError>>(&resolved)) {
        for (const KubeconfigError &error : *errors) {
            m_err << "error: " << error.toString() << '\n';
        }
        done(1);
        return;
    }
    m_client = std::make_unique<ApiClient>(std::get<RestConfig>(resolved));
    for (const QString &warning : m_client->warnings()) {
        m_err << "warning: " << warning << '\n';
    }
    m_discovery = new Discovery(m_client.get(), this);
    connect(m_discovery, &Discovery::finished, this, [this](const DiscoveryResult &result) {
        for (const QString &failed : result.failedGroupVersions) {
            m_err << "warning: unable to retrieve the complete list of server APIs: " << failed << '\n';
        }
        print(result, m_out);
        done(0);
    });
    connect(m_discovery, &Discovery::failed, this, [this](const ApiError &error) {
        m_err << "error: " << error.toString() << '\n';
        done(1);
    });
    m_discovery->start();
}

void ApiResourcesCommand::print(const DiscoveryResult &result, QTextStream &out)
{
    QList<ApiResource> resources = result.preferredResources();
    // Group order as discovered (core first); names sorted within a group, as kubectl prints.
    QStringList groupOrder;
    for (const ApiResource &resource : std::as_const(resources)) {
        if (!groupOrder.contains(resource.gvr.group())) {
            groupOrder.append(resource.gvr.group());
        }
    }
    std::stable_sort(resources.begin(), resources.end(), [&groupOrder](const ApiResource &a, const ApiResource &b) {
        const qsizetype ga = groupOrder.indexOf(a.gvr.group());
        const qsizetype gb = groupOrder.indexOf(b.gvr.group());
        return ga != gb ? ga < gb : a.gvr.resource() < b.gvr.resource();
    });
    TablePrinter table({u"NAME"_s, u"SHORTNAMES"_s, u"APIVERSION"_s, u"NAMESPACED"_s, u"KIND"_s});
    for (const ApiResource &resource : std::as_const(resources)) {
        table.addRow({resource.gvr.resource(),
                      resource.shortNames.join(u','),
                      resource.gvr.groupVersion(),
                      resource.namespaced ? u"true"_s : u"false"_s,
                      resource.kind});
    }
    table.print(out);
}

void ApiResourcesCommand::done(int exitCode)
{
    m_out.flush();
    m_err.flush();
    // Reported from the event loop so that a caller connecting after start() still hears it.
    QTimer::singleShot(0, this, [this, exitCode] { Q_EMIT finished(exitCode); });
}

} // namespace Cachescope
