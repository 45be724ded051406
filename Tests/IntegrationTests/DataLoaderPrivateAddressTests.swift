import Foundation
import Synchronization
import TestSupport
import XCTest

@testable import ImgCache

/// `refusesPrivateAddresses` against the fault server on 127.0.0.1: every spelling of a loopback
/// address is refused before any request, first URL or redirect (a redirect is tested from
/// 127.0.0.1 allowed by `allowedPrivateHosts`, there being no public server here); names are
/// looked up off URLSession's delegate queue and an http hop goes to the address checked (shown
/// with made-up names that only the test's lookup answers, which libcurl could never resolve).
final class DataLoaderPrivateAddressTests: FaultServerTestCase {
    private func url(_ host: String, _ path: String) -> URL {
        URL(string: "http://\(host):\(server.port)\(path)")!
    }

    private func redirect(to target: URL) -> String {
        "/redirect-to?url=" + target.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    private func refusing(allowing allowed: [String] = [], _ change: (inout DataLoader.Configuration) -> Void = { _ in }) -> DataLoader {
        loader {
            $0.refusesPrivateAddresses = true
            $0.allowedPrivateHosts = allowed
            change(&$0)
        }
    }

    /// A loader whose lookup tells `record` of each name, answers `names` with 127.0.0.1, fails
    /// for other names, and blocks on `gate` for "hang.test".
    private func refusing(
        names: Set<String>, allowing allowed: [String], record: @escaping @Sendable (String) -> Void = { _ in },
        gate: DispatchSemaphore? = nil,
        _ change: (inout DataLoader.Configuration) -> Void = { _ in }
    ) throws -> DataLoader {
        var configuration = Self.configuration
        configuration.refusesPrivateAddresses = true
        configuration.allowedPrivateHosts = allowed
        change(&configuration)
        let loopback = try SocketAddress.lookUp("127.0.0.1", service: "0", numericOnly: true)
        return DataLoader(configuration: configuration, sleep: { try await Task.sleep(for: $0) }) { host throws(SocketAddress.LookupFailure) in
            record(host)
            if host == "hang.test" { gate?.wait() }
            guard names.contains(host) else { throw SocketAddress.LookupFailure(description: "cannot resolve \(host): no such name") }
            return loopback
        }
    }

    func testEverySpellingOfALoopbackAddressIsRefusedBeforeAnyRequest() async throws {
        let loader = refusing()
        let loopback = "127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"
        let cases: [(host: String, reason: String)] = [
            ("127.0.0.1", "host '127.0.0.1' is " + loopback),
            ("localhost", "host 'localhost' resolves to " + loopback),
            ("2130706433", "host '2130706433' is " + loopback),
            ("0x7f.1", "host '0x7f.1' is " + loopback),
            ("0177.0.0.1", "host '0177.0.0.1' is " + loopback),
            ("127.1", "host '127.1' is " + loopback),
            ("[::1]", "host '[::1]' is ::1, which is not a public address (loopback, ::1/128)"),
            ("[::ffff:127.0.0.1]",
             "host '[::ffff:127.0.0.1]' is ::ffff:127.0.0.1, which is not a public address (IPv4-mapped, ::ffff:0:0/96: 127.0.0.1 is loopback, 127.0.0.0/8)"),
        ]
        let start = Date()
        for (host, reason) in cases {
            let url = url(host, "/ok.jpg")
            let error = await loader.error(loading: url)
            XCTAssertEqual(error, .refusedURL(url: url.absoluteString, reason: reason), host)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let requests = try await server.count("/ok.jpg")
        XCTAssertEqual(requests, 0, "nothing was sent")
        // Off, the canonical spellings load; FoundationNetworking itself fails the others (libcurl
        // writes their host differently) with a network error, not a refusal.
        let permissive = self.loader()
        for host in ["127.0.0.1", "localhost"] {
            let response = try await permissive.load(DataRequest(url: url(host, "/ok.jpg")))
            XCTAssertEqual(response.data, server.image, host)
        }
        for host in ["2130706433", "0x7f.1", "[::1]"] {
            let error = await permissive.error(loading: url(host, "/ok.jpg"))
            guard case .network? = error else { return XCTFail("\(host): \(String(describing: error))") }
        }
        let loaded = try await server.count("/ok.jpg")
        XCTAssertEqual(loaded, 2)
    }

    func testARedirectToAPrivateAddressIsRefusedAndNotFollowed() async throws {
        let loader = refusing(allowing: ["127.0.0.1"])
        let loopback = "127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"
        let targets: [(url: URL, reason: String)] = [
            (url("localhost", "/ok.jpg"), "host 'localhost' resolves to " + loopback),
            (url("2130706433", "/ok.jpg"), "host '2130706433' is " + loopback),
            (url("0x7f.1", "/ok.jpg"), "host '0x7f.1' is " + loopback),
            (url("[::1]", "/ok.jpg"), "host '[::1]' is ::1, which is not a public address (loopback, ::1/128)"),
        ]
        let start = Date()
        for (target, reason) in targets {
            let (error, _) = await failure(redirect(to: target), with: loader)
            XCTAssertEqual(
                error, .refusedURL(url: target.absoluteString, reason: "refused a redirect to \(target.absoluteString): \(reason)"))
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let followed = try await server.count("/ok.jpg")
        XCTAssertEqual(followed, 0, "no redirect was followed")
        let redirects = try await server.count("/redirect-to")
        XCTAssertEqual(redirects, targets.count, "a refusal is not retried")
        // The allowed host itself, by relative redirects: followed.
        let (response, _) = try await load("/redirects/3", with: loader)
        XCTAssertEqual(response.data, server.image)
        XCTAssertEqual(response.url, server.url("/redirects/0"))
    }

    /// The hop goes to the address the loader checked: libcurl never looks the name up (it could
    /// not: only the test's lookup knows it), the URL and the redirects keep naming it, and the
    /// server sees it in `Host`.
    func testAnHTTPHopGoesToTheAddressCheckedUnderItsName() async throws {
        let calls = Atomic(0)
        let loader = try refusing(names: ["images.test", "cdn.test"], allowing: ["images.test", "cdn.test"]) { _ in
            calls.add(1, ordering: .sequentiallyConsistent)
        }
        let headers = try await loader.load(DataRequest(url: url("images.test", "/headers")))
        XCTAssertEqual(headers.url, url("images.test", "/headers"))
        let lines = String(decoding: headers.data, as: UTF8.self).split(separator: "\n")
        XCTAssertTrue(lines.contains("Host: images.test:\(server.port)"), "\(lines)")
        // Relative redirects are read against the name; an absolute one to another name is
        // looked up (off the delegate queue) and pinned too.
        let chain = try await loader.load(DataRequest(url: url("images.test", "/redirects/2")))
        XCTAssertEqual(chain.data, server.image)
        XCTAssertEqual(chain.url, url("images.test", "/redirects/0"))
        let moved = try await loader.load(DataRequest(url: url("images.test", redirect(to: url("cdn.test", "/headers")))))
        XCTAssertEqual(moved.url, url("cdn.test", "/headers"))
        XCTAssertTrue(String(decoding: moved.data, as: UTF8.self).contains("Host: cdn.test:\(server.port)\n"))
        // One lookup per hop: 1, then 3, then 2.
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 6)
        // The same name, not allowed, resolves to 127.0.0.1: refused.
        let error = await (try refusing(names: ["cdn.test"], allowing: [])).error(loading: url("cdn.test", "/ok.jpg"))
        XCTAssertEqual(error, .refusedURL(
            url: url("cdn.test", "/ok.jpg").absoluteString,
            reason: "host 'cdn.test' resolves to 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"))
    }

    func testANameThatDoesNotResolveIsANetworkErrorRetriedAsBefore() async throws {
        let calls = Atomic(0)
        let loader = try refusing(names: [], allowing: []) { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        let url = url("nowhere.test", "/ok.jpg")
        let error = await loader.error(loading: url)
        XCTAssertEqual(error, .network(url: url.absoluteString, detail: "host not found (cannot resolve nowhere.test: no such name)"))
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 3, "three attempts")
    }

    /// A lookup that hangs fails its hop at the connect time-out, first URL or redirect, and stalls
    /// no other transfer of the session: the redirect is answered from the lookup's thread, never
    /// waited for on URLSession's delegate queue, so another load ends while it hangs.
    func testAHangingLookupTimesOutAndStallsNoOtherTransfer() async throws {
        let gate = DispatchSemaphore(value: 0)
        defer { for _ in 0..<4 { gate.signal() } }
        let loader = try refusing(names: ["hang.test"], allowing: ["127.0.0.1", "hang.test"], gate: gate) {
            $0.connectTimeout = 0.5
            $0.retryPolicy.maxAttempts = 1
        }
        let first = url("hang.test", "/ok.jpg")
        let start = Date()
        let error = await loader.error(loading: first)
        XCTAssertEqual(error, .timeout(url: first.absoluteString, seconds: 0.5))
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "at the connect time-out, not the overall one (10 s)")

        // A loader whose redirect hangs 3 s in its lookup: long enough for another load to end.
        let lookups = Mutex(0)
        let redirecting = try refusing(
            names: ["hang.test"], allowing: ["127.0.0.1", "hang.test"],
            record: { host in if host == "hang.test" { lookups.withLock { $0 += 1 } } }, gate: gate
        ) {
            $0.connectTimeout = 3
            $0.retryPolicy.maxAttempts = 1
        }
        let hop = server.url(redirect(to: url("hang.test", "/ok.jpg")))
        let redirectEnded = Mutex(false)
        let redirected = Task { () -> ImgCacheError? in
            defer { redirectEnded.withLock { $0 = true } }
            do {
                _ = try await redirecting.load(DataRequest(url: hop))
                return nil
            } catch {
                return error as? ImgCacheError
            }
        }
        try await waitUntil("the redirect's lookup hangs") { lookups.withLock { $0 } == 1 }
        let (response, _) = try await load("/delay?seconds=0.05", with: redirecting)
        XCTAssertEqual(response.data, server.image)
        XCTAssertFalse(redirectEnded.withLock { $0 }, "another load ended while the redirect's lookup hangs")
        let redirectError = await redirected.value
        XCTAssertEqual(redirectError, .timeout(url: hop.absoluteString, seconds: 3))
        let sent = try await server.count("/ok.jpg")
        XCTAssertEqual(sent, 0)
    }
}
