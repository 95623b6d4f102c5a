#pragma once

#include "core/sim/tableconverter.h"

#include <QString>

namespace Cachescope::Sim {

struct HttpRequest;

// ContentNegotiation is the representation a request's Accept header asks for, as the
// apiserver reads it: the first media range it can serve wins (JSON in any of its spellings;
// protobuf and YAML are skipped, so the next choice is taken), and its `as`, `g` and `v`
// parameters choose a Table or PartialObjectMetadata (resources) or the aggregated discovery
// document (discovery). A value type.
struct ContentNegotiation
{
    enum class Representation { Object, Table, Metadata, Aggregated };

    Representation representation = Representation::Object;
    QString aggregatedVersion; // Aggregated: "v2" or "v2beta1"

    // discovery: the request is for /api or /apis, where only the aggregated document is offered.
    [[nodiscard]] static ContentNegotiation of(const HttpRequest &request, bool discovery = false);
    // What a Table row carries of its object (the includeObject parameter; Metadata by default).
    [[nodiscard]] static TableConverter::IncludeObject includeObject(const HttpRequest &request);
};

} // namespace Cachescope::Sim
