import Foundation
import ImgCache
import XCTest

/// `imgcache fetch` and `prefetch` with `--fallback-image`: the fallback is prepared with the
/// request's options for each source that fails, standard error says which, and the exit code is
/// the one the failure gives without a fallback.
final class FetchFallbackTests: XCTestCase {
    var nginx: NginxServer!
    var cacheDirectory: URL!
    var fallback: URL { nginx.url("/fallback.jpg") }

    override func setUp() async throws {
        nginx = try NginxServer()
        cacheDirectory = try ServerProcess.temporaryFolder("imgcache-fetch-fallback-cache")
        try TestImage.jpeg(width: 300, height: 200, seed: 7).write(to: nginx.root.appendingPathComponent("fallback.jpg"))
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        try ServeMedia.brokenJPEG().write(to: nginx.root.appendingPathComponent("broken.jpg"))
    }

    override func tearDown() async throws {
        nginx?.stop()
        try? FileManager.default.removeItem(at: cacheDirectory)
    }

    private func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        let result = try CommandRunner.run(
            "imgcache", arguments + ["--cache-dir", cacheDirectory.path, "--fallback-image", fallback.absoluteString])
        return (result.status, result.output, result.errors)
    }

    private func size(ofFile path: String) throws -> PixelSize {
        try ImageDecoder.inspect(.data(try Data(contentsOf: URL(fileURLWithPath: path)))).size
    }

    func testFetchPrintsTheFallbacksPathAndKeepsTheFailuresExitCode() throws {
        let missing = nginx.url("/missing.jpg").absoluteString
        let failed = try run(["fetch", missing, "--size", "100x100"])
        XCTAssertEqual(failed.status, 9, failed.errors)  // the origin's HTTP status, as without a fallback
        let path = failed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try size(ofFile: path), PixelSize(width: 100, height: 67))
        XCTAssertTrue(failed.errors.contains("imgcache fetch: \(missing): fallback image in place (HTTP 404 from \(missing)): \(path)"),
                      failed.errors)
        // A corrupt source with several targets: each gets the fallback cropped to its shape (no upscaling).
        let broken = nginx.url("/broken.jpg").absoluteString
        let both = try run(["fetch", broken, "--device", "iPhone 16 Pro", "--widget", "small,medium"])
        XCTAssertEqual(both.status, 4, both.errors)
        let paths = both.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(try paths.map(size(ofFile:)), [PixelSize(width: 200, height: 200), PixelSize(width: 300, height: 141)])
        XCTAssertEqual(both.errors.components(separatedBy: "fallback image in place (corrupt JPEG image").count, 3, both.errors)
        // A source that works is its own image, with nothing said.
        let fine = try run(["fetch", nginx.url("/photo.jpg").absoluteString, "--size", "100x100"])
        XCTAssertEqual(fine.status, 0, fine.errors)
        XCTAssertFalse(fine.errors.contains("fallback"), fine.errors)
        XCTAssertEqual(try size(ofFile: fine.output.trimmingCharacters(in: .whitespacesAndNewlines)), PixelSize(width: 100, height: 75))
    }

    func testPrefetchSaysWhichURLsGotTheFallbackAndStillExits11() throws {
        let list = cacheDirectory.deletingLastPathComponent().appendingPathComponent("fallback-list-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: list) }
        let missing = nginx.url("/missing.jpg").absoluteString, broken = nginx.url("/broken.jpg").absoluteString
        try Data([nginx.url("/photo.jpg").absoluteString, missing, broken].joined(separator: "\n").utf8).write(to: list)
        let result = try run(["prefetch", list.path, "--size", "50x50"])
        XCTAssertEqual(result.status, 11, result.errors)
        XCTAssertTrue(result.output.contains("prefetched 1 of 3"), result.output)
        XCTAssertTrue(result.output.contains("failed \(missing): HTTP 404"), result.output)
        let notes = result.errors.split(separator: "\n").filter { $0.contains("fallback image in place") }
        XCTAssertEqual(notes.count, 2, result.errors)
        // In the order they finished, which a streamed list does not fix.
        let named = Set(notes.compactMap { $0.components(separatedBy: ": ").dropFirst().first })
        XCTAssertEqual(named, [missing, broken], result.errors)
        // Both got the one variant of the fallback at those options.
        let paths = notes.compactMap { $0.components(separatedBy: "): ").last }
        XCTAssertEqual(Set(paths).count, 1, result.errors)
        XCTAssertEqual(try size(ofFile: paths[0]), PixelSize(width: 50, height: 33))
        // The fallback's origin: once at start, then from the cache.
        XCTAssertEqual(try nginx.accessLog(count: 4).filter { $0.path == "/fallback.jpg" }.count, 1)
    }

    func testAFallbackThatCannotBeReadIsAUsageError() throws {
        let result = try CommandRunner.run(
            "imgcache", ["fetch", nginx.url("/photo.jpg").absoluteString, "--cache-dir", cacheDirectory.path,
                         "--fallback-image", "/nonexistent/fallback.png"])
        XCTAssertEqual(result.status, 2, result.errors)
        XCTAssertTrue(result.errors.contains("--fallback-image '/nonexistent/fallback.png' cannot be used"), result.errors)
    }
}
