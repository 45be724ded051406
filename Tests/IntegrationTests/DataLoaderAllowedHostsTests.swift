import Foundation
import ImgCache
import XCTest

/// `allowedHosts`, checked on the first URL and on every redirect, against the fault server, which
/// answers both as 127.0.0.1 and as localhost.
final class DataLoaderAllowedHostsTests: FaultServerTestCase {
    private func localhost(_ path: String) -> URL {
        URL(string: server.url(path).absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))!
    }

    func testAHostThatIsNotAllowedIsRefusedBeforeAnyRequest() async throws {
        let loader = loader { $0.allowedHosts = ["127.0.0.1"] }
        let url = localhost("/ok.jpg")
        do {
            _ = try await loader.load(DataRequest(url: url))
            XCTFail("loaded \(url)")
        } catch let error as ImgCacheError {
            XCTAssertEqual(error, .refusedURL(url: url.absoluteString, reason: "host 'localhost' is not in the allowed hosts"))
        }
        let count = try await server.count("/ok.jpg")
        XCTAssertEqual(count, 0, "nothing was sent")
        let (allowed, _) = try await load("/ok.jpg", with: loader)
        XCTAssertEqual(allowed.data, server.image)
    }

    func testARedirectToAHostThatIsNotAllowedIsRefusedAndNotFollowed() async throws {
        let target = localhost("/ok.jpg").absoluteString
        let path = "/redirect-to?url=" + target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (error, elapsed) = await failure(path, with: loader { $0.allowedHosts = ["127.0.0.1", "*.example.com"] })
        XCTAssertEqual(error, .refusedURL(url: target, reason: "refused a redirect to \(target): host 'localhost' is not in the allowed hosts"))
        let followed = try await server.count("/ok.jpg")
        XCTAssertEqual(followed, 0)
        let redirects = try await server.count("/redirect-to")
        XCTAssertEqual(redirects, 1, "a refusal is not retried")
        XCTAssertLessThan(elapsed, 2)
    }

    func testInvalidPatternsFailEveryLoad() async throws {
        for pattern in ["", "*", "*.com", "exa mple.com", "a..b"] {
            let (error, _) = await failure("/ok.jpg", with: loader { $0.allowedHosts = [pattern] })
            guard case .invalidArgument(let detail)? = error else {
                XCTFail("expected .invalidArgument for '\(pattern)', got \(String(describing: error))")
                continue
            }
            XCTAssertTrue(detail.contains("allowed host pattern"), detail)
        }
    }
}
