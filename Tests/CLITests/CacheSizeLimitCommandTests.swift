import Foundation
import ImgCache
import TestSupport
import XCTest

/// `--cache-size-limit SIZE` of fetch, prefetch, slice and serve (`IMGCACHE_CACHE_SIZE_LIMIT`):
/// the disk cache is kept under it, an entry over it is served and not stored, and a value that
/// is no byte count is a usage error (exit 2). `slice` of a URL also takes the rest of the cache
/// options its help lists (`--allowed-hosts`, `--redis`).
final class CacheSizeLimitCommandTests: XCTestCase {
    private static let photo = CLIRunner.media.appendingPathComponent("harbour.jpg").path
    private static let widgets = ["--device", "iPhone 16 Pro", "--widget", "small,medium,large"]

    private func stats(_ folder: URL) throws -> [String: Any] {
        let result = try CLIRunner.run(["cache", "stats", "--json", "--cache-dir", folder.path])
        XCTAssertEqual(result.status, 0, result.errors)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    func testTheCacheStaysUnderTheLimitAndWhatIsOverItIsServedNotStored() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unlimited = folder.appendingPathComponent("default"), limited = folder.appendingPathComponent("limited")
        let whole = try CLIRunner.run(["fetch", Self.photo] + Self.widgets + ["--cache-dir", unlimited.path])
        XCTAssertEqual(whole.status, 0, whole.errors)
        let all = try stats(unlimited)
        XCTAssertEqual(all["originals"] as? Int, 1)
        XCTAssertEqual(all["variants"] as? Int, 3)
        let limit = 100 * 1024
        XCTAssertGreaterThan(all["bytes"] as? Int ?? 0, limit)

        let result = try CLIRunner.run(["fetch", Self.photo] + Self.widgets + ["--cache-dir", limited.path, "--cache-size-limit", "100KB"])
        XCTAssertEqual(result.status, 0, result.errors)
        let lines = result.output.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, result.output)
        XCTAssertEqual(lines.filter { $0 == "(not stored: the server sent no-store, --store none, or over --cache-size-limit)" }.count, 1,
                       "the large widget's variant is over 100 KB: \(result.output)")
        let kept = try stats(limited)
        XCTAssertEqual(kept["originals"] as? Int, 0, "the 1.4 MB photo is over the limit")
        XCTAssertEqual(kept["variants"] as? Int, 2)
        XCTAssertLessThanOrEqual(kept["bytes"] as? Int ?? .max, limit)
        let files = try FileManager.default.contentsOfDirectory(atPath: limited.appendingPathComponent("data").path)
        XCTAssertEqual(files.count, 2, "\(files)")
    }

    func testAValueThatIsNoByteCountIsAUsageError() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = "--cache-size-limit expects a byte count such as 2GB, got 'lots'"
        for arguments in [
            ["fetch", Self.photo, "--size", "8x8"], ["prefetch", "urls.txt", "--size", "8x8"],
            ["slice", "https://example.com/home.png", "--all"], ["serve", "--allow-unsigned", "--listen", "127.0.0.1:0"],
        ] {
            let result = try CLIRunner.run(arguments + ["--cache-size-limit", "lots", "--cache-dir", folder.path], in: folder)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)")
            XCTAssertEqual(result.errors, "imgcache \(arguments[0]): \(message)\n")
        }
        let environment = try ProductRunner.run(
            "imgcache", ["serve", "--allow-unsigned", "--listen", "127.0.0.1:0", "--cache-dir", folder.path],
            environment: ["IMGCACHE_CACHE_SIZE_LIMIT": "lots"], timeout: 120)
        XCTAssertEqual(environment.status, 2, environment.errors)
        XCTAssertEqual(environment.errors, "imgcache serve: \(message)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing made")
    }

    func testSliceOfAURLTakesTheAllowedHosts() throws {
        let folder = try CLIRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "http://screenshots.example/home.png"
        let result = try CLIRunner.run([
            "slice", url, "--all", "--allowed-hosts", "127.0.0.1", "--cache-dir", folder.appendingPathComponent("cache").path,
        ])
        XCTAssertEqual(result.status, 12, result.errors)
        XCTAssertEqual(result.errors, "imgcache slice: refused \(url): host 'screenshots.example' is not in the allowed hosts\n")
    }
}
