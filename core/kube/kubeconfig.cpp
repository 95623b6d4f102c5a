#include "core/kube/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

#include <yaml-cpp/yaml.h>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope {

QString KubeconfigError::toString() const
{
    QString where = file;
    if (line > 0) {
        where += u':' + QString::number(line);
        if (column > 0) {
            where += u':' + QString::number(column);
        }
    }
    return where.isEmpty() ? message : where + u": "_s + message;
}

namespace {

// FileParser turns one file's YAML tree into entries, collecting every problem instead of
// stopping at the first, so a user fixing a file sees all of them at once. yaml-cpp reports
// through exceptions; they are all caught in here and never leave the class.
class FileParser
{
public:
    FileParser(QString file, QList<KubeconfigError> *errors)
        : m_file(std::move(file))
        , m_dir(QFileInfo(m_file).absolutePath())
        , m_errors(errors)
    {
    }

    QList<ClusterConfig> clusters;
    QList<UserConfig> users;
    QList<ContextConfig> contexts;
    QString currentContext;
    int currentContextLine = 0;

    void parse(const QByteArray &yaml)
    {
        YAML::Node root;
        try {
            root = YAML::Load(yaml.toStdString());
        } catch (const YAML::ParserException &e) {
            addError(e.mark, u"not valid YAML: "_s + QString::fromStdString(e.msg));
            return;
        } catch (const YAML::Exception &e) {
            addError(e.mark, u"cannot be read as YAML: "_s + QString::fromStdString(e.msg));
            return;
        }
        try {
            parseRoot(root);
        } catch (const YAML::Exception &e) {
            // Defensive: every access below checks types first, so this is a bug in here
            // rather than in the file; still, a kubeconfig must never crash the app.
            addError(e.mark, u"cannot be read: "_s + QString::fromStdString(e.msg));
        }
    }

private:
    void addError(const YAML::Mark &mark, const QString &message)
    {
        const bool known = !mark.is_null() && mark.line >= 0;
        m_errors->append({m_file, known ? mark.line + 1 : 0, known ? mark.column + 1 : 0, message});
    }
    void addError(const YAML::Node &node, const QString &message) { addError(node.Mark(), message); }

    static int lineOf(const YAML::Node &node)
    {
        const YAML::Mark mark = node.Mark();
        return mark.is_null() || mark.line < 0 ? 0 : mark.line + 1;
    }

    QString absolutePath(const QString &path) const
    {
        if (path.isEmpty()) {
            return path;
        }
        return QDir::cleanPath(QDir(m_dir).absoluteFilePath(path));
    }

    // readString() returns a scalar field, or an empty string (and an error when the field
    // is present but not a scalar).
    QString readString(const YAML::Node &map, const char *key, const QString &where)
    {
        const YAML::Node node = map[key];
        if (!node.IsDefined() || node.IsNull()) {
            return {};
        }
        if (!node.IsScalar()) {
            addError(node, where + u'.' + QLatin1String(key) + u": expected a string"_s);
            return {};
        }
        return QString::fromStdString(node.Scalar());
    }

    bool readBool(const YAML::Node &map, const char *key, const QString &where)
    {
        const YAML::Node node = map[key];
        if (!node.IsDefined() || node.IsNull()) {
            return false;
        }
        bool value = false;
        if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
            addError(node, where + u'.' + QLatin1String(key) + u": expected true or false"_s);
            return false;
        }
        return value;
    }

    QStringList readStringList(const YAML::Node &map, const char *key, const QString &where)
    {
        const YAML::Node node = map[key];
        QStringList result;
        if (!node.IsDefined() || node.IsNull()) {
            return result;
        }
        if (!node.IsSequence()) {
            addError(node, where + u'.' + QLatin1String(key) + u": expected a list of strings"_s);
            return result;
        }
        for (const YAML::Node &item : node) {
            if (!item.IsScalar()) {
                addError(item, where + u'.' + QLatin1String(key) + u": expected a list of strings"_s);
                continue;
            }
            result.append(QString::fromStdString(item.Scalar()));
        }
        return result;
    }

    // readData() decodes a base64 `*-data` field. The value itself never goes into a message.
    QByteArray readData(const YAML::Node &map, const char *key, const QString &where)
    {
        const QString text = readString(map, key, where);
        if (text.isEmpty()) {
            return {};
        }
        QByteArray compact = text.toLatin1();
        compact.replace('\n', QByteArray()).replace(' ', QByteArray()).replace('\r', QByteArray());
        auto decoded = QByteArray::fromBase64Encoding(compact, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded) {
            addError(map[key], where + u'.' + QLatin1String(key) + u": not valid base64"_s);
            return {};
        }
        return *decoded;
    }

    QUrl readUrl(const YAML::Node &map, const char *key, const QString &where)
    {
        const QString text = readString(map, key, where);
        if (text.isEmpty()) {
            return {};
        }
        const QUrl url(text, QUrl::StrictMode);
        if (!url.isValid() || url.scheme().isEmpty() || url.host().isEmpty()) {
            addError(map[key], where + u'.' + QLatin1String(key) + u": not a URL with a scheme and a host"_s);
            return {};
        }
        return url;
    }

    // forEachNamed() walks a `clusters:`/`users:`/`contexts:` list of {name, <body>} entries,
    // reporting missing names, missing bodies and names repeated within the file (client-go
    // refuses a file with those, so do we, entry by entry).
    template<typename Handler>
    void forEachNamed(const YAML::Node &root, const char *listKey, const char *bodyKey, Handler handler)
    {
        const YAML::Node list = root[listKey];
        if (!list.IsDefined() || list.IsNull()) {
            return;
        }
        const QString listName = QLatin1String(listKey);
        if (!list.IsSequence()) {
            addError(list, listName + u": expected a list"_s);
            return;
        }
        QSet<QString> seen;
        int index = 0;
        for (const YAML::Node &entry : list) {
            const QString where = listName + u'[' + QString::number(index++) + u']';
            if (!entry.IsMap()) {
                addError(entry, where + u": expected a map with name and "_s + QLatin1String(bodyKey));
                continue;
            }
            const QString name = readString(entry, "name", where);
            if (name.isEmpty()) {
                addError(entry, where + u": has no name"_s);
                continue;
            }
            const QString named = listName + u" \""_s + name + u'"';
            if (seen.contains(name)) {
                addError(entry, named + u": defined twice in this file"_s);
                continue;
            }
            seen.insert(name);
            const YAML::Node body = entry[bodyKey];
            if (!body.IsDefined() || body.IsNull()) {
                addError(entry, named + u": has no "_s + QLatin1String(bodyKey));
                continue;
            }
            if (!body.IsMap()) {
                addError(body, named + u'.' + QLatin1String(bodyKey) + u": expected a map"_s);
                continue;
            }
            handler(name, body, lineOf(entry), named + u'.' + QLatin1String(bodyKey));
        }
    }

    void parseRoot(const YAML::Node &root)
    {
        if (!root.IsDefined() || root.IsNull()) {
            return; // an empty file is an empty config, as for kubectl
        }
        if (!root.IsMap()) {
            addError(root, u"expected a kubeconfig (a map with clusters, users and contexts)"_s);
            return;
        }
        const QString kind = readString(root, "kind", u"kind"_s);
        if (!kind.isEmpty() && kind != u"Config"_s) {
            addError(root["kind"], u"kind: expected Config, found "_s + kind);
            return;
        }
        currentContext = readString(root, "current-context", u"current-context"_s);
        if (!currentContext.isEmpty()) {
            currentContextLine = lineOf(root["current-context"]);
        }

        forEachNamed(root, "clusters", "cluster", [this](const QString &name, const YAML::Node &body, int line, const QString &where) {
            ClusterConfig cluster;
            cluster.name = name;
            cluster.file = m_file;
            cluster.line = line;
            cluster.server = readUrl(body, "server", where);
            cluster.certificateAuthority = absolutePath(readString(body, "certificate-authority", where));
            cluster.certificateAuthorityData = readData(body, "certificate-authority-data", where);
            cluster.insecureSkipTlsVerify = readBool(body, "insecure-skip-tls-verify", where);
            cluster.tlsServerName = readString(body, "tls-server-name", where);
            cluster.proxyUrl = readUrl(body, "proxy-url", where);
            if (cluster.proxyUrl.isValid()) {
                static const QStringList schemes = {u"http"_s, u"https"_s, u"socks5"_s};
                if (!schemes.contains(cluster.proxyUrl.scheme())) {
                    addError(body["proxy-url"], where + u".proxy-url: scheme must be http, https or socks5"_s);
                    cluster.proxyUrl.clear();
                }
            }
            cluster.disableCompression = readBool(body, "disable-compression", where);
            clusters.append(cluster);
        });

        forEachNamed(root, "users", "user", [this](const QString &name, const YAML::Node &body, int line, const QString &where) {
            UserConfig user;
            user.name = name;
            user.file = m_file;
            user.line = line;
            user.clientCertificate = absolutePath(readString(body, "client-certificate", where));
            user.clientCertificateData = readData(body, "client-certificate-data", where);
            user.clientKey = absolutePath(readString(body, "client-key", where));
            user.clientKeyData = Secret(readData(body, "client-key-data", where));
            user.token = Secret::fromString(readString(body, "token", where));
            user.tokenFile = absolutePath(readString(body, "tokenFile", where));
            user.username = readString(body, "username", where);
            user.password = Secret::fromString(readString(body, "password", where));
            user.impersonate = readString(body, "as", where);
            user.impersonateUid = readString(body, "as-uid", where);
            user.impersonateGroups = readStringList(body, "as-groups", where);
            const YAML::Node extra = body["as-user-extra"];
            if (extra.IsDefined() && !extra.IsNull()) {
                if (!extra.IsMap()) {
                    addError(extra, where + u".as-user-extra: expected a map of lists"_s);
                } else {
                    for (auto it = extra.begin(); it != extra.end(); ++it) {
                        if (!it->first.IsScalar()) {
                            continue;
                        }
                        const std::string key = it->first.Scalar();
                        user.impersonateUserExtra.insert(QString::fromStdString(key), readStringList(extra, key.c_str(), where + u".as-user-extra"_s));
                    }
                }
            }
            const YAML::Node authProvider = body["auth-provider"];
            if (authProvider.IsDefined() && !authProvider.IsNull()) {
                if (!authProvider.IsMap()) {
                    addError(authProvider, where + u".auth-provider: expected a map"_s);
                } else {
                    user.authProvider = readString(authProvider, "name", where + u".auth-provider"_s);
                    if (user.authProvider.isEmpty()) {
                        user.authProvider = u"(unnamed)"_s;
                    }
                }
            }
            const YAML::Node exec = body["exec"];
            if (exec.IsDefined() && !exec.IsNull()) {
                if (!exec.IsMap()) {
                    addError(exec, where + u".exec: expected a map"_s);
                } else {
                    user.exec = parseExec(exec, where + u".exec"_s);
                }
            }
            users.append(user);
        });

        forEachNamed(root, "contexts", "context", [this](const QString &name, const YAML::Node &body, int line, const QString &where) {
            ContextConfig context;
            context.name = name;
            context.file = m_file;
            context.line = line;
            context.cluster = readString(body, "cluster", where);
            context.user = readString(body, "user", where);
            context.ns = readString(body, "namespace", where);
            contexts.append(context);
        });
    }

    ExecConfig parseExec(const YAML::Node &exec, const QString &where)
    {
        ExecConfig config;
        config.apiVersion = readString(exec, "apiVersion", where);
        config.command = readString(exec, "command", where);
        if (config.command.isEmpty()) {
            addError(exec, where + u": has no command"_s);
        } else if (config.command.contains(u'/') && QFileInfo(config.command).isRelative()) {
            // client-go resolves a command with a path separator against the kubeconfig's
            // directory, and leaves a bare name to PATH.
            config.command = absolutePath(config.command);
        }
        config.args = readStringList(exec, "args", where);
        config.installHint = readString(exec, "installHint", where);
        config.provideClusterInfo = readBool(exec, "provideClusterInfo", where);
        const QString mode = readString(exec, "interactiveMode", where);
        if (mode == u"Never"_s) {
            config.interactiveMode = ExecConfig::InteractiveMode::Never;
        } else if (mode == u"Always"_s) {
            config.interactiveMode = ExecConfig::InteractiveMode::Always;
        } else if (mode.isEmpty() || mode == u"IfAvailable"_s) {
            config.interactiveMode = ExecConfig::InteractiveMode::IfAvailable;
        } else {
            addError(exec["interactiveMode"], where + u".interactiveMode: expected Never, IfAvailable or Always"_s);
        }
        const YAML::Node env = exec["env"];
        if (env.IsDefined() && !env.IsNull()) {
            if (!env.IsSequence()) {
                addError(env, where + u".env: expected a list of name/value pairs"_s);
            } else {
                for (const YAML::Node &item : env) {
                    if (!item.IsMap()) {
                        addError(item, where + u".env: expected a list of name/value pairs"_s);
                        continue;
                    }
                    const QString name = readString(item, "name", where + u".env"_s);
                    if (name.isEmpty()) {
                        addError(item, where + u".env: an entry has no name"_s);
                        continue;
                    }
                    config.env.append({name, Secret::fromString(readString(item, "value", where + u".env"_s))});
                }
            }
        }
        return config;
    }

    QString m_file;
    QString m_dir;
    QList<KubeconfigError> *m_errors;
};

template<typename T>
const T *findByName(const QList<T> &list, const QString &name, const QString &file = {})
{
    for (const T &item : list) {
        if (item.name == name && (file.isEmpty() || item.file == file)) {
            return &item;
        }
    }
    return nullptr;
}

} // namespace

QStringList Kubeconfig::sourceFiles(const QString &explicitFile, const QByteArray &kubeconfigEnv, const QString &homeDir)
{
    if (!explicitFile.isEmpty()) {
        return {QFileInfo(explicitFile).absoluteFilePath()};
    }
    QStringList files;
    const QStringList entries = QString::fromLocal8Bit(kubeconfigEnv).split(u':', Qt::SkipEmptyParts);
    for (const QString &entry : entries) {
        const QString path = QFileInfo(entry).absoluteFilePath();
        if (!files.contains(path)) {
            files.append(path);
        }
    }
    if (files.isEmpty()) {
        files.append(QDir(homeDir).filePath(u".kube/config"_s));
    }
    return files;
}

Kubeconfig Kubeconfig::load(const QString &explicitFile)
{
    return loadFiles(sourceFiles(explicitFile, qgetenv("KUBECONFIG"), QDir::homePath()), !explicitFile.isEmpty());
}

Kubeconfig Kubeconfig::loadFiles(const QStringList &files, bool explicitFile)
{
    Kubeconfig merged;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.exists()) {
            if (explicitFile) {
                merged.m_errors.append({path, 0, 0, u"the kubeconfig file does not exist"_s});
            }
            continue;
        }
        if (!file.open(QIODevice::ReadOnly)) {
            merged.m_errors.append({path, 0, 0, u"cannot be read: "_s + file.errorString()});
            continue;
        }
        merged.merge(fromYaml(file.readAll(), path));
    }
    merged.m_files = files;
    return merged;
}

Kubeconfig Kubeconfig::fromYaml(const QByteArray &yaml, const QString &fileName)
{
    Kubeconfig config;
    FileParser parser(fileName, &config.m_errors);
    parser.parse(yaml);
    config.m_files = {fileName};
    config.m_currentContext = parser.currentContext;
    if (!parser.currentContext.isEmpty()) {
        config.m_currentContextFile = fileName;
        config.m_currentContextLine = parser.currentContextLine;
    }
    config.m_clusters = parser.clusters;
    config.m_allClusters = parser.clusters;
    config.m_users = parser.users;
    config.m_allUsers = parser.users;
    config.m_contexts = parser.contexts;
    return config;
}

void Kubeconfig::merge(const Kubeconfig &other)
{
    m_errors += other.m_errors;
    if (m_currentContext.isEmpty()) {
        m_currentContext = other.m_currentContext;
        m_currentContextFile = other.m_currentContextFile;
        m_currentContextLine = other.m_currentContextLine;
    }
    for (const ClusterConfig &cluster : other.m_clusters) {
        if (!findByName(m_clusters, cluster.name)) {
            m_clusters.append(cluster);
        }
    }
    m_allClusters += other.m_allClusters;
    for (const UserConfig &user : other.m_users) {
        if (!findByName(m_users, user.name)) {
            m_users.append(user);
        }
    }
    m_allUsers += other.m_allUsers;
    for (ContextConfig context : other.m_contexts) {
        context.shadowed = findByName(m_contexts, context.name) != nullptr;
        m_contexts.append(context);
    }
}

std::optional<ContextConfig> Kubeconfig::context(const QString &name, const QString &file) const
{
    const QString wanted = file.isEmpty() ? file : QFileInfo(file).absoluteFilePath();
    for (const ContextConfig &context : m_contexts) {
        if (context.name == name && (wanted.isEmpty() || QFileInfo(context.file).absoluteFilePath() == wanted)) {
            return context;
        }
    }
    return std::nullopt;
}

std::variant<RestConfig, QList<KubeconfigError>> Kubeconfig::commandRestConfig(const QString &name) const
{
    if (hasErrors()) {
        return m_errors;
    }
    auto resolved = restConfig(name);
    if (auto *error = std::get_if<KubeconfigError>(&resolved)) {
        return QList<KubeconfigError>{std::move(*error)};
    }
    return std::get<RestConfig>(std::move(resolved));
}

std::variant<RestConfig, KubeconfigError> Kubeconfig::restConfig(const QString &name, const QString &file) const
{
    const QString contextName = name.isEmpty() ? m_currentContext : name;
    if (contextName.isEmpty()) {
        return KubeconfigError{{},
                               0,
                               0,
                               m_contexts.isEmpty() ? u"no contexts are defined in "_s + m_files.join(u", "_s)
                                                    : u"no current context is set; choose one of the contexts"_s};
    }
    const std::optional<ContextConfig> context = this->context(contextName, file);
    if (!context) {
        if (name.isEmpty()) {
            // The current context: say which file chose it, and where.
            return KubeconfigError{
                m_currentContextFile, m_currentContextLine, 0, u"current-context \""_s + contextName + u"\" is not defined in "_s + m_files.join(u", "_s)};
        }
        return KubeconfigError{file, 0, 0, u"context \""_s + contextName + u"\" is not defined"_s};
    }
    const QString where = u"context \""_s + context->name + u'"';
    if (context->cluster.isEmpty()) {
        return KubeconfigError{context->file, context->line, 0, where + u" names no cluster"_s};
    }
    // kubectl resolves through the merged maps; a shadowed context (which kubectl would not
    // even show) means the cluster and user of its own file.
    const ClusterConfig *cluster = context->shadowed ? findByName(m_allClusters, context->cluster, context->file) : nullptr;
    if (!cluster) {
        cluster = findByName(m_clusters, context->cluster);
    }
    if (!cluster) {
        return KubeconfigError{context->file, context->line, 0, where + u" names cluster \""_s + context->cluster + u"\", which is not defined"_s};
    }
    if (!cluster->server.isValid()) {
        return KubeconfigError{cluster->file, cluster->line, 0, where + u": cluster \""_s + cluster->name + u"\" has no server"_s};
    }
    RestConfig config;
    config.context = *context;
    config.cluster = *cluster;
    if (!context->user.isEmpty()) {
        const UserConfig *user = context->shadowed ? findByName(m_allUsers, context->user, context->file) : nullptr;
        if (!user) {
            user = findByName(m_users, context->user);
        }
        if (!user) {
            return KubeconfigError{context->file, context->line, 0, where + u" names user \""_s + context->user + u"\", which is not defined"_s};
        }
        config.user = *user;
    }
    return config;
}

} // namespace Cachescope
