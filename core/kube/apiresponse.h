#pragma once

#include "core/kube/apierror.h"

#include <QByteArray>

namespace Cachescope {

// ApiResponse is the outcome of one ApiClient request after retries: the HTTP status and body
// on success, or the error (error.isError()). Plain value type.
struct ApiResponse
{
    int httpStatus = 0;
    QByteArray body;
    QByteArray contentType;
    ApiError error;
    int attempts = 0;

    bool isOk() const { return !error.isError(); }
};

} // namespace Cachescope
