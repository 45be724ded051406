import CCurlHost
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// URLSession's host check before every transfer is CCurlHost's (which frees libcurl's parsed URL
/// whole), not the leaking one of the toolchain's FoundationNetworking, and answers as it does.
final class CurlHostCheckTests: XCTestCase {
    private static let name = "CFURLSessionCurlHostIsEqual"

    func testTheDynamicLinkerBindsFoundationNetworkingsCallToThisDefinition() throws {
        // What FoundationNetworking's call through its PLT binds to: the first definition in the
        // global scope, which must be CCurlHost's in this program, not the toolchain library's own.
        let global = try XCTUnwrap(dlsym(nil, Self.name))
        let networking = try XCTUnwrap(dlopen("libFoundationNetworking.so", RTLD_NOW | RTLD_NOLOAD))
        defer { dlclose(networking) }
        let toolchains = try XCTUnwrap(dlsym(networking, Self.name), "FoundationNetworking no longer defines \(Self.name)")
        XCTAssertNotEqual(global, toolchains)
    }

    func testItComparesTheHostLibcurlReads() {
        XCTAssertTrue(CFURLSessionCurlHostIsEqual("http://127.0.0.1:8080/a.png?i=1", "127.0.0.1"))
        XCTAssertTrue(CFURLSessionCurlHostIsEqual("https://images.example.com/a/b.jpg", "images.example.com"))
        XCTAssertTrue(CFURLSessionCurlHostIsEqual("http://[::1]:8080/a.png", "::1"))
        XCTAssertFalse(CFURLSessionCurlHostIsEqual("https://images.example.com/a.jpg", "images.example.org"))
        XCTAssertFalse(CFURLSessionCurlHostIsEqual("https://images.example.com/a.jpg", "images.example.co"))
        XCTAssertFalse(CFURLSessionCurlHostIsEqual("not a url", "not"))
        XCTAssertFalse(CFURLSessionCurlHostIsEqual("", ""))
    }

    func testURLSessionLoadsThroughIt() async throws {
        // URLSession still goes on to connect: where nothing listens it fails to, never with
        // "URLSession and curl did not agree on URL host" (a bad URL).
        let url = URL(string: "http://127.0.0.1:9/a.png")!
        do {
            _ = try await URLSession.shared.data(from: url)
            XCTFail("port 9 answered")
        } catch let error as URLError {
            XCTAssertNotEqual(error.code, .badURL, "\(error)")
        }
    }
}
