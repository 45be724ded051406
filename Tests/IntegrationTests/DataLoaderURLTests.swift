import Foundation
import ImgCache
import XCTest

/// Which URLs the loader accepts, local files, and the loader's lifetime.
final class DataLoaderURLTests: XCTestCase {
    func testSchemesOtherThanHTTPAreInvalid() async throws {
        for text in ["ftp://x/a.jpg", "data:image/gif;base64,R0lGOD", "http:///nohost.jpg", "mailto:a@b.c"] {
            let url = try XCTUnwrap(URL(string: text))
            do {
                _ = try await DataLoader().load(DataRequest(url: url))
                XCTFail("\(text) loaded")
            } catch {
                XCTAssertEqual(error as? ImgCacheError, .invalidURL(url.absoluteString))
            }
        }
    }

    func testFileURLsAreRefusedUnlessAllowed() async throws {
        let file = try temporaryFile(bytes: 100)
        do {
            _ = try await DataLoader().load(DataRequest(url: file))
            XCTFail("a file URL loaded by default")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .invalidURL(file.absoluteString))
        }
    }

    func testAllowedFileURLIsReadWithDefaultFreshness() async throws {
        let file = try temporaryFile(bytes: 100)
        var configuration = DataLoader.Configuration()
        configuration.allowsFileURLs = true
        let response = try await DataLoader(configuration: configuration).load(DataRequest(url: file))
        XCTAssertEqual(response.data, try Data(contentsOf: file))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.attempts, 1)
        XCTAssertEqual(response.validators, HTTPValidators())
        XCTAssertEqual(response.freshness.expires.timeIntervalSinceNow, 3600, accuracy: 5)
    }

    func testFileOverTheByteLimitIsTooLarge() async throws {
        let file = try temporaryFile(bytes: 1001)
        var configuration = DataLoader.Configuration()
        configuration.allowsFileURLs = true
        configuration.maxBytes = 1000
        do {
            _ = try await DataLoader(configuration: configuration).load(DataRequest(url: file))
            XCTFail("a file over the limit loaded")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .tooLarge(bytes: 1001, limit: 1000))
        }
        configuration.maxBytes = 1001
        let response = try await DataLoader(configuration: configuration).load(DataRequest(url: file))
        XCTAssertEqual(response.data.count, 1001)
    }

    func testMissingFileIsAnIOError() async throws {
        var configuration = DataLoader.Configuration()
        configuration.allowsFileURLs = true
        let file = URL(fileURLWithPath: "/nonexistent/imgcache-\(UUID().uuidString).jpg")
        do {
            _ = try await DataLoader(configuration: configuration).load(DataRequest(url: file))
            XCTFail("a missing file loaded")
        } catch ImgCacheError.io(let path, _) {
            XCTAssertEqual(path, file.path)
        }
    }

    func testLoaderIsReleasedAfterUse() async throws {
        for reusesConnections in [false, true] {
            weak var released: DataLoader?
            do {
                var configuration = DataLoader.Configuration()
                configuration.retryPolicy = .none
                configuration.reusesConnections = reusesConnections
                let loader = DataLoader(configuration: configuration)
                released = loader
                _ = try? await loader.load(DataRequest(url: URL(string: "http://127.0.0.1:9/")!))
            }
            XCTAssertNil(released, "the loader, its sessions and their delegate make no cycle")
        }
    }

    private func temporaryFile(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-\(UUID().uuidString).bin")
        try Data((0..<bytes).map { UInt8($0 % 251) }).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
