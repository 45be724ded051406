import Foundation
import ImgCache
import XCTest

/// Request and configuration headers as Debian's nginx logs them, and credentials on redirects
/// between two nginx servers (two ports: two origins). nginx must be installed: these tests fail,
/// not skip, without it.
final class DataLoaderHeaderTests: XCTestCase {
    var nginx: NginxServer!
    var image: Data!

    override func setUp() async throws {
        nginx = try NginxServer()
        image = try TestImage.jpeg()
        try image.write(to: nginx.root.appendingPathComponent("photo.jpg"))
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
    }

    private func loader(_ change: (inout DataLoader.Configuration) -> Void = { _ in }) -> DataLoader {
        var configuration = DataLoader.Configuration()
        change(&configuration)
        return DataLoader(configuration: configuration)
    }

    /// A second nginx serving the same photo: another origin (another port on 127.0.0.1).
    private func secondServer() throws -> NginxServer {
        let server = try NginxServer()
        try image.write(to: server.root.appendingPathComponent("photo.jpg"))
        return server
    }

    private let credentials = ["Authorization": "Bearer s3cret", "Cookie": "session=42", "Proxy-Authorization": "Basic cHJveHk="]

    func testARequestsHeaderAndTheConfigurationsReachTheOriginWithTheLoadersOwn() async throws {
        let loader = loader { $0.headers = ["X-Client": "fleet-7"] }
        let response = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), headers: ["X-Trace": "trace-1"]))
        XCTAssertEqual(response.data, image)
        let log = try nginx.accessLog(count: 1)
        XCTAssertEqual(log.map(\.headers), [[
            "x-client": "fleet-7", "x-trace": "trace-1", "user-agent": "imgcache",
            "accept": "image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1",
        ]])
    }

    func testTheRequestsHeaderReplacesTheConfigurationsOfTheSameNameWhateverItsCase() async throws {
        let loader = loader { $0.headers = ["X-Trace": "from-configuration", "X-Client": "fleet-7"] }
        _ = try await loader.load(DataRequest(url: nginx.url("/photo.jpg"), headers: ["x-trace": "from-request"]))
        _ = try await loader.load(DataRequest(url: nginx.url("/photo.jpg")))
        let log = try nginx.accessLog(count: 2)
        XCTAssertEqual(log.map { $0.headers["x-trace"] }, ["from-request", "from-configuration"])
        XCTAssertEqual(log.map { $0.headers["x-client"] }, ["fleet-7", "fleet-7"])
    }

    func testAUserAgentOrAcceptHeaderReplacesTheLoadersOwn() async throws {
        let configured = loader { $0.userAgent = "configured/1" }
        _ = try await configured.load(DataRequest(url: nginx.url("/photo.jpg")))
        _ = try await configured.load(DataRequest(url: nginx.url("/photo.jpg"), headers: ["user-agent": "probe/3", "Accept": "image/png"]))
        let overridden = loader {
            $0.userAgent = "configured/1"
            $0.headers = ["User-Agent": "from-headers/2"]
        }
        _ = try await overridden.load(DataRequest(url: nginx.url("/photo.jpg")))
        let log = try nginx.accessLog(count: 3)
        XCTAssertEqual(log.map { $0.headers["user-agent"] }, ["configured/1", "probe/3", "from-headers/2"])
        let accept = "image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1"
        XCTAssertEqual(log.map { $0.headers["accept"] }, [accept, "image/png", accept])
    }

    func testCredentialsAreDroppedOnARedirectToAnotherOriginAndOtherHeadersGo() async throws {
        let other = try secondServer()
        defer { other.stop() }
        let headers = credentials.merging(["X-Trace": "trace-9"]) { $1 }
        let response = try await loader().load(DataRequest(
            url: nginx.url("/redirect/127.0.0.1:\(other.port)/photo.jpg"), headers: headers))
        XCTAssertEqual(response.data, image)
        XCTAssertEqual(response.url, other.url("/photo.jpg"))
        let first = try nginx.accessLog(count: 1)
        XCTAssertEqual(first.map(\.status), [302])
        XCTAssertEqual(first.map { $0.headers["authorization"] }, ["Bearer s3cret"])
        XCTAssertEqual(first.map { $0.headers["cookie"] }, ["session=42"])
        XCTAssertEqual(first.map { $0.headers["proxy-authorization"] }, ["Basic cHJveHk="])
        let second = try other.accessLog(count: 1)
        XCTAssertEqual(second.map(\.path), ["/photo.jpg"])
        XCTAssertEqual(second.map(\.headers), [[
            "x-trace": "trace-9", "user-agent": "imgcache", "accept": "image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1",
        ]], "no Authorization, Cookie or Proxy-Authorization at the other origin")
    }

    func testConfigurationCredentialsAreDroppedOnARedirectToAnotherOriginToo() async throws {
        let other = try secondServer()
        defer { other.stop() }
        let loader = loader { $0.headers = ["authorization": "Basic Y29uZmln", "X-Client": "fleet-7"] }
        _ = try await loader.load(DataRequest(url: nginx.url("/redirect/127.0.0.1:\(other.port)/photo.jpg")))
        XCTAssertEqual(try nginx.accessLog(count: 1).map { $0.headers["authorization"] }, ["Basic Y29uZmln"])
        let second = try other.accessLog(count: 1)
        XCTAssertEqual(second.map { $0.headers["authorization"] }, [nil])
        XCTAssertEqual(second.map { $0.headers["x-client"] }, ["fleet-7"])
    }

    func testARedirectToTheSameOriginKeepsTheCredentials() async throws {
        let response = try await loader().load(DataRequest(
            url: nginx.url("/redirect/127.0.0.1:\(nginx.port)/photo.jpg"), headers: credentials))
        XCTAssertEqual(response.data, image)
        let log = try nginx.accessLog(count: 2)
        XCTAssertEqual(log.map(\.status), [302, 200])
        XCTAssertEqual(log.map { $0.headers["authorization"] }, ["Bearer s3cret", "Bearer s3cret"])
        XCTAssertEqual(log.map { $0.headers["cookie"] }, ["session=42", "session=42"])
    }

    func testARedirectBackToTheFirstOriginSendsTheCredentialsAgain() async throws {
        let other = try secondServer()
        defer { other.stop() }
        // First origin, then the other (which redirects back), then the first again, as curl does.
        let path = "/redirect/127.0.0.1:\(other.port)/redirect/127.0.0.1:\(nginx.port)/photo.jpg"
        let response = try await loader().load(DataRequest(url: nginx.url(path), headers: credentials))
        XCTAssertEqual(response.data, image)
        XCTAssertEqual(response.url, nginx.url("/photo.jpg"))
        let first = try nginx.accessLog(count: 2)
        XCTAssertEqual(first.map(\.path), [path, "/photo.jpg"])
        XCTAssertEqual(first.map { $0.headers["authorization"] }, ["Bearer s3cret", "Bearer s3cret"])
        XCTAssertEqual(first.map { $0.headers["cookie"] }, ["session=42", "session=42"])
        let second = try other.accessLog(count: 1)
        XCTAssertEqual(second.map(\.status), [302])
        XCTAssertEqual(second.map { $0.headers["authorization"] }, [nil])
        XCTAssertEqual(second.map { $0.headers["cookie"] }, [nil])
    }

    func testAnotherHostNameForTheSameServerIsAnotherOrigin() async throws {
        let response = try await loader().load(DataRequest(
            url: nginx.url("/redirect/localhost:\(nginx.port)/photo.jpg"), headers: credentials))
        XCTAssertEqual(response.url, URL(string: "http://localhost:\(nginx.port)/photo.jpg"))
        let log = try nginx.accessLog(count: 2)
        XCTAssertEqual(log.map { $0.headers["authorization"] }, ["Bearer s3cret", nil])
        XCTAssertEqual(log.map { $0.headers["cookie"] }, ["session=42", nil])
    }

    func testInvalidHeadersFailBeforeAnyRequestIsSent() async throws {
        let url = nginx.url("/photo.jpg")
        let refusals: [(DataLoader, [String: String], String)] = [
            (loader(), ["X-Trace": "a\r\nX-Injected: 1"],
             "request header 'X-Trace' has a carriage return (CR) in its value (only tab is allowed among control characters)"),
            (loader(), ["Host": "other.test"],
             "request header 'Host' is set by libcurl and the loader for the connection and the message's framing"),
            (loader(), ["X Trace": "1"],
             "request header name has a space at character 2, which no name may hold (RFC 9110 token characters only)"),
            (loader { $0.headers = ["Cookie": "id=s3cret\n"] }, [:],
             "configuration header 'Cookie' has a line feed (LF) in its value (only tab is allowed among control characters)"),
        ]
        for (loader, headers, expected) in refusals {
            do {
                _ = try await loader.load(DataRequest(url: url, headers: headers))
                XCTFail("loaded with \(headers.keys.sorted())")
            } catch {
                XCTAssertEqual(error as? ImgCacheError, .invalidArgument(expected))
                XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
            }
        }
        // nginx logs in order: once the valid request's line is in, none came before it.
        _ = try await loader().load(DataRequest(url: nginx.url("/photo.jpg?valid")))
        let log = try nginx.accessLog(count: 1)
        XCTAssertEqual(log.map(\.status), [200])
        XCTAssertEqual(log.count, 1, "\(log)")
    }

    func testAnEmptyValueIsSentAsAnEmptyHeader() async throws {
        let echo = try FaultServer()
        defer { echo.stop() }
        let empty = try HTTPHeaderField(parsing: "X-Empty;")
        let response = try await loader().load(DataRequest(
            url: echo.url("/headers"), headers: HTTPHeaderField.dictionary([empty])))
        let lines = String(decoding: response.data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.contains("X-Empty: "), lines.joined(separator: "\n"))
    }
}
