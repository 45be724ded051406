import Foundation
import ImgCache
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
#endif

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

    func testAFIFOFailsAtOnceAsNotARegularFile() async throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-\(UUID().uuidString).fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        addTeardownBlock { try? FileManager.default.removeItem(at: fifo) }
        // Nothing ever writes to it: reading it would wait for good.
        let (result, elapsed) = try await fileLoad(fifo)
        guard case .failure(ImgCacheError.io(let path, let detail)) = result else {
            return XCTFail("expected .io, got \(result)")
        }
        XCTAssertEqual(path, fifo.path)
        XCTAssertEqual(detail, "not a regular file but a FIFO")
        XCTAssertLessThan(elapsed, 1)
    }

    func testADeviceFailsAsNotARegularFile() async throws {
        let (result, elapsed) = try await fileLoad(URL(fileURLWithPath: "/dev/zero"))
        guard case .failure(ImgCacheError.io(let path, let detail)) = result else {
            return XCTFail("expected .io, got \(result)")
        }
        XCTAssertEqual(path, "/dev/zero")
        XCTAssertEqual(detail, "not a regular file but a character device")
        XCTAssertLessThan(elapsed, 1)
    }

    func testAFolderFailsAsNotARegularFile() async throws {
        let (result, _) = try await fileLoad(FileManager.default.temporaryDirectory)
        guard case .failure(ImgCacheError.io(_, let detail)) = result else {
            return XCTFail("expected .io, got \(result)")
        }
        XCTAssertEqual(detail, "not a regular file but a directory")
    }

    func testReadingAFilePastTheOverallTimeoutFails() async throws {
        // 256 MiB of holes: far more than any disk reads within the 1 ms time-out.
        let file = try temporaryFile(bytes: 0)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 256 << 20)
        try handle.close()
        let (result, elapsed) = try await fileLoad(file) {
            $0.maxBytes = 256 << 20
            $0.overallTimeout = 0.001
        }
        guard case .failure(let error) = result else { return XCTFail("a 256 MiB file loaded within 1 ms") }
        XCTAssertEqual(error as? ImgCacheError, .timeout(url: file.absoluteString, seconds: 0.001))
        XCTAssertLessThan(elapsed, 1)
    }

    func testInvalidURLSaysWhichURLsLoad() {
        XCTAssertEqual(
            ImgCacheError.invalidURL("ftp://x/a.jpg").description,
            "cannot load 'ftp://x/a.jpg': only http and https URLs with a host, and local file URLs where allowed, are supported")
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

    /// The outcome of loading `file` with file URLs allowed (and `change` made to the
    /// configuration), and the seconds it took; fails the test after 60 s without an outcome (the
    /// read goes on, on the loader's file thread).
    private func fileLoad(
        _ file: URL, _ change: (inout DataLoader.Configuration) -> Void = { _ in }
    ) async throws -> (Result<DataResponse, any Error>, TimeInterval) {
        var configuration = DataLoader.Configuration()
        configuration.allowsFileURLs = true
        change(&configuration)
        let loader = DataLoader(configuration: configuration)
        let outcome = Outcome()
        let ended = expectation(description: "the load of \(file.path) ended")
        let start = Date()
        Task {
            let result = await Task { try await loader.load(DataRequest(url: file)) }.result
            outcome.result.withLock { $0 = (result, Date().timeIntervalSince(start)) }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 60)
        return try XCTUnwrap(outcome.result.withLock { $0 }, "\(file.path) was still being read after 60 s")
    }

    private final class Outcome: Sendable {
        let result = Mutex<(Result<DataResponse, any Error>, TimeInterval)?>(nil)
    }

    private func temporaryFile(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-\(UUID().uuidString).bin")
        try Data((0..<bytes).map { UInt8($0 % 251) }).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
