#pragma once

#include "core/cli/informerrequest.h"
#include "core/cli/informersession.h"
#include "core/kube/kubeconfig.h"
#include "core/printers/resourcecolumns.h"

#include <QObject>

#include <memory>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class SharedIndexInformer;

// GetCommand is `cachescope-cli get RESOURCE[,RESOURCE…] [-n NS | -A] [-l SEL] [--field-selector SEL]
// [--index NAME=VALUE] [-o name|wide|json|yaml] [--show-labels] [-L key,…] [--metadata-only]`: it syncs an informer of each resource and
// prints from its cache — never from a separate list request — so what it prints is what an
// informer holds. `--index` answers from one of the informer's indexes (ByIndex), adding the
// index first when it is a built-in name (`label:app`, `field:spec.nodeName`, ...). Output is
// kubectl's: a table with the columns kubectl prints (ResourceColumns, the app's own; `-o wide`
// adds the wide ones, e.g. a pod's IP and NODE; a custom resource's are its CRD's
// additionalPrinterColumns, read from an informer of CustomResourceDefinitions), `kind/name`
// lines, or a `v1` `List` in JSON or YAML; several resources print one table each (names as
// `kind/name`) or one list, as kubectl does. With --metadata-only the table has what kubectl
// prints for a kind it has no columns for (NAME, NAMESPACE with -A, AGE) and names are the
// resource's kind (`pod/web-1`), not PartialObjectMetadata's; --show-labels adds LABELS. A list the server refuses (401, 403, 404) fails at
// once with the server's message. Asynchronous: start(), finished(code).
class GetCommand final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GetCommand)

public:
    enum class Output { Table, Wide, Name, Json, Yaml };

    struct Options
    {
        InformerRequest request;
        Output output = Output::Table;
        QString indexName; // with indexValue: print only the objects under this index value
        QString indexValue;
        bool showLabels = false; // a LABELS column last in tables
        QStringList labelColumns; // -L: a column per label key, after the others
    };

    // addOptions() adds get's own options (the informer ones included) to a parser;
    // fromParser() reads them back, or returns nothing and sets *errorMessage.
    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);

    GetCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~GetCommand() override;

    void start();

    // print() writes the informer's objects (or those under the index value) in the chosen form;
    // tables have `columns`, `-o name` names them as objects of `resource`.
    [[nodiscard]] static bool print(
        SharedIndexInformer &informer, const ApiResource &resource, const ResourceColumns &columns, const Options &options, QTextStream &out, QTextStream &err);

Q_SIGNALS:
    void finished(int exitCode);

private:
    // waitForPrinterColumns() starts an informer of CRDs when a table of a resource with a group
    // is asked for; true when printing waits for it to sync.
    bool waitForPrinterColumns();
    void finish();
    ResourceColumns columnsOf(const ApiResource &resource) const;
    bool printSeveral(const QList<InformerSession::Target> &targets);
    // selectedObjects() are the informer's objects (or those under the index value), sorted as
    // kubectl lists them; nothing when the index cannot be made (said on err).
    [[nodiscard]] static std::optional<QList<KubeObject>> selectedObjects(SharedIndexInformer &informer, const Options &options, QTextStream &err);
    // printObjects() writes the non-table outputs; `-o name` lines start with type ("pod").
    static void printObjects(const QList<KubeObject> &objects, const QString &type, const Options &options, QTextStream &out);
    static void printNoResources(const Options &options, QTextStream &err);

    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<InformerSession> m_session;
    SharedIndexInformer *m_crds = nullptr; // owned by the session's cluster
    bool m_finished = false;
};

} // namespace Cachescope
