#include "core/cli/getcommand.h"

#include "core/cache/cluster.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/informerfactory.h"
#include "core/cache/objectlist.h"
#include "core/cache/sharedindexinformer.h"
#include "core/cli/informersession.h"
#include "core/cli/tableprinter.h"
#include "core/kube/jsontoyaml.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// typeName() is how kubectl names an object's type in `-o name`: kind in lower case, with the
// group when there is one ("pod", "deployment.apps").
QString typeName(const KubeObject &object)
{
    const QString apiVersion = object.apiVersion();
    const qsizetype slash = apiVersion.indexOf(u'/');
    const QString kind = object.kind().toLower();
    return slash < 0 ? kind : kind + u'.' + apiVersion.left(slash);
}

// printTable() prints kubectl's table: NAMESPACE first with -A, then the columns of priority 0
// and, with -o wide, the others; a missing value is <none>.
void printTable(const QList<KubeObject> &objects, const ResourceColumns &columns, const GetCommand::Options &options, QTextStream &out)
{
    const bool wide = options.output == GetCommand::Output::Wide;
    QList<qsizetype> shown;
    for (int pass = 0; pass < (wide ? 2 : 1); ++pass) {
        for (qsizetype i = 0; i < columns.count(); ++i) {
            const ResourceColumns::Column &column = columns.column(i);
            if (column.field != ResourceColumns::Field::Namespace && (column.priority == 0) == (pass == 0)) {
                shown.append(i);
            }
        }
    }
    QStringList headers;
    if (options.request.allNamespaces) {
        headers << u"NAMESPACE"_s;
    }
    for (const qsizetype i : std::as_const(shown)) {
        headers << columns.column(i).title.toUpper();
    }
    TablePrinter table(headers);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const KubeObject &object : objects) {
        const QList<QVariant> values = columns.values(object);
        QStringList row;
        if (options.request.allNamespaces) {
            row << object.namespaceName();
        }
        for (const qsizetype i : std::as_const(shown)) {
            const QVariant &value = values.at(i);
            row << (value.isValid() || !columns.column(i).emptyText.isEmpty() ? columns.displayText(i, value, now) : u"<none>"_s);
        }
        table.addRow(row);
    }
    table.print(out);
}

} // namespace

void GetCommand::addOptions(QCommandLineParser &parser)
{
    parser.addOptions(InformerRequest::options());
    parser.addOption(QCommandLineOption({u"o"_s, u"output"_s}, u"Output format: name, wide, json or yaml (default: a table)."_s, u"format"_s));
    parser.addOption(QCommandLineOption(
        u"index"_s, u"Only objects under this value of an informer index (e.g. node=node-1, label:app=web, field:status.phase=Running)."_s, u"name=value"_s));
}

std::optional<GetCommand::Options> GetCommand::fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage)
{
    const auto request = InformerRequest::fromParser(parser, resource, errorMessage);
    if (!request) {
        return std::nullopt;
    }
    Options options;
    options.request = *request;
    const QString output = parser.value(u"o"_s);
    static const QHash<QString, Output> outputs{
        {QString(), Output::Table}, {u"wide"_s, Output::Wide}, {u"name"_s, Output::Name}, {u"json"_s, Output::Json}, {u"yaml"_s, Output::Yaml}};
    if (!outputs.contains(output)) {
        *errorMessage = u"-o: unknown output format \"%1\" (name, wide, json, yaml)"_s.arg(output);
        return std::nullopt;
    }
    options.output = outputs.value(output);
    if (parser.isSet(u"index"_s)) {
        const QString index = parser.value(u"index"_s);
        // The value may itself contain '=', the index name (label:x, field:a.b) never does.
        const qsizetype equals = index.indexOf(u'=');
        if (equals <= 0) {
            *errorMessage = u"--index: expected NAME=VALUE, got \"%1\""_s.arg(index);
            return std::nullopt;
        }
        options.indexName = index.left(equals);
        options.indexValue = index.mid(equals + 1);
    }
    return options;
}

GetCommand::GetCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent)
    : QObject(parent)
    , m_options(options)
    , m_out(out)
    , m_err(err)
    , m_session(std::make_unique<InformerSession>(config, context, options.request, err))
{
    connect(m_session.get(), &InformerSession::failed, this, [this](const QString &message) {
        m_err << "error: " << message << Qt::endl;
        Q_EMIT finished(1);
    });
    connect(m_session.get(), &InformerSession::ready, this, [this] {
        m_options.request = m_session->request();
        if (!waitForPrinterColumns()) {
            finish();
        }
    });
}

bool GetCommand::waitForPrinterColumns()
{
    const ApiResource &resource = m_session->resource();
    if ((m_options.output != Output::Table && m_options.output != Output::Wide) || resource.gvr.group().isEmpty()) {
        return false;
    }
    Cluster *cluster = m_session->cluster();
    const auto crds = cluster->discovery().resolve(u"customresourcedefinitions.apiextensions.k8s.io"_s);
    const ApiResource *crdResource = std::get_if<ApiResource>(&crds);
    if (crdResource == nullptr || !crdResource->supports(u"list"_s) || !crdResource->supports(u"watch"_s)) {
        return false;
    }
    InformerKey key;
    key.resource = *crdResource;
    m_crds = cluster->informers()->informer(key);
    cluster->informers()->start();
    if (m_crds->hasSynced()) {
        return false;
    }
    connect(m_crds, &SharedIndexInformer::synced, this, &GetCommand::finish);
    // The request's timeout bounds this sync too; without the CRDs, the table has kubectl's
    // columns for a resource without printer columns.
    QTimer::singleShot(m_options.request.timeout, this, [this] {
        if (!m_finished) {
            m_err << "warning: the CustomResourceDefinitions did not sync in time: the table lacks the printer columns" << Qt::endl;
            finish();
        }
    });
    return true;
}

void GetCommand::finish()
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    const ApiResource &resource = m_session->resource();
    const QList<ResourceColumns::PrinterColumn> printerColumns =
        m_crds != nullptr && m_crds->hasSynced() ? ResourceColumns::printerColumnsIn(m_crds->indexer(), resource) : QList<ResourceColumns::PrinterColumn>();
    const bool printed = print(*m_session->informer(), ResourceColumns::forResource(resource, printerColumns), m_options, m_out, m_err);
    m_out.flush();
    Q_EMIT finished(printed ? 0 : 1);
}

GetCommand::~GetCommand() = default;

void GetCommand::start()
{
    m_session->start();
}

bool GetCommand::print(SharedIndexInformer &informer, const ResourceColumns &columns, const Options &options, QTextStream &out, QTextStream &err)
{
    QList<KubeObject> objects;
    if (options.indexName.isEmpty()) {
        objects = informer.indexer().list();
    } else {
        if (!informer.indexer().hasIndex(options.indexName)) {
            const auto function = indexFunctionForName(options.indexName);
            QString error;
            if (!function) {
                err << "error: --index: no index named \"" << options.indexName << "\" (built in: namespace, node, owner, label:<key>, field:<path>)"
                    << Qt::endl;
                return false;
            }
            // The CLI's informer is its own: adding an index to it changes no one else's.
            if (!informer.addIndexers({{options.indexName, *function}}, &error)) {
                err << "error: --index: " << error << Qt::endl;
                return false;
            }
        }
        objects = informer.indexer().byIndex(options.indexName, options.indexValue);
    }
    objects = sortedForListing(objects);

    switch (options.output) {
    case Output::Table:
    case Output::Wide:
        if (objects.isEmpty()) {
            err << (options.request.allNamespaces || options.request.namespaceName.isEmpty()
                        ? u"No resources found"_s
                        : u"No resources found in %1 namespace."_s.arg(options.request.namespaceName))
                << Qt::endl;
            return true;
        }
        printTable(objects, columns, options, out);
        return true;
    case Output::Name:
        for (const KubeObject &object : std::as_const(objects)) {
            out << typeName(object) << '/' << object.name() << '\n';
        }
        return true;
    case Output::Json:
        out << QJsonDocument::fromJson(objectListJson(objects)).toJson(QJsonDocument::Indented);
        return true;
    case Output::Yaml:
        out << jsonToYaml(QJsonDocument::fromJson(objectListJson(objects)).object());
        return true;
    }
    return false;
}

} // namespace Cachescope
