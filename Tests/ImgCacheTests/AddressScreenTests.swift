import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import XCTest

@testable import ImgCache

/// `AddressScreen`: IP addresses are judged at once, names by a lookup on a thread of its own
/// (here a double that answers made-up names, counts its calls or hangs), and an http hop that
/// passes is pinned to the address checked. No request is sent.
final class AddressScreenTests: XCTestCase {
    private static func addresses(_ literals: String...) -> [SocketAddress] {
        literals.flatMap { (try? SocketAddress.lookUp($0, service: "0", numericOnly: true)) ?? [] }
    }

    /// A screen whose lookup tells `record` of each name, answers `names` and fails for every
    /// other name.
    private func screen(
        _ names: [String: [SocketAddress]] = [:], allowing allowed: [String] = [],
        record: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> AddressScreen {
        try AddressScreen(allowedPrivateHosts: allowed) { host throws(SocketAddress.LookupFailure) in
            record(host)
            guard let found = names[host.lowercased()] else { throw SocketAddress.LookupFailure(description: "cannot resolve \(host): no such name") }
            return found
        }
    }

    /// The verdict on `url`, waiting up to 60 s for it (a bound that only ends a broken run).
    private func verdict(of url: String, by screen: AddressScreen) throws -> AddressScreen.Verdict {
        let verdict = Mutex<AddressScreen.Verdict?>(nil)
        let done = DispatchSemaphore(value: 0)
        screen.screen(URLRequest(url: try XCTUnwrap(URL(string: url)))) { found in
            verdict.withLock { $0 = found }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success, url)
        return try XCTUnwrap(verdict.withLock { $0 }, url)
    }

    private func refusal(of url: String, by screen: AddressScreen) throws -> String? {
        guard case .refuse(let reason) = try verdict(of: url, by: screen) else { return nil }
        return reason
    }

    private func sent(_ url: String, by screen: AddressScreen) throws -> URLRequest? {
        guard case .send(let request) = try verdict(of: url, by: screen) else { return nil }
        return request
    }

    func testIPAddressesInEverySpellingAreRefusedWithoutALookup() throws {
        let calls = Atomic(0)
        let screen = try screen { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        let refused: [(url: String, reason: String)] = [
            ("http://127.0.0.1:8080/x.jpg", "host '127.0.0.1' is 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"),
            ("http://2130706433:8080/x.jpg", "host '2130706433' is 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"),
            ("http://0177.0.0.1/", "host '0177.0.0.1' is 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"),
            ("http://0x7f.1/", "host '0x7f.1' is 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"),
            ("https://127.1/", "host '127.1' is 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"),
            ("http://169.254.169.254/latest/meta-data/",
             "host '169.254.169.254' is 169.254.169.254, which is not a public address (link-local, 169.254.0.0/16)"),
            ("http://0xa9fea9fe/", "host '0xa9fea9fe' is 169.254.169.254, which is not a public address (link-local, 169.254.0.0/16)"),
            ("http://[::1]:8080/", "host '[::1]' is ::1, which is not a public address (loopback, ::1/128)"),
            ("http://[fe80::1%25lo]/", "host '[fe80::1%lo]' is fe80::1, which is not a public address (link-local, fe80::/10)"),
            ("http://[::ffff:127.0.0.1]/",
             "host '[::ffff:127.0.0.1]' is ::ffff:127.0.0.1, which is not a public address (IPv4-mapped, ::ffff:0:0/96: 127.0.0.1 is loopback, 127.0.0.0/8)"),
            ("http://[64:ff9b::a9fe:a9fe]/",
             "host '[64:ff9b::a9fe:a9fe]' is 64:ff9b::a9fe:a9fe, which is not a public address (NAT64, 64:ff9b::/96: 169.254.169.254 is link-local, 169.254.0.0/16)"),
            ("http://10.0.0.1/", "host '10.0.0.1' is 10.0.0.1, which is not a public address (private, 10.0.0.0/8)"),
            ("http://0.0.0.0:8080/", "host '0.0.0.0' is 0.0.0.0, which is not a public address (unspecified, 0.0.0.0/32)"),
        ]
        for (url, reason) in refused {
            XCTAssertEqual(try refusal(of: url, by: screen), reason, url)
        }
        XCTAssertEqual(calls.load(ordering: .sequentiallyConsistent), 0, "no lookup")
    }

    func testANameIsRefusedWhenAnyOfItsAddressesIsNotPublic() throws {
        let screen = try screen([
            "mixed.test": Self.addresses("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "10.1.2.3"),
            "metadata.test.": Self.addresses("169.254.169.254"),
        ])
        XCTAssertEqual(
            try refusal(of: "http://mixed.test/x.jpg", by: screen),
            "host 'mixed.test' resolves to 10.1.2.3, which is not a public address (private, 10.0.0.0/8)")
        // The name is looked up as the URL spells it, trailing dot included, as libcurl would.
        XCTAssertEqual(
            try refusal(of: "http://metadata.test./", by: screen),
            "host 'metadata.test' resolves to 169.254.169.254, which is not a public address (link-local, 169.254.0.0/16)")
    }

    func testAnHTTPHopIsPinnedToTheIPv4AddressCheckedAndAnHTTPSOneIsNot() throws {
        let screen = try screen([
            "images.test": Self.addresses("2606:2800:21f:cb07:6820:80da:af6b:8b2c", "93.184.215.14"),
            "v6.test": Self.addresses("2606:2800:21f:cb07:6820:80da:af6b:8b2c"),
        ])
        let pinned = try XCTUnwrap(try sent("http://user:secret@images.test:8080/a/b%20c.jpg?w=1&h=2", by: screen))
        XCTAssertEqual(pinned.url?.absoluteString, "http://user:secret@93.184.215.14:8080/a/b%20c.jpg?w=1&h=2")
        XCTAssertEqual(pinned.value(forHTTPHeaderField: "Host"), "images.test:8080")
        let defaultPort = try XCTUnwrap(try sent("http://IMAGES.test:80/x.jpg", by: screen))
        XCTAssertEqual(defaultPort.url?.absoluteString, "http://93.184.215.14:80/x.jpg")
        XCTAssertEqual(defaultPort.value(forHTTPHeaderField: "Host"), "IMAGES.test")
        // URLSession on Linux loads no URL naming an IPv6 address: such a name cannot be pinned.
        XCTAssertEqual(
            try refusal(of: "http://v6.test/x.jpg", by: screen),
            "host 'v6.test' has no IPv4 address to send the request to (URLSession on Linux loads no URL naming an IPv6 address)")
        XCTAssertEqual(try sent("https://v6.test/x.jpg", by: screen)?.url?.absoluteString, "https://v6.test/x.jpg")
        // An address in the URL is sent as it is.
        XCTAssertEqual(try sent("http://93.184.215.14:8080/x.jpg", by: screen)?.url?.absoluteString, "http://93.184.215.14:8080/x.jpg")
        // https keeps its name (for the certificate and SNI), and drops a Host an http hop had set.
        var redirected = URLRequest(url: try XCTUnwrap(URL(string: "https://images.test/x.jpg")))
        redirected.setValue("images.test:8080", forHTTPHeaderField: "Host")
        let verdict = Mutex<AddressScreen.Verdict?>(nil)
        let done = DispatchSemaphore(value: 0)
        screen.screen(redirected) { found in
            verdict.withLock { $0 = found }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        guard case .send(let https)? = verdict.withLock({ $0 }) else { return XCTFail("https was not sent") }
        XCTAssertEqual(https.url?.absoluteString, "https://images.test/x.jpg")
        XCTAssertNil(https.value(forHTTPHeaderField: "Host"))
    }

    func testAllowedPrivateHostsAreSentToTheirAddressWhateverItIs() throws {
        let screen = try screen(
            ["origin.internal.test": Self.addresses("10.20.30.40"), "other.test": Self.addresses("10.20.30.41")],
            allowing: ["127.0.0.1", "*.internal.test", "[::1]"])
        let origin = try XCTUnwrap(try sent("http://origin.internal.test/x.jpg", by: screen))
        XCTAssertEqual(origin.url?.absoluteString, "http://10.20.30.40/x.jpg")
        XCTAssertEqual(origin.value(forHTTPHeaderField: "Host"), "origin.internal.test")
        XCTAssertEqual(try sent("http://127.0.0.1:8080/x.jpg", by: screen)?.url?.absoluteString, "http://127.0.0.1:8080/x.jpg")
        XCTAssertEqual(try sent("https://[::1]:8080/x.jpg", by: screen)?.url?.absoluteString, "https://[::1]:8080/x.jpg")
        // Allowed by name, not by address: other spellings of 127.0.0.1 and other names are refused.
        XCTAssertNotNil(try refusal(of: "http://2130706433:8080/x.jpg", by: screen))
        XCTAssertNotNil(try refusal(of: "http://127.0.0.2:8080/x.jpg", by: screen))
        XCTAssertNotNil(try refusal(of: "http://other.test/x.jpg", by: screen))
        XCTAssertThrowsError(try AddressScreen(allowedPrivateHosts: ["*.com"])) { error in
            guard case ImgCacheError.invalidArgument(let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(detail, "allowed private host pattern '*.com' needs a domain of two labels or more after '*.'")
        }
    }

    func testANameThatDoesNotResolveIsUnresolved() throws {
        guard case .unresolved(let detail) = try verdict(of: "http://nowhere.test/x.jpg", by: try screen()) else {
            return XCTFail("not unresolved")
        }
        XCTAssertEqual(detail, "cannot resolve nowhere.test: no such name")
    }

    func testAHangingLookupBlocksNoCaller() throws {
        let gate = DispatchSemaphore(value: 0)
        let found = Self.addresses("93.184.215.14")
        let screen = try AddressScreen(allowedPrivateHosts: []) { _ throws(SocketAddress.LookupFailure) in
            gate.wait()
            return found
        }
        let done = DispatchSemaphore(value: 0), returned = DispatchSemaphore(value: 0)
        let request = URLRequest(url: try XCTUnwrap(URL(string: "http://slow.test/x.jpg")))
        DispatchQueue.global().async {
            screen.screen(request) { _ in done.signal() }
            returned.signal()
        }
        // The lookup stays held until the gate opens below: the call must return before that.
        XCTAssertEqual(returned.wait(timeout: .now() + 60), .success, "screen returned while the lookup hangs")
        XCTAssertEqual(done.wait(timeout: .now() + 0.2), .timedOut, "no verdict while the lookup hangs")
        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
    }
}
