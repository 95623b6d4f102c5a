#pragma once

#include <QString>

namespace Cachescope {

// ContextConfig is one `contexts:` entry of a kubeconfig file: which cluster, which user, which
// default namespace. `file` and `line` say where it was defined. `shadowed` is true for a
// context whose name an earlier file already used: kubectl drops those silently; Cachescope
// keeps them and shows them with their file.
struct ContextConfig
{
    QString name;
    QString file;
    int line = 0;
    bool shadowed = false;

    QString cluster;
    QString user;
    QString ns; // `namespace` is a keyword
};

} // namespace Cachescope
