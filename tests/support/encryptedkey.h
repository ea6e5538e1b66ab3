#pragma once
// A user's client key as it may be on disk, encrypted with a passphrase: for the tests that check
// Versus refuses such a key by name and never asks for its passphrase. Links OpenSSL::Crypto.

#include <QString>
#include <openssl/pem.h>

// `from`, a PEM private key, written to `to` encrypted with `passphrase`.
inline bool writeEncryptedKey(const QString &from, const QString &to, const char *passphrase)
{
    BIO *in = BIO_new_file(from.toLocal8Bit().constData(), "r");
    EVP_PKEY *key = in ? PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr) : nullptr;
    BIO *out = key ? BIO_new_file(to.toLocal8Bit().constData(), "w") : nullptr;
    const bool written = out && PEM_write_bio_PrivateKey(out, key, EVP_aes_128_cbc(), nullptr, 0, nullptr,
                                                         const_cast<char *>(passphrase)) == 1;
    BIO_free(out);
    EVP_PKEY_free(key);
    BIO_free(in);
    return written;
}
