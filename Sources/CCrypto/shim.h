#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/core_names.h>

/* Initialises libcrypto for the process, once (OPENSSL_init_crypto is idempotent and thread-safe),
 * without its exit-time clean-up: by default the first initialisation registers OPENSSL_cleanup
 * with atexit, and OPENSSL_cleanup frees every thread's libcrypto state without a lock while a
 * thread that is ending frees its own (OpenSSL documents OPENSSL_cleanup as not thread-safe), a
 * double free when a process exits with threads still ending. Only the first initialisation
 * decides, so this must run before any other use of OpenSSL, libcurl's included. Returns 1 on
 * success. Swift calls it through `LibCrypto.initialize()`. */
static inline int imgcache_crypto_initialize(void) {
    return OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

/* HMAC-SHA256 under `key` of `first` then `second` (either may be empty), written to `tag`
 * (32 bytes), through the EVP_MAC API of OpenSSL 3. Returns 1 on success, 0 on failure (out of
 * memory). For the Redis tier's value tags. */
static inline int imgcache_hmac_sha256(const unsigned char *key, size_t keyLength,
                                       const unsigned char *first, size_t firstLength,
                                       const unsigned char *second, size_t secondLength,
                                       unsigned char *tag) {
    EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    if (mac == NULL) return 0;
    EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
    EVP_MAC_free(mac);
    if (context == NULL) return 0;
    char digest[] = "SHA256";
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
        OSSL_PARAM_construct_end(),
    };
    size_t length = 0;
    int ok = EVP_MAC_init(context, key, keyLength, parameters)
        && EVP_MAC_update(context, first, firstLength)
        && EVP_MAC_update(context, second, secondLength)
        && EVP_MAC_final(context, tag, &length, 32)
        && length == 32;
    EVP_MAC_CTX_free(context);
    return ok;
}
