// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "imgcache",
    products: [
        .library(name: "ImgCache", targets: ["ImgCache"]),
        .executable(name: "imgcache", targets: ["ImgCacheCLI"]),
        // The command line's verbs and argument parsing, for the executable and the fuzz harnesses.
        .library(name: "ImgCacheCommandLine", targets: ["ImgCacheCommandLine"]),
        // `imgcache serve`'s URL layer, for the server and the fuzz harnesses.
        .library(name: "ImgCacheServerURLs", targets: ["ImgCacheServerURLs"]),
    ],
    targets: [
        // giflib reports errors through return codes, so a module map is enough.
        .systemLibrary(name: "CGIF", path: "Sources/CGIF"),
        // libpng and libjpeg report errors by longjmp: these small C targets wrap every
        // library call in setjmp so that no Swift frame is ever jumped over.
        .target(name: "CPNG", path: "Sources/CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CJPEG", path: "Sources/CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // URLSession's per-transfer host check without the leak of Swift 6.3's FoundationNetworking
        // (libcurl's parsed URL freed whole): a definition the dynamic linker prefers to the toolchain's.
        .target(name: "CCurlHost", path: "Sources/CCurlHost", linkerSettings: [.linkedLibrary("curl")]),
        // The disk cache's index (libsqlite3) and file names (MD5 from libcrypto's EVP API).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        // PNG output: filtered rows compressed whole by libdeflate (and its CRC-32).
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate"),
        // Colour management: ICC profiles to sRGB with Little CMS 2 (liblcms2).
        .systemLibrary(name: "CLCMS", path: "Sources/CLCMS"),
        // WebP: still sources (libwebp) and animated ones (libwebpdemux) read; output written with
        // libwebp, animations with libwebpmux's WebPAnimEncoder.
        .systemLibrary(name: "CWebP", path: "Sources/CWebP"),
        // HEIC and HEIF (libheif, HEVC through libde265) and AVIF (libavif, AV1 through dav1d and
        // libaom): read, and AVIF written.
        .systemLibrary(name: "CHeif", path: "Sources/CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CAVIF", path: "Sources/CAVIF", providers: [.apt(["libavif-dev"])]),
        // The shared Redis tier under the local caches (hiredis, blocking calls with time-outs).
        .systemLibrary(name: "CHiredis", path: "Sources/CHiredis"),
        // The overlay's drawing (outlines and text) with cairo, for the CLI only: the ImgCache
        // library never links a drawing library.
        .systemLibrary(name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // glibc's mallopt, for the CLI's malloc arena limit.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        // `imgcache serve`'s HTTP server (libmicrohttpd, its variadic calls wrapped in the shim), for
        // the CLI only: the ImgCache library never links it.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(
            name: "ImgCache",
            dependencies: ["CGIF", "CPNG", "CJPEG", "CCurlHost", "CSQLite", "CCrypto", "CDeflate", "CLCMS", "CWebP", "CHeif", "CAVIF", "CHiredis"],
            path: "Sources/ImgCache"
        ),
        .target(name: "ImgCacheDrawing", dependencies: ["ImgCache", "CCairo"], path: "Sources/ImgCacheDrawing"),
        .target(
            name: "ImgCacheServer", dependencies: ["ImgCache", "ImgCacheServerURLs", "CMicroHTTPD"], path: "Sources/ImgCacheServer",
            exclude: ["URLs"]),
        // The commit `imgcache --version` prints, written before each build (Plugins/BuildCommit).
        .plugin(name: "BuildCommit", capability: .buildTool(), path: "Plugins/BuildCommit"),
        .target(
            name: "ImgCacheCommandLine", dependencies: ["ImgCache", "ImgCacheDrawing", "ImgCacheServer", "CMalloc"],
            path: "Sources/ImgCacheCommandLine", plugins: ["BuildCommit"]),
        // `imgcache serve`'s URLs: imgproxy-compatible signed paths and options to ImageRequests, pure
        // Swift with HMAC-SHA256 from libcrypto (no HTTP).
        .target(name: "ImgCacheServerURLs", dependencies: ["ImgCache", "CCrypto"], path: "Sources/ImgCacheServer/URLs"),
        .executableTarget(name: "ImgCacheCLI", dependencies: ["ImgCacheCommandLine"], path: "Sources/ImgCacheCLI"),
        .executableTarget(name: "make-sample-media", dependencies: ["ImgCache"], path: "Samples/MakeMedia"),
        .executableTarget(name: "feed-widget", dependencies: ["ImgCache"], path: "Samples/FeedWidget"),
        // The README's "Using imgcache in a service" example, built and run by a test.
        .executableTarget(name: "service-example", dependencies: ["ImgCache"], path: "Samples/ServiceExample"),
        .executableTarget(name: "imgcache-bench", dependencies: ["ImgCache"], path: "Benchmarks/ImgCacheBench"),
        // Helpers shared by the test targets (no @testable import: it builds in any configuration).
        .target(name: "TestSupport", dependencies: ["ImgCache"], path: "Tests/TestSupport"),
        // Test support: a process that uses a shared disk cache, for multi-process and crash tests.
        .executableTarget(name: "cache-worker", dependencies: ["ImgCache"], path: "Tests/CacheWorker"),
        .testTarget(name: "ImgCacheTests", dependencies: ["ImgCache", "TestSupport", "cache-worker"], path: "Tests/ImgCacheTests"),
        .testTarget(
            name: "CLITests", dependencies: ["ImgCacheCLI", "ImgCacheCommandLine", "ImgCache", "TestSupport"], path: "Tests/CLITests"),
        // Serve URLs signed by the imgproxy PyPI package (Tests/Scripts/imgproxy_urls.py, run with python3).
        .testTarget(
            name: "ServerURLTests", dependencies: ["ImgCacheServerURLs", "ImgCache", "TestSupport"], path: "Tests/ServerURLTests"),
        // Starts HTTPServer on 127.0.0.1 (port 0); the awkward clients are Tests/Servers/*.py.
        .testTarget(name: "ServerTests", dependencies: ["ImgCacheServer"], path: "Tests/ServerTests"),
        .testTarget(name: "ConformanceTests", dependencies: ["ImgCache", "TestSupport"], path: "Tests/ConformanceTests"),
        // Starts its own servers on 127.0.0.1: Tests/Servers/fault_server.py and Debian's nginx.
        .testTarget(name: "IntegrationTests", dependencies: ["ImgCache", "ImgCacheCLI", "feed-widget", "service-example", "TestSupport"],
            path: "Tests/IntegrationTests"),
    ],
    swiftLanguageModes: [.v6]
)
