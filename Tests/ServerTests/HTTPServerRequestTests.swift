import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCacheServer
import Synchronization
import XCTest

/// What a handler is given and how its response goes out: GET and HEAD, files, methods,
/// kept-alive connections, requests the server answers itself.
final class HTTPServerRequestTests: XCTestCase {
    private let fileBytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }

    func testGETSendsAFileFromItsDescriptorWithItsLength() async throws {
        let path = try temporaryFile(fileBytes, testCase: self)
        let server = try startServer { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "image/jpeg", "Content-Length": "12"], body: .file(path: path))
        }
        let (data, response) = try await Client().send(server.url("/variant.jpg"))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Length"), "300000")
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Type"), "image/jpeg")
        XCTAssertEqual(Array(data), fileBytes)
        await server.shutdown(drainSeconds: 1)
    }

    func testHEADSendsTheBodysLengthAndNoBody() async throws {
        let path = try temporaryFile(fileBytes, testCase: self)
        let server = try startServer { request in
            request.path == "/small" ? .text(status: 200, "small") : HTTPResponse(status: 200, body: .file(path: path))
        }
        let (data, response) = try await Client().send(server.url("/variant.jpg"), method: "HEAD")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHTTPHeaderField: "Content-Length"), "300000")
        XCTAssertTrue(data.isEmpty)

        // On the wire: no body after the HEAD's headers, so the next response on the connection
        // starts right after them.
        let connection = try RawConnection(port: server.address.port)
        try connection.send("HEAD /variant.jpg HTTP/1.1\r\nHost: t\r\n\r\nGET /small HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try connection.readResponse(head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "300000")
        let small = try connection.readResponse()
        XCTAssertEqual(small.status, 200)
        XCTAssertEqual(String(decoding: small.body, as: UTF8.self), "small\n")
        await server.shutdown(drainSeconds: 1)
    }

    func testTheHandlerGetsTheRawPathAndQueryLowerCasedHeadersAndThePeer() async throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try startServer { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 204)
        }
        let url = server.url("/sig/rs:fill:300:200/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg?x=1+2&y=%2F&flag")
        let (_, response) = try await Client().send(url, headers: ["X-Forwarded-For": "203.0.113.9", "Accept": "image/webp"])
        XCTAssertEqual(response.statusCode, 204)
        let request = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.path, "/sig/rs:fill:300:200/plain/http%3A%2F%2Fexample.com%2Fa%20b.jpg")
        XCTAssertEqual(request.query, "x=1+2&y=%2F&flag")
        XCTAssertEqual(request.headers["x-forwarded-for"], "203.0.113.9")
        XCTAssertEqual(request.headers["accept"], "image/webp")
        XCTAssertEqual(request.headers["host"], "\(server.address)")
        XCTAssertTrue(request.headers.fields.allSatisfy { $0.name == $0.name.lowercased() }, "\(request.headers.fields)")
        XCTAssertEqual(request.peer.host, "127.0.0.1")
        XCTAssertNotEqual(request.peer.port, server.address.port)
        XCTAssertNotEqual(request.peer.port, 0)

        let raw = try RawConnection(port: server.address.port)
        try raw.send("HEAD /plain HTTP/1.1\r\nHost: t\r\nX-Pad: \t padded value \t\r\nX-Twice: 1\r\nx-twice: 2\r\nX-Empty:\r\n\r\n")
        XCTAssertEqual(try raw.readResponse(head: true).status, 204)
        let head = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertEqual(head.method, .head)
        XCTAssertEqual(head.path, "/plain")
        XCTAssertEqual(head.query, "")
        XCTAssertEqual(head.headers["x-pad"], "padded value")
        XCTAssertEqual(head.headers.values(for: "X-Twice"), ["1", "2"])
        XCTAssertEqual(head.headers["x-empty"], "")
        await server.shutdown(drainSeconds: 1)
    }

    func testOtherMethodsAre405WithAllowAndOneLine() async throws {
        let server = try startServer { _ in .text(status: 200, "never") }
        let client = Client()
        for method in ["POST", "PUT", "DELETE", "OPTIONS"] {
            let (data, response) = try await client.send(server.url("/x"), method: method, body: method == "POST" ? Data("a=1".utf8) : nil)
            XCTAssertEqual(response.statusCode, 405, method)
            XCTAssertEqual(response.value(forHTTPHeaderField: "Allow"), "GET, HEAD", method)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "method not allowed: only GET and HEAD\n", method)
        }
        await server.shutdown(drainSeconds: 1)
    }

    func testManyRequestsShareOneKeptAliveConnection() async throws {
        let server = try startServer { request in .text(status: 200, request.path) }
        let client = Client()
        for index in 0..<50 {
            let (data, response) = try await client.send(server.url("/\(index)"))
            XCTAssertEqual(response.statusCode, 200)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), "/\(index)\n")
        }
        XCTAssertEqual(server.statistics.connectionsAccepted, 1)

        let connection = try RawConnection(port: server.address.port)
        for index in 0..<200 {
            try connection.send("GET /raw/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            XCTAssertEqual(String(decoding: try connection.readResponse().body, as: UTF8.self), "/raw/\(index)\n")
        }
        XCTAssertEqual(server.statistics.connectionsAccepted, 2)
        await server.shutdown(drainSeconds: 1)
    }

    func testRequestsTheServerAnswersItselfWithOneLine() async throws {
        let handled = Mutex(0)
        let server = try startServer { _ in
            handled.withLock { $0 += 1 }
            return .text(status: 200, "ok")
        }
        let cases: [(request: String, status: Int, body: String)] = [
            ("GET /caf\u{E9} HTTP/1.1\r\nHost: t\r\n\r\n", 400, "the request target must be a path of visible ASCII characters\n"),
            ("GET http://elsewhere.example/ HTTP/1.1\r\nHost: t\r\n\r\n", 400, "the request target must be a path of visible ASCII characters\n"),
            ("GET /x HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello", 400, "a GET or HEAD request takes no body\n"),
            ("GET /x HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400, "a GET or HEAD request takes no body\n"),
        ]
        for (request, status, body) in cases {
            let connection = try RawConnection(port: server.address.port)
            try connection.send(request)
            let response = try connection.readResponse()
            XCTAssertEqual(response.status, status, request)
            XCTAssertEqual(response.headers["content-type"], "text/plain; charset=utf-8", request)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), body, request)
        }
        XCTAssertEqual(handled.withLock { $0 }, 0)
        await server.shutdown(drainSeconds: 1)
    }

    func testAResponseThatCannotBeSentIs500WithOneLine() async throws {
        let server = try startServer { request in
            switch request.path {
            case "/missing": HTTPResponse(status: 200, body: .file(path: "/nonexistent/imgcache-variant.jpg"))
            case "/folder": HTTPResponse(status: 200, body: .file(path: "/tmp"))
            case "/status": HTTPResponse(status: 101)
            default: HTTPResponse(status: 200, headers: ["X-Reflected": "a\r\nSet-Cookie: evil=1"])
            }
        }
        let client = Client()
        let expected = [
            "/missing": "cannot open the response's file: No such file or directory\n",
            "/folder": "cannot open the response's file: not a regular file\n",
            "/status": "the handler answered status 101, not 200...599\n",
            "/header": "the handler's response has a header that cannot be sent\n",
        ]
        for (path, body) in expected {
            let (data, response) = try await client.send(server.url(path))
            XCTAssertEqual(response.statusCode, 500, path)
            XCTAssertEqual(String(decoding: data, as: UTF8.self), body, path)
            XCTAssertNil(response.value(forHTTPHeaderField: "Set-Cookie"), path)
        }
        await server.shutdown(drainSeconds: 1)
    }

    func testPortZeroPicksAFreePortAndATakenPortFailsToStart() async throws {
        let server = try startServer { _ in .text(status: 200, "ok") }
        XCTAssertNotEqual(server.address.port, 0)
        XCTAssertEqual(server.address.host, "127.0.0.1")
        XCTAssertThrowsError(try startServer({ $0.address = server.address }) { _ in .text(status: 200, "second") }) { error in
            let failure = error as? HTTPServerError
            XCTAssertEqual(failure?.address, server.address)
            XCTAssertEqual(failure?.reason, "Failed to bind to port \(server.address.port): Address already in use")
        }
        await server.shutdown(drainSeconds: 1)
    }

    func testAnIPv6AddressIsListenedOnAndReportedAsThePeer() async throws {
        let seen = Mutex<NetworkAddress?>(nil)
        let loopback = try XCTUnwrap(NetworkAddress("[::1]:0"))
        let server: HTTPServer
        do {
            server = try startServer({ $0.address = loopback }) { request in
                seen.withLock { $0 = request.peer }
                return .text(status: 200, "six")
            }
        } catch {
            throw XCTSkip("no IPv6 loopback here: \(error)")
        }
        XCTAssertEqual(server.address.host, "::1")
        XCTAssertNotEqual(server.address.port, 0)
        // Over a socket of its own: URLSession on Linux takes no IPv6 literal in a URL.
        let connection = try RawConnection(port: server.address.port, ipv6: true)
        try connection.send("GET /x HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        let response = try connection.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "six\n")
        let peer = try XCTUnwrap(seen.withLock { $0 })
        XCTAssertEqual(peer.host, "::1")
        XCTAssertTrue(peer.isIPv6)
        await server.shutdown(drainSeconds: 1)
    }

    func testAddressesParseNumericHostsAndPortsOnly() {
        XCTAssertEqual(NetworkAddress("127.0.0.1:8080")?.description, "127.0.0.1:8080")
        XCTAssertEqual(NetworkAddress("0.0.0.0:0")?.port, 0)
        XCTAssertEqual(NetworkAddress("[::1]:8080")?.description, "[::1]:8080")
        XCTAssertEqual(NetworkAddress("[0:0::1]:80")?.host, "::1")
        XCTAssertEqual(NetworkAddress("[::1]:80")?.isIPv6, true)
        for bad in ["localhost:8080", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:+80", "::1:80", "[127.0.0.1]:80",
                    "127.0.0.1:8o", "[::1]", ":80", "1.2.3:80"] {
            XCTAssertNil(NetworkAddress(bad), bad)
        }
        XCTAssertEqual(HTTPServer.Configuration().address, NetworkAddress("127.0.0.1:8080"))
    }
}
