import Foundation
import ImgCache
import TestSupport
import XCTest

/// `imgcache slice URL` against Debian's nginx: the screenshot is downloaded once for every slot,
/// each slice is a variant of it in the cache, and later slices download nothing.
final class SliceURLTests: XCTestCase {
    /// Runs `body` with a fresh nginx and an empty cache folder, and stops nginx after.
    private func withServer(_ body: (_ nginx: NginxServer, _ cacheDirectory: URL) async throws -> Void) async throws {
        let nginx = try NginxServer()
        defer { nginx.stop() }
        try await body(nginx, try ServerProcess.temporaryFolder("imgcache-slice-cache"))
    }

    func testAllSlotsOfAURLShareOneDownloadAndAreEachAVariant() async throws {
        try await withServer { nginx, cacheDirectory in
            let layout = try HomeScreenLayout.resolve(screenshot: PixelSize(width: 750, height: 1334))
            let smalls = layout.slots.filter { $0.family == .small }
            let bitmap = try HomeScreenshot.bitmap(
                size: layout.screenshotSize, painted: smalls.enumerated().map { ($1.rect, HomeScreenshot.colour($0)) })
            try HomeScreenshot.png(bitmap).write(to: nginx.root.appendingPathComponent("home.png"))
            let url = nginx.url("/home.png").absoluteString
            let output = try ServerProcess.temporaryFolder("imgcache-slices")

            let result = try CommandRunner.run(
                "imgcache", ["slice", url, "--all", "--json", "-o", output.path, "--cache-dir", cacheDirectory.path])
            XCTAssertEqual(result.status, 0, result.errors)
            let slices = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
            XCTAssertEqual(slices.compactMap { $0["name"] as? String }, layout.slots.map(\.name))
            let downloads = try await nginx.settledAccessLog()
            XCTAssertEqual(downloads.map(\.status), [200], "one download for every slot")
            for slot in layout.slots {
                let written = try ImageDecoder.decode(.file(path: output.appendingPathComponent("\(slot.name).png").path)).frames[0].bitmap
                XCTAssertEqual(written, try HomeScreenshot.crop(bitmap, slot.rect), slot.name)
            }
            for (index, slot) in smalls.enumerated() {
                let written = try ImageDecoder.decode(.file(path: output.appendingPathComponent("\(slot.name).png").path)).frames[0].bitmap
                XCTAssertTrue(HomeScreenshot.isFilled(written, with: HomeScreenshot.colour(index)), slot.name)
            }

            let listing = try CommandRunner.run("imgcache", ["cache", "ls", "--json", "--cache-dir", cacheDirectory.path])
            XCTAssertEqual(listing.status, 0, listing.errors)
            let entries = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]])
            let variants = entries.filter { $0["kind"] as? String == "variant" }
            XCTAssertEqual(entries.filter { $0["kind"] as? String == "original" }.compactMap { $0["key"] as? String }, [url])
            XCTAssertEqual(Set(variants.compactMap { $0["original"] as? String }), [url])
            // Each slice keeps the screenshot's pixels and profile: `;color=keep` ends its key.
            XCTAssertEqual(Set(variants.compactMap { ($0["key"] as? String)?.components(separatedBy: ";region=").last }),
                           Set(layout.slots.map { "\($0.rect);color=keep" }))

            // A slice asked for later is the stored variant: nothing is downloaded, nothing decoded.
            let again = try CommandRunner.run("imgcache", [
                "slice", url, "--widget", "small", "--position", "bottom-right", "--json", "--cache-dir", cacheDirectory.path,
            ])
            XCTAssertEqual(again.status, 0, again.errors)
            let slice = try CommandRunner.json(again.output)
            XCTAssertEqual(slice["cache"] as? String, "disk")
            let path = try XCTUnwrap(slice["path"] as? String)
            let key = try XCTUnwrap(variants.compactMap { $0["key"] as? String }.first { $0.hasSuffix(";region=296x296+400+764;color=keep") })
            XCTAssertEqual(path, cacheDirectory.appendingPathComponent("data/" + CacheKey.fileName(forVariant: key, format: .png)).path)
            let stored = try ImageDecoder.decode(.file(path: path)).frames[0].bitmap
            XCTAssertTrue(HomeScreenshot.isFilled(stored, with: HomeScreenshot.colour(5)), "small-bottom-right is the sixth small slot")
            let log = try await nginx.settledAccessLog()
            XCTAssertEqual(log.map(\.status), [200], "a stored slice must not reach the server")
        }
    }

    func testAMissingScreenshotIsAnHTTPErrorAndADamagedOneExitsFour() async throws {
        try await withServer { nginx, cacheDirectory in
            let png = try HomeScreenshot.png(HomeScreenshot.bitmap(size: PixelSize(width: 750, height: 1334), painted: []))
            try png.prefix(png.count / 2).write(to: nginx.root.appendingPathComponent("cut.png"))
            let cases: [(path: String, status: Int32, message: String)] = [
                ("/missing.png", 9, "HTTP 404"), ("/cut.png", 4, "corrupt PNG image"),
            ]
            for testCase in cases {
                let result = try CommandRunner.run("imgcache", [
                    "slice", nginx.url(testCase.path).absoluteString, "--all", "--cache-dir", cacheDirectory.path,
                ])
                XCTAssertEqual(result.status, testCase.status, "\(testCase.path): \(result.errors)")
                XCTAssertTrue(result.errors.contains(testCase.message), result.errors)
                XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors)
            }
        }
    }
}
