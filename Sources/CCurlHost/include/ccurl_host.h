#ifndef IMGCACHE_CCURL_HOST_H
#define IMGCACHE_CCURL_HOST_H

#include <stdbool.h>

/* Whether libcurl reads the host of `url` as `expected_host` (IPv6 brackets left off).
 *
 * FoundationNetworking (URLSession on Linux) calls this function before every transfer, through its
 * exported symbol. The one in Swift 6.3's FoundationNetworking frees libcurl's parsed URL with
 * curl_free rather than curl_url_cleanup, so each transfer leaks the URL's parts (its host, path and
 * query: about 100 bytes a request once the allocator rounds them up, 100 MB over a million URLs).
 * This definition, in the program that links ImgCache, is the one the dynamic linker binds that call
 * to; it answers the same and frees everything (as upstream swift-corelibs-foundation does since its
 * IPv6 fix, #5498). A program that links FoundationNetworking statically binds the call here with
 * the linker's `--wrap=CFURLSessionCurlHostIsEqual` (Packaging/deb/build.sh does). */
bool CFURLSessionCurlHostIsEqual(const char *url, const char *expected_host);

#endif
