import XCTest
@testable import ImgCache

final class URLPolicyTests: XCTestCase {
    func testPatternsMatchExactNamesAndSubdomainsCaseInsensitively() throws {
        let policy = try URLPolicy(allowedHosts: ["images.example.org", "*.cdn.example.com", "10.0.0.7"])
        let allowed = ["https://images.example.org/a.jpg", "http://IMAGES.example.org./b", "https://x.cdn.example.com/c",
                       "https://a.b.cdn.example.com/d", "http://10.0.0.7:8080/e"]
        let refused = ["https://example.org/a", "https://cdn.example.com/c", "https://evilcdn.example.com/c",
                       "https://cdn.example.com.evil.net/c", "http://10.0.0.70/e"]
        for url in allowed { XCTAssertNil(policy.refusal(for: URL(string: url)!), url) }
        for url in refused { XCTAssertNotNil(policy.refusal(for: URL(string: url)!), url) }
        XCTAssertNil(try URLPolicy(allowedHosts: nil).refusal(for: URL(string: "https://anything.test/")!))
        XCTAssertNotNil(try URLPolicy(allowedHosts: []).refusal(for: URL(string: "https://anything.test/")!), "an empty list allows nothing")
    }

    func testARedirectFromHTTPSToHTTPIsRefusedWhateverTheHosts() throws {
        let policy = try URLPolicy(allowedHosts: nil)
        let secure = URL(string: "https://a.test/x")!
        XCTAssertEqual(policy.refusal(redirectFrom: secure, to: URL(string: "http://a.test/y")!),
                       "refused a redirect from https to http (http://a.test/y)")
        XCTAssertNil(policy.refusal(redirectFrom: secure, to: URL(string: "https://b.test/y")!))
        XCTAssertNil(policy.refusal(redirectFrom: URL(string: "http://a.test/x")!, to: URL(string: "https://a.test/y")!))
    }
}
