import TestSupport
import XCTest
@testable import ImgCacheCommandLine

/// The `imgcache` process keeps one malloc arena per core unless MALLOC_ARENA_MAX says otherwise.
final class MallocArenasTests: XCTestCase {
    func testOneArenaPerCore() {
        XCTAssertEqual(MallocArenas.limit(cores: 2, environment: [:]), 2)
        XCTAssertEqual(MallocArenas.limit(cores: 64, environment: ["PATH": "/usr/bin"]), 64)
    }

    func testAtLeastOneArena() {
        XCTAssertEqual(MallocArenas.limit(cores: 0, environment: [:]), 1)
    }

    func testMallocArenaMaxInTheEnvironmentWins() {
        XCTAssertNil(MallocArenas.limit(cores: 2, environment: ["MALLOC_ARENA_MAX": "8"]))
    }

    func testTheLimitIsSetForThisProcess() throws {
        try XCTSkipIf(ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] != nil, "the environment sets the limit")
        try XCTSkipIf(Sanitizer.isActive, "\(Sanitizer.name ?? "") sanitizer: its allocator replaces glibc's malloc, which mallopt tunes")
        XCTAssertEqual(MallocArenas.limitToCores(), Int32(ProcessInfo.processInfo.activeProcessorCount))
    }
}
