import Foundation
import ImgCache
import XCTest

/// A test case with a fresh fault server (so fresh request counts) for every test, and a loader
/// with short limits: 1 MiB, connect 2 s, idle 1 s, overall 10 s, 3 attempts 50 ms apart.
class FaultServerTestCase: XCTestCase {
    var server: FaultServer!

    override func setUp() async throws {
        server = try FaultServer()
    }

    override func tearDown() async throws {
        server?.stop()
        server = nil
    }

    static var configuration: DataLoader.Configuration {
        var configuration = DataLoader.Configuration()
        configuration.maxBytes = 1 << 20
        configuration.connectTimeout = 2
        configuration.requestTimeout = 1
        configuration.overallTimeout = 10
        configuration.retryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.05, multiplier: 2, maxDelay: 0.2)
        return configuration
    }

    func loader(_ change: (inout DataLoader.Configuration) -> Void = { _ in }) -> DataLoader {
        var configuration = Self.configuration
        change(&configuration)
        return DataLoader(configuration: configuration)
    }

    /// Loads `path` and returns the response and the seconds it took.
    func load(
        _ path: String, with loader: DataLoader, validators: HTTPValidators = HTTPValidators()
    ) async throws -> (DataResponse, TimeInterval) {
        let start = Date()
        let response = try await loader.load(DataRequest(url: server.url(path), validators: validators))
        return (response, Date().timeIntervalSince(start))
    }

    /// Loads `path`, expecting a failure; returns the error and the seconds it took.
    func failure(
        _ path: String, with loader: DataLoader, file: StaticString = #filePath, line: UInt = #line
    ) async -> (ImgCacheError?, TimeInterval) {
        let start = Date()
        do {
            let response = try await loader.load(DataRequest(url: server.url(path)))
            XCTFail("\(path) loaded \(response.data.count) bytes with status \(response.statusCode)", file: file, line: line)
            return (nil, Date().timeIntervalSince(start))
        } catch let error as ImgCacheError {
            return (error, Date().timeIntervalSince(start))
        } catch {
            XCTFail("\(path) failed with \(error), not an ImgCacheError", file: file, line: line)
            return (nil, Date().timeIntervalSince(start))
        }
    }
}
