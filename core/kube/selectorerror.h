#pragma once

#include <QString>

namespace Cachescope {

// SelectorError says why a label or field selector does not parse: the message is the text
// apimachinery's parser gives for the same input (so the simulator's 400 reads like the
// apiserver's and a user can search for it), and position is the 0-based character in the
// selector text where the problem starts (the text's length for "the end came too early").
// Plain value type.
struct SelectorError
{
    qsizetype position = 0;
    QString message;

    friend bool operator==(const SelectorError &, const SelectorError &) = default;
};

} // namespace Cachescope
