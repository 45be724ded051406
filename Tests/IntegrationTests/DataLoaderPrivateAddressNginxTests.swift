import Foundation
import ImgCache
import XCTest

/// `refusesPrivateAddresses` against Debian's nginx on 127.0.0.1, counted in its access log: a
/// refused URL or redirect leaves no line. nginx must be installed: these tests fail, not skip,
/// without it.
final class DataLoaderPrivateAddressNginxTests: XCTestCase {
    private var nginx: NginxServer!
    private var image = Data()

    override func setUp() async throws {
        nginx = try NginxServer()
        image = try TestImage.jpeg()
        try image.write(to: nginx.root.appendingPathComponent("x.jpg"))
    }

    override func tearDown() async throws {
        nginx?.stop()
        nginx = nil
    }

    private func loader(refusing: Bool, allowing allowed: [String] = []) -> DataLoader {
        var configuration = DataLoader.Configuration()
        configuration.refusesPrivateAddresses = refusing
        configuration.allowedPrivateHosts = allowed
        return DataLoader(configuration: configuration)
    }

    private func url(_ host: String, _ path: String) -> URL {
        URL(string: "http://\(host):\(nginx.port)\(path)")!
    }

    func testLoopbackURLsAreRefusedBeforeNginxSeesARequest() async throws {
        let loader = loader(refusing: true)
        let loopback = "127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"
        for (host, reason) in [("127.0.0.1", "host '127.0.0.1' is " + loopback), ("localhost", "host 'localhost' resolves to " + loopback)] {
            let url = url(host, "/x.jpg")
            let error = await loader.error(loading: url)
            XCTAssertEqual(error, .refusedURL(url: url.absoluteString, reason: reason))
        }
        let refused = try await nginx.settledAccessLog()
        XCTAssertEqual(refused, [], "no request reached nginx")
        let response = try await self.loader(refusing: false).load(DataRequest(url: url("localhost", "/x.jpg")))
        XCTAssertEqual(response.data, image)
        let loaded = try await nginx.settledAccessLog()
        XCTAssertEqual(loaded.map(\.path), ["/x.jpg"])
    }

    func testARedirectFromAnAllowedHostToAnotherNameOfLoopbackIsRefused() async throws {
        let target = url("localhost", "/x.jpg")
        let error = await loader(refusing: true, allowing: ["127.0.0.1"]).error(loading: url("127.0.0.1", "/redirect/localhost:\(nginx.port)/x.jpg"))
        XCTAssertEqual(error, .refusedURL(
            url: target.absoluteString,
            reason: "refused a redirect to \(target.absoluteString): host 'localhost' resolves to 127.0.0.1, which is not a public address (loopback, 127.0.0.0/8)"))
        let log = try await nginx.settledAccessLog()
        XCTAssertEqual(log.map(\.path), ["/redirect/localhost:\(nginx.port)/x.jpg"], "the redirect was not followed")
        XCTAssertEqual(log.map(\.status), [302])
        // Both names allowed: followed, to the address checked, under the name.
        let response = try await loader(refusing: true, allowing: ["127.0.0.1", "localhost"])
            .load(DataRequest(url: url("127.0.0.1", "/redirect/localhost:\(nginx.port)/x.jpg")))
        XCTAssertEqual(response.data, image)
        XCTAssertEqual(response.url, target)
        let followed = try await nginx.settledAccessLog()
        XCTAssertEqual(followed.map(\.path).last, "/x.jpg")
    }
}
