// swift-tools-version:6.0
// libFuzzer harnesses for imgcache, a package of their own so that the main package's builds never
// compile them. Build and run them with `make fuzz` (see Fuzz/README.md).
import PackageDescription

let package = Package(
    name: "imgcache-fuzz",
    dependencies: [.package(name: "imgcache", path: "..")],
    targets: [
        // The hand-over to libFuzzer's LLVMFuzzerRunDriver, shared by the harnesses.
        .target(name: "FuzzDriver", path: "FuzzDriver"),
        .executableTarget(
            name: "DecodeFuzzer", dependencies: ["FuzzDriver", .product(name: "ImgCache", package: "imgcache")],
            path: "DecodeFuzzer"),
        .executableTarget(
            name: "EncodeFuzzer", dependencies: ["FuzzDriver", .product(name: "ImgCache", package: "imgcache")],
            path: "EncodeFuzzer"),
        .executableTarget(
            name: "CommandLineFuzzer",
            dependencies: [
                "FuzzDriver", .product(name: "ImgCache", package: "imgcache"),
                .product(name: "ImgCacheCommandLine", package: "imgcache"),
            ],
            path: "CommandLineFuzzer"),
        .executableTarget(
            name: "ServeURLFuzzer",
            dependencies: [
                "FuzzDriver", .product(name: "ImgCache", package: "imgcache"),
                .product(name: "ImgCacheServerURLs", package: "imgcache"),
            ],
            path: "ServeURLFuzzer"),
        .executableTarget(
            name: "HTTPHeaderFuzzer", dependencies: ["FuzzDriver", .product(name: "ImgCache", package: "imgcache")],
            path: "HTTPHeaderFuzzer"),
    ],
    swiftLanguageModes: [.v6]
)
