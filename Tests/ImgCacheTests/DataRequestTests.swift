import Foundation
import XCTest
@testable import ImgCache

/// A request's equality and hash, which leave its observer out, and the headers it sends.
final class DataRequestTests: XCTestCase {
    private let url = URL(string: "https://images.example.org/a.jpg")!

    func testTheObserverIsLeftOutOfEqualityAndHash() {
        let watched = DataRequest(url: url, headers: ["X-Trace": "1"], observer: { _ in })
        let plain = DataRequest(url: url, headers: ["X-Trace": "1"])
        XCTAssertEqual(watched, plain)
        XCTAssertEqual(Set([watched, plain]).count, 1)
        XCTAssertNotEqual(plain, DataRequest(url: url, headers: ["X-Trace": "2"]))
        XCTAssertNotEqual(plain, DataRequest(url: url, validators: HTTPValidators(etag: "\"v1\""), headers: ["X-Trace": "1"]))
        XCTAssertNotEqual(plain, DataRequest(url: URL(string: "https://images.example.org/b.jpg")!, headers: ["X-Trace": "1"]))
    }

    func testLaterHeadersReplaceEarlierOnesOfTheSameNameWhateverTheCase() {
        var configuration = DataLoader.Configuration()
        configuration.userAgent = "configured-agent"
        configuration.headers = ["X-Trace": "configuration", "X-Client": "c1", "authorization": "Basic Y29uZmln"]
        let loader = DataLoader(configuration: configuration)
        let request = DataRequest(
            url: url, validators: HTTPValidators(etag: "\"v1\"", lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"),
            headers: ["x-trace": "request", "Accept": "image/png", "Cookie": "id=1"])
        let (urlRequest, credentials) = loader.urlRequest(for: request)
        // URLRequest spells names its own way (X-Trace for x-trace): names are compared in lower case.
        let sent = Dictionary(uniqueKeysWithValues: (urlRequest.allHTTPHeaderFields ?? [:]).map { ($0.key.lowercased(), $0.value) })
        XCTAssertEqual(sent, [
            "accept": "image/png", "user-agent": "configured-agent", "x-trace": "request", "x-client": "c1",
            "authorization": "Basic Y29uZmln", "cookie": "id=1", "if-none-match": "\"v1\"",
            "if-modified-since": "Tue, 14 Nov 2023 22:13:20 GMT",
        ])
        XCTAssertEqual(credentials, ["authorization": "Basic Y29uZmln", "Cookie": "id=1"])
    }

    func testTheLoadersAcceptAndUserAgentGoWhenNothingReplacesThem() {
        let (urlRequest, credentials) = DataLoader().urlRequest(for: DataRequest(url: url))
        XCTAssertEqual(urlRequest.allHTTPHeaderFields, [
            "Accept": "image/jpeg, image/png, image/gif, image/webp, image/heic, image/avif, */*;q=0.1", "User-Agent": "imgcache",
        ])
        XCTAssertEqual(credentials, [:])
    }
}
