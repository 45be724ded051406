import Foundation
import XCTest
@testable import ImgCache

/// Every number a caller sets is checked before use: out of range, infinite or NaN is
/// `invalidArgument`, never a trap or an unbounded allocation.
final class ConfigurationValidationTests: XCTestCase {
    private func assertRefused(_ change: (inout ImagePipeline.Configuration) -> Void, _ expected: String, line: UInt = #line) {
        var configuration = ImagePipeline.Configuration()
        configuration.diskCache.root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-config-\(UUID().uuidString)")
        change(&configuration)
        XCTAssertThrowsError(try ImagePipeline(configuration: configuration), line: line) { error in
            guard case .invalidArgument(let message)? = error as? ImgCacheError else { return XCTFail("\(error)", line: line) }
            XCTAssertTrue(message.contains(expected), message, line: line)
        }
        try? FileManager.default.removeItem(at: configuration.diskCache.root)
    }

    func testPipelineSettingsOutOfRangeAreRefused() {
        assertRefused({ $0.maxConcurrentLoads = 0 }, "downloads at once 0")
        assertRefused({ $0.maxConcurrentDecodes = Int.max }, "decodes at once")
        assertRefused({ $0.decodingMemoryBytes = 4096 }, "decoding memory 4096")
        assertRefused({ $0.frameBudgetBytes = 65 << 20 }, "frame budget 68157440")
        assertRefused({ $0.maxFrames = -1 }, "max frames -1")
        assertRefused({ $0.frameBudgetBytes = Int.min }, "frame budget")
        assertRefused({ $0.memoryCacheLimit = -5 }, "memory cache limit -5")
        assertRefused({ $0.renderPassBudgetBytes = 0 }, "render pass budget 0")
        assertRefused({ $0.loading.maxBytes = 0 }, "download byte limit 0")
        assertRefused({ $0.loading.connectTimeout = .infinity }, "connect time-out inf")
        assertRefused({ $0.loading.overallTimeout = .nan }, "overall time-out nan")
        assertRefused({ $0.loading.maxRedirects = 1000 }, "redirect limit 1000")
        assertRefused({ $0.loading.defaultTTL = -.infinity }, "default TTL")
        assertRefused({ $0.loading.retryPolicy.maxAttempts = 0 }, "retry attempts 0")
        assertRefused({ $0.loading.retryPolicy.baseDelay = .nan }, "retry delays")
        assertRefused({ $0.loading.allowedHosts = ["*"] }, "allowed host pattern '*'")
        assertRefused({ $0.diskCache.timeToLive = .nan }, "time to live")
        assertRefused({ $0.diskCache.lockTimeout = .infinity }, "cache intervals")
    }

    func testAStandaloneLoaderRefusesEveryLoadWithASettingOutOfRange() async {
        var configuration = DataLoader.Configuration()
        configuration.requestTimeout = -1
        do {
            _ = try await DataLoader(configuration: configuration).load(DataRequest(url: URL(string: "http://127.0.0.1:9/x")!))
            XCTFail("loaded")
        } catch {
            XCTAssertEqual(error as? ImgCacheError, .invalidArgument("idle time-out -1.0 s is not in 0.001...86400 s"))
        }
    }
}
