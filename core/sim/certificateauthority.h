#pragma once

#include <QByteArray>
#include <QSslCertificate>
#include <QString>

#include <optional>

namespace Cachescope::Sim {

// CertificateAuthority is the simulator's throw-away PKI, generated in memory with OpenSSL's
// libcrypto at start (ECDSA P-256, so it takes milliseconds): a self-signed CA, a serving
// certificate for 127.0.0.1, ::1 and localhost, and a client certificate (CN cachescope-admin,
// O system:masters) for the kubeconfig's certificate user. Nothing touches the disk or the
// network. A value type holding PEM bytes; isIssuedBy() checks a peer's client certificate.
// For the TLS failure tests the serving certificate may name another host or have expired.
class CertificateAuthority
{
public:
    // ServingName is what the serving certificate names; ServingValidity when it is valid.
    enum class ServingName { Loopback, Other };
    enum class ServingValidity { Valid, Expired };
    [[nodiscard]] static std::optional<CertificateAuthority>
    generate(QString *error = nullptr, ServingName name = ServingName::Loopback, ServingValidity validity = ServingValidity::Valid);
    // OtherServingName is the one name of a ServingName::Other certificate.
    static constexpr const char *OtherServingName = "elsewhere.cachescope.test";

    [[nodiscard]] const QByteArray &caCertificatePem() const { return m_caCertificate; }
    [[nodiscard]] const QByteArray &serverCertificatePem() const { return m_serverCertificate; }
    [[nodiscard]] const QByteArray &serverKeyPem() const { return m_serverKey; }
    [[nodiscard]] const QByteArray &clientCertificatePem() const { return m_clientCertificate; }
    [[nodiscard]] const QByteArray &clientKeyPem() const { return m_clientKey; }

    // Whether certificate carries a valid signature of this CA. Parses both: call once per
    // connection, not per request.
    [[nodiscard]] bool isIssuedBy(const QSslCertificate &certificate) const;

private:
    QByteArray m_caCertificate;
    QByteArray m_serverCertificate;
    QByteArray m_serverKey;
    QByteArray m_clientCertificate;
    QByteArray m_clientKey;
};

} // namespace Cachescope::Sim
