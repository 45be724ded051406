import Foundation
import ImgCache
import TestSupport
import XCTest

/// The CLI exits cleanly however its threads' ends and the exit handlers interleave: with a
/// preload library (Tests/Preload/exit_race.c, built here with `cc`) that delays libcrypto's
/// thread-exit destructors by 2 ms and the last exit handler by 20 ms, a process that exited with
/// the pipeline's threads still ending, and libcrypto's exit-time clean-up registered, aborted in
/// most runs ("corrupted size vs. prev_size in fastbins").
final class ExitRaceTests: XCTestCase {
    private var folder: URL!
    private var preload: URL!

    override func setUpWithError() throws {
        // A sanitizer's runtime must be the first library loaded, and it replaces glibc's heap,
        // where the race corrupted chunks: the preload would stop the CLI, and prove nothing.
        try XCTSkipIf(Sanitizer.isActive, "the CLI is built with a sanitizer (its runtime refuses a preload before it; it replaces glibc's heap)")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-exit-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        preload = folder.appendingPathComponent("exit_race.so")
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Preload/exit_race.c")
        let built = try ProductRunner.runTool("cc", ["-shared", "-fPIC", "-o", preload.path, source.path, "-ldl", "-lpthread"])
        XCTAssertEqual(built.status, 0, "cc could not build the preload library: \(built.errors)")
    }

    override func tearDownWithError() throws {
        // Nil when setUp skipped.
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// 30 runs of `fetch --quality 90` from a cache holding the original, each a new size (so
    /// each renders and names a variant with MD5 on the pipeline's threads): every one exits 0
    /// with its file written.
    func testThirtyFetchesUnderThePreloadEachExitZeroWithTheirFile() throws {
        let photo = folder.appendingPathComponent("photo.jpg")
        try TestImage.jpeg(width: 640, height: 480).write(to: photo)
        let cache = folder.appendingPathComponent("cache").path
        let primed = try CommandRunner.run("imgcache", ["fetch", photo.path, "--size", "64x64", "--cache-dir", cache])
        XCTAssertEqual(primed.status, 0, primed.errors)
        for run in 1...30 {
            let width = 100 + run
            let result = try ProductRunner.run(
                "imgcache", ["fetch", photo.path, "--size", "\(width)x300", "--quality", "90", "--cache-dir", cache],
                environment: ["LD_PRELOAD": preload.path])
            XCTAssertFalse(result.killedBySignal, "run \(run) was killed: \(result.errors)")
            XCTAssertEqual(result.status, 0, "run \(run): \(result.errors)")
            guard result.status == 0 else { continue }
            let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            // The 4:3 photo fit in the box: its height is the width's three quarters, rounded.
            let height = Int((Double(width) * 0.75).rounded())
            XCTAssertEqual(try ImageDecoder.inspect(.data(written)).size, PixelSize(width: width, height: height), "run \(run)")
        }
    }

    /// `serve` under the preload answers a signed request (MD5 names, HMAC signatures and entity
    /// tags on its threads), then stops on SIGTERM and exits 0.
    func testServeStoppedBySIGTERMUnderThePreloadExitsZero() async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        try TestImage.jpeg(width: 320, height: 240).write(to: nginx.root.appendingPathComponent("photo.jpg"))
        let serve = try ServeProcess(environment: ["LD_PRELOAD": preload.path])
        defer { serve.stop() }
        let path = try ServeURLs.path(.init(nginx.url("/photo.jpg"), type: "fit", width: 100, height: 100))
        let (body, response) = try await ServeClient().send(serve.url(path))
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(try ImageDecoder.inspect(.data(body)).size, PixelSize(width: 100, height: 75))
        serve.terminate()
        XCTAssertEqual(serve.waitForExit(seconds: 60), 0, serve.standardError)
        XCTAssertNotNil(serve.waitForErrorLine(containing: "imgcache serve: stopped", seconds: 1), serve.standardError)
    }
}
