#pragma once

#include <QString>

namespace Cachescope {

// KubeconfigError says what is wrong with a kubeconfig and where: the file, the 1-based line
// and column when known (0 when not), and a message for a person. It never contains a
// credential: messages name fields, not their values.
struct KubeconfigError
{
    QString file;
    int line = 0;
    int column = 0;
    QString message;

    // toString() is "file:line:column: message", leaving out what is unknown.
    QString toString() const;
};

} // namespace Cachescope
