import Foundation
import ImgCache
import TestSupport
import XCTest

/// `serve` refuses, by default, sources whose address is not public (SSRF): loopback, private,
/// link-local (cloud metadata), in any spelling, before a request is sent.
final class ServePrivateSourceTests: XCTestCase {
    func testPrivateAddressSourcesAreRefusedWith403BeforeAnyRequestUnlessAllowed() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        try TestImage.jpeg().write(to: nginx.root.appendingPathComponent("a.jpg"))
        let serve = try ServeProcess(allowsPrivateSources: false)
        defer { serve.stop() }
        let client = ServeClient()
        let sources = [
            "http://127.0.0.1:\(nginx.port)/a.jpg", "http://localhost:\(nginx.port)/a.jpg", "http://[::1]:\(nginx.port)/a.jpg",
            "http://2130706433:\(nginx.port)/a.jpg", "http://10.0.0.1/a.jpg", "http://169.254.169.254/latest/meta-data/",
            "http://192.168.1.1/a.jpg",
        ]
        let paths = try ServeURLs.paths(try sources.map { ServeURLs.Case(try XCTUnwrap(URL(string: $0)), width: 32, height: 32) })
        for (source, path) in zip(sources, paths) {
            let (body, response) = try await client.send(serve.url(path))
            XCTAssertEqual(response.statusCode, 403, source)
            XCTAssertEqual(response.value(forHTTPHeaderField: "Cache-Control"), "no-store", source)
            let text = String(decoding: body, as: UTF8.self)
            XCTAssertTrue(text.contains("not a public address") || text.contains("refused"), "\(source): \(text)")
        }
        XCTAssertEqual(try nginx.accessLog(count: 0).count, 0, "no request reached the origin")
        // Allowed, the same origin is served.
        let allowed = try ServeProcess()
        defer { allowed.stop() }
        let (_, response) = try await client.send(allowed.url(paths[0]))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try nginx.accessLog(count: 1).count, 1)
    }
}
