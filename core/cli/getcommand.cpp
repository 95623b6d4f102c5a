#include "core/cli/getcommand.h"

#include "core/cache/cluster.h"
#include "core/cache/indexfunctions.h"
#include "core/cache/informerfactory.h"
#include "core/cache/objectlist.h"
#include "core/cache/sharedindexinformer.h"
#include "core/cli/informersession.h"
#include "core/printers/objectlistwriter.h"
#include "core/printers/tableprinter.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QTextStream>
#include <QTimer>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

namespace {

// typeName() is how kubectl names an object's type in `-o name`: kind in lower case, with the
// group when there is one ("pod", "deployment.apps"). It is the resource's kind, not the
// object's: a metadata-only informer holds PartialObjectMetadata, which kubectl would never
// name, of the resource it watched.
QString typeName(const ApiResource &resource)
{
    const QString kind = resource.kind.toLower();
    const QString group = resource.gvr.group();
    return group.isEmpty() ? kind : kind + u'.' + group;
}

// labelsText() is kubectl's LABELS cell: key=value pairs sorted by key, comma-separated.
QString labelsText(const KubeObject &object)
{
    QStringList pairs;
    const auto labels = object.labels();
    for (const auto &label : labels) {
        pairs << label.first + u'=' + label.second;
    }
    return pairs.isEmpty() ? u"<none>"_s : pairs.join(u',');
}

// printTable() prints kubectl's table: NAMESPACE first with -A, then the columns of priority 0
// and, with -o wide, the others; a missing value is <none>; then the -L label columns (a missing
// label is an empty cell); with --show-labels, LABELS last. With
// several resources, kubectl names each object with its type ("pod/web-1"): a non-empty type.
void printTable(const QList<KubeObject> &objects, const ResourceColumns &columns, const GetCommand::Options &options, const QString &type, QTextStream &out)
{
    const bool wide = options.output == GetCommand::Output::Wide;
    QList<qsizetype> shown;
    for (int pass = 0; pass < (wide ? 2 : 1); ++pass) {
        for (qsizetype i = 0; i < columns.count(); ++i) {
            const ResourceColumns::Column &column = columns.column(i);
            if (column.field != ResourceColumns::Field::Namespace && column.field != ResourceColumns::Field::Label && (column.priority == 0) == (pass == 0)) {
                shown.append(i);
            }
        }
    }
    for (qsizetype i = 0; i < columns.count(); ++i) {
        if (columns.column(i).field == ResourceColumns::Field::Label) {
            shown.append(i);
        }
    }
    QStringList headers;
    if (options.request.allNamespaces) {
        headers << u"NAMESPACE"_s;
    }
    for (const qsizetype i : std::as_const(shown)) {
        const ResourceColumns::Column &column = columns.column(i);
        headers << (column.field == ResourceColumns::Field::Label ? ResourceColumns::labelHeader(column.labelKey) : column.title.toUpper());
    }
    if (options.showLabels) {
        headers << u"LABELS"_s;
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
            if (!type.isEmpty() && columns.column(i).field == ResourceColumns::Field::Name) {
                row << type + u'/' + object.name();
                continue;
            }
            const bool label = columns.column(i).field == ResourceColumns::Field::Label;
            row << (value.isValid() || label || !columns.column(i).emptyText.isEmpty() ? columns.displayText(i, value, now) : u"<none>"_s);
        }
        if (options.showLabels) {
            row << labelsText(object);
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
    parser.addOption(QCommandLineOption(u"show-labels"_s, u"Add a LABELS column to the table, as kubectl does."_s));
    parser.addOption(
        QCommandLineOption({u"L"_s, u"label-columns"_s}, u"Label keys to print as columns, comma-separated; may be repeated (kubectl's -L)."_s, u"key,key"_s));
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
    options.showLabels = parser.isSet(u"show-labels"_s);
    for (const QString &keys : parser.values(u"L"_s)) {
        options.labelColumns.append(keys.split(u',', Qt::SkipEmptyParts));
    }
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
    // As kubectl: a list the server refuses (401, 403, 404) is an answer, not a reason to retry.
    m_session->setFailFast(true);
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
    const bool anyGroup = std::any_of(m_session->targets().cbegin(), m_session->targets().cend(), [](const InformerSession::Target &target) {
        return !target.resource.gvr.group().isEmpty();
    });
    // A metadata-only table has no printer columns to fill (ResourceColumns' generic ones).
    if ((m_options.output != Output::Table && m_options.output != Output::Wide) || !anyGroup || m_options.request.metadataOnly) {
        return false;
    }
    Cluster *cluster = m_session->cluster();
    m_crds = cluster->informerOf(ResourceColumns::CrdResource);
    if (m_crds == nullptr) {
        return false;
    }
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
    const QList<InformerSession::Target> &targets = m_session->targets();
    bool printed = true;
    if (targets.size() == 1) {
        const ApiResource &resource = targets.constFirst().resource;
        printed = print(*targets.constFirst().informer, resource, columnsOf(resource), m_options, m_out, m_err);
    } else {
        printed = printSeveral(targets);
    }
    m_out.flush();
    Q_EMIT finished(printed ? 0 : 1);
}

ResourceColumns GetCommand::columnsOf(const ApiResource &resource) const
{
    // PartialObjectMetadata has no spec or status: a pod's READY or STATUS would be made up.
    // kubectl, for a kind it has no columns for, prints NAME and AGE (NAMESPACE with -A).
    ResourceColumns columns;
    if (m_options.request.metadataOnly) {
        columns = ResourceColumns::forKind(QString(), resource.namespaced);
    } else {
        const QList<ResourceColumns::PrinterColumn> printerColumns =
            m_crds != nullptr && m_crds->hasSynced() ? ResourceColumns::printerColumnsIn(m_crds->indexer(), resource) : QList<ResourceColumns::PrinterColumn>();
        columns = ResourceColumns::forResource(resource, printerColumns);
    }
    columns.addLabelColumns(m_options.labelColumns);
    return columns;
}

bool GetCommand::printSeveral(const QList<InformerSession::Target> &targets)
{
    // kubectl prints one table per resource, in the order given, a blank line between them, and
    // one list (or one line per object) for the other outputs.
    QList<QList<KubeObject>> objects;
    for (const InformerSession::Target &target : targets) {
        const auto selected = selectedObjects(*target.informer, m_options, m_err);
        if (!selected) {
            return false;
        }
        objects.append(*selected);
    }
    const bool table = m_options.output == Output::Table || m_options.output == Output::Wide;
    if (m_options.output == Output::Name) {
        for (qsizetype i = 0; i < targets.size(); ++i) {
            printObjects(objects.at(i), typeName(targets.at(i).resource), m_options, m_out);
        }
        return true;
    }
    if (!table) {
        QList<KubeObject> all;
        for (const QList<KubeObject> &some : std::as_const(objects)) {
            all.append(some);
        }
        printObjects(all, QString(), m_options, m_out);
        return true;
    }
    bool first = true;
    for (qsizetype i = 0; i < targets.size(); ++i) {
        if (objects.at(i).isEmpty()) {
            continue;
        }
        if (!first) {
            m_out << '\n';
        }
        first = false;
        printTable(objects.at(i), columnsOf(targets.at(i).resource), m_options, typeName(targets.at(i).resource), m_out);
    }
    if (first) {
        printNoResources(m_options, m_err);
    }
    return true;
}

GetCommand::~GetCommand() = default;

void GetCommand::start()
{
    m_session->start();
}

std::optional<QList<KubeObject>> GetCommand::selectedObjects(SharedIndexInformer &informer, const Options &options, QTextStream &err)
{
    if (options.indexName.isEmpty()) {
        return sortedForListing(informer.indexer().list());
    }
    if (!informer.indexer().hasIndex(options.indexName)) {
        const auto function = indexFunctionForName(options.indexName);
        QString error;
        if (!function) {
            err << "error: --index: no index named \"" << options.indexName << "\" (built in: namespace, node, owner, label:<key>, field:<path>)" << Qt::endl;
            return std::nullopt;
        }
        // The CLI's informer is its own: adding an index to it changes no one else's.
        if (!informer.addIndexers({{options.indexName, *function}}, &error)) {
            err << "error: --index: " << error << Qt::endl;
            return std::nullopt;
        }
    }
    return sortedForListing(informer.indexer().byIndex(options.indexName, options.indexValue));
}

void GetCommand::printNoResources(const Options &options, QTextStream &err)
{
    err << (options.request.allNamespaces || options.request.namespaceName.isEmpty()
                ? u"No resources found"_s
                : u"No resources found in %1 namespace."_s.arg(options.request.namespaceName))
        << Qt::endl;
}

void GetCommand::printObjects(const QList<KubeObject> &objects, const QString &type, const Options &options, QTextStream &out)
{
    switch (options.output) {
    case Output::Table:
    case Output::Wide:
        break;
    case Output::Name:
        for (const KubeObject &object : objects) {
            out << type << '/' << object.name() << '\n';
        }
        break;
    case Output::Json:
    case Output::Yaml: {
        ObjectListWriter writer(out, options.output == Output::Json ? ObjectListWriter::Format::Json : ObjectListWriter::Format::Yaml);
        for (const KubeObject &object : objects) {
            writer.write(object);
        }
        writer.finish();
        break;
    }
    }
}

bool GetCommand::print(
    SharedIndexInformer &informer, const ApiResource &resource, const ResourceColumns &columns, const Options &options, QTextStream &out, QTextStream &err)
{
    const auto objects = selectedObjects(informer, options, err);
    if (!objects) {
        return false;
    }
    if (options.output != Output::Table && options.output != Output::Wide) {
        printObjects(*objects, typeName(resource), options, out);
        return true;
    }
    if (objects->isEmpty()) {
        printNoResources(options, err);
        return true;
    }
    printTable(*objects, columns, options, QString(), out);
    return true;
}

} // namespace Cachescope
