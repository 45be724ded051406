#include "ccurl_host.h"

#include <curl/curl.h>
#include <string.h>

/* Weak: where FoundationNetworking is linked statically (`--static-swift-stdlib`), its own definition
 * wins the link, and the linker's `--wrap=CFURLSessionCurlHostIsEqual` sends its call here instead. */
__attribute__((weak)) bool CFURLSessionCurlHostIsEqual(const char *url, const char *expected_host) {
    bool is_equal = false;
    CURLU *parsed = curl_url();
    if (parsed == NULL) return false;
    char *host = NULL;
    if (curl_url_set(parsed, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(parsed, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
        /* libcurl keeps an IPv6 literal's brackets ("[::1]"); URL.host leaves them off. */
        size_t length = strlen(host);
        const char *bare = host;
        if (length >= 2 && host[0] == '[' && host[length - 1] == ']') {
            bare += 1;
            length -= 2;
        }
        is_equal = length == strlen(expected_host) && strncmp(bare, expected_host, length) == 0;
        curl_free(host);
    }
    curl_url_cleanup(parsed);
    return is_equal;
}

bool __wrap_CFURLSessionCurlHostIsEqual(const char *url, const char *expected_host)
    __attribute__((alias("CFURLSessionCurlHostIsEqual")));
