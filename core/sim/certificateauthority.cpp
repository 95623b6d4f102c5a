#include "core/sim/certificateauthority.h"

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace Cachescope::Sim {

namespace {

struct KeyDeleter
{
    void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); }
};
struct CertDeleter
{
    void operator()(X509 *cert) const { X509_free(cert); }
};
struct BioDeleter
{
    void operator()(BIO *bio) const { BIO_free(bio); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyDeleter>;
using Cert = std::unique_ptr<X509, CertDeleter>;
using Bio = std::unique_ptr<BIO, BioDeleter>;

QByteArray bioBytes(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, qsizetype(size));
}

QByteArray certificatePem(X509 *cert)
{
    Bio bio(BIO_new(BIO_s_mem()));
    PEM_write_bio_X509(bio.get(), cert);
    return bioBytes(bio.get());
}

QByteArray keyPem(EVP_PKEY *key)
{
    Bio bio(BIO_new(BIO_s_mem()));
    PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
    return bioBytes(bio.get());
}

bool addExtension(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
    if (!extension)
        return false;
    const bool ok = X509_add_ext(cert, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return ok;
}

struct Subject
{
    const char *commonName;
    const char *organization;
};

// issuer == nullptr makes a self-signed certificate; expired ones ended a day ago.
Cert makeCertificate(
    EVP_PKEY *key, const Subject &subject, X509 *issuer, EVP_PKEY *issuerKey, const QList<std::pair<int, const char *>> &extensions, bool expired = false)
{
    Cert cert(X509_new());
    X509_set_version(cert.get(), 2);
    // Random 127-bit serials: clients cache certificates by issuer+serial and must never see
    // two different certificates with the same pair across restarts.
    std::unique_ptr<BIGNUM, decltype(&BN_free)> serial(BN_new(), &BN_free);
    BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY);
    BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get()));
    // Backdated an hour for clients whose clock is a little behind.
    X509_gmtime_adj(X509_getm_notBefore(cert.get()), expired ? -30L * 24 * 3600 : -3600);
    X509_gmtime_adj(X509_getm_notAfter(cert.get()), expired ? -24L * 3600 : 365L * 24 * 3600);
    X509_set_pubkey(cert.get(), key);
    X509_NAME *name = X509_get_subject_name(cert.get());
    if (subject.organization)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(subject.organization), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(subject.commonName), -1, -1, 0);
    X509 *signer = issuer ? issuer : cert.get();
    X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
    for (const auto &[nid, value] : extensions) {
        if (!addExtension(cert.get(), signer, nid, value))
            return {};
    }
    if (X509_sign(cert.get(), issuerKey ? issuerKey : key, EVP_sha256()) <= 0)
        return {};
    return cert;
}

Key makeKey()
{
    return Key(EVP_EC_gen("P-256"));
}

} // namespace

std::optional<CertificateAuthority> CertificateAuthority::generate(QString *error, ServingName name, ServingValidity validity)
{
    auto fail = [error](const QString &why) -> std::optional<CertificateAuthority> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    const Key caKey = makeKey();
    const Key serverKey = makeKey();
    const Key clientKey = makeKey();
    if (!caKey || !serverKey || !clientKey)
        return fail(u"cannot generate EC keys"_s);

    const Cert ca = makeCertificate(
        caKey.get(),
        {"cachescope-sim-ca", nullptr},
        nullptr,
        nullptr,
        {{NID_basic_constraints, "critical,CA:TRUE"}, {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"}, {NID_subject_key_identifier, "hash"}});
    if (!ca)
        return fail(u"cannot create the CA certificate"_s);
    const QByteArray otherName = QByteArray("DNS:") + OtherServingName;
    const char *names = name == ServingName::Loopback ? "IP:127.0.0.1,IP:::1,DNS:localhost" : otherName.constData();
    const Cert server = makeCertificate(serverKey.get(),
                                        {"cachescope-sim", nullptr},
                                        ca.get(),
                                        caKey.get(),
                                        {{NID_basic_constraints, "critical,CA:FALSE"},
                                         {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                         {NID_ext_key_usage, "serverAuth"},
                                         {NID_subject_key_identifier, "hash"},
                                         {NID_authority_key_identifier, "keyid:always"},
                                         {NID_subject_alt_name, names}},
                                        validity == ServingValidity::Expired);
    const Cert client = makeCertificate(clientKey.get(),
                                        {"cachescope-admin", "system:masters"},
                                        ca.get(),
                                        caKey.get(),
                                        {{NID_basic_constraints, "critical,CA:FALSE"},
                                         {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                         {NID_ext_key_usage, "clientAuth"},
                                         {NID_authority_key_identifier, "keyid:always"}});
    if (!server || !client)
        return fail(u"cannot create the serving or client certificate"_s);

    CertificateAuthority authority;
    authority.m_caCertificate = certificatePem(ca.get());
    authority.m_serverCertificate = certificatePem(server.get());
    authority.m_serverKey = keyPem(serverKey.get());
    authority.m_clientCertificate = certificatePem(client.get());
    authority.m_clientKey = keyPem(clientKey.get());
    return authority;
}

bool CertificateAuthority::isIssuedBy(const QSslCertificate &certificate) const
{
    const QByteArray der = certificate.toDer();
    const auto *derData = reinterpret_cast<const unsigned char *>(der.constData());
    const Cert peer(d2i_X509(nullptr, &derData, long(der.size())));
    Bio bio(BIO_new_mem_buf(m_caCertificate.constData(), int(m_caCertificate.size())));
    const Cert ca(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (!peer || !ca)
        return false;
    EVP_PKEY *caPublicKey = X509_get0_pubkey(ca.get()); // not owned
    return caPublicKey && X509_verify(peer.get(), caPublicKey) == 1;
}

} // namespace Cachescope::Sim
