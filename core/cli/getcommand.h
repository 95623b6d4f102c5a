#pragma once

#include "core/cli/informerrequest.h"
#include "core/kube/kubeconfig.h"

#include <QObject>

#include <memory>

class QCommandLineParser;
class QTextStream;

namespace Cachescope {

class InformerSession;
class SharedIndexInformer;

// GetCommand is `cachescope-cli get RESOURCE [-n NS | -A] [-l SEL] [--field-selector SEL]
// [--index NAME=VALUE] [-o name|wide|json|yaml]`: it syncs an informer of the resource and
// prints from its cache — never from a separate list request — so what it prints is what an
// informer holds. `--index` answers from one of the informer's indexes (ByIndex), adding the
// index first when it is a built-in name (`label:app`, `field:spec.nodeName`, ...). Output is
// kubectl's: a table (pods with READY, STATUS, RESTARTS, AGE; `-o wide` adds IP and NODE),
// `kind/name` lines, or a `v1` `List` in JSON or YAML. Asynchronous: start(), finished(code).
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
    };

    // addOptions() adds get's own options (the informer ones included) to a parser;
    // fromParser() reads them back, or returns nothing and sets *errorMessage.
    static void addOptions(QCommandLineParser &parser);
    [[nodiscard]] static std::optional<Options> fromParser(const QCommandLineParser &parser, const QString &resource, QString *errorMessage);

    GetCommand(const Kubeconfig &config, const QString &context, const Options &options, QTextStream &out, QTextStream &err, QObject *parent = nullptr);
    ~GetCommand() override;

    void start();

    // print() writes the informer's objects (or those under the index value) in the chosen form.
    [[nodiscard]] static bool print(SharedIndexInformer &informer, const Options &options, QTextStream &out, QTextStream &err);

Q_SIGNALS:
    void finished(int exitCode);

private:
    Options m_options;
    QTextStream &m_out;
    QTextStream &m_err;
    std::unique_ptr<InformerSession> m_session;
};

} // namespace Cachescope
