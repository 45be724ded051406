import Foundation
import XCTest
import ImgCache

/// Targets no source publishes are estimated and say so; the iOS 10 Today sizes resolve to pixels
/// at the device's scale; options that do not fit the widget are refused.
final class EstimatedTargetCommandTests: XCTestCase {
    private let harbour = CLIRunner.media.appendingPathComponent("harbour.jpg").path

    func testFetchForTheIPhoneAirIsEstimatedAndSaysSo() throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run([
            "fetch", harbour, "--device", "iPhone Air", "--widget", "small", "--json", "--cache-dir", folder.path,
        ])
        XCTAssertEqual(result.status, 0, result.errors)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["estimated"] as? Bool, true)
        XCTAssertEqual(report["expected_error_px"] as? Int, 24)
        XCTAssertEqual(report["pixels"] as? [String: Int], ["width": 507, "height": 507])
        XCTAssertTrue((report["estimate"] as? String)?.hasPrefix("no published size") == true)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: XCTUnwrap(report["path"] as? String))).size, PixelSize(width: 507, height: 507))
        XCTAssertTrue(result.errors.contains("note: iPhone Air small 507x507 px is estimated, expected error up to 24 px"), result.errors)
        // A published size says it is not estimated, and prints no note.
        let published = try CLIRunner.run([
            "fetch", harbour, "--device", "iPhone 16", "--widget", "small", "--json", "--cache-dir", folder.path,
        ])
        XCTAssertEqual(try XCTUnwrap(JSONSerialization.jsonObject(with: Data(published.output.utf8)) as? [String: Any])["estimated"] as? Bool, false)
        XCTAssertFalse(published.errors.contains("estimated"), published.errors)
    }

    func testTodaySizesResolveToPixelsAtTheDevicesScaleInFetchDecodeAndPrefetch() throws {
        let folder = try CLIRunner.temporaryFolder()
        let compact = try CLIRunner.run([
            "fetch", harbour, "--device", "iPhone 8", "--widget", "today-compact", "--text-size", "xxl", "--json", "--cache-dir", folder.path,
        ])
        XCTAssertEqual(compact.status, 0, compact.errors)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(compact.output.utf8)) as? [String: Any])
        XCTAssertEqual(report["points"] as? [String: Double], ["width": 359, "height": 135])
        XCTAssertEqual(report["pixels"] as? [String: Int], ["width": 718, "height": 270])
        XCTAssertEqual(report["estimated"] as? Bool, false)

        let decoded = try CLIRunner.run([
            "decode", harbour, "--device", "iPhone SE (1st generation)", "--widget", "today-expanded", "-o", "today.png",
        ], in: folder)
        XCTAssertEqual(decoded.status, 0, decoded.errors)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: folder.appendingPathComponent("today.png").path)).size, PixelSize(width: 608, height: 1056))

        let list = folder.appendingPathComponent("urls.txt")
        try (harbour + "\n").write(to: list, atomically: true, encoding: .utf8)
        let prefetched = try CLIRunner.run([
            "prefetch", list.path, "--device", "iPhone 7", "--widget", "today-expanded", "--entry", "notification-center",
            "--json", "--cache-dir", folder.path,
        ])
        XCTAssertEqual(prefetched.status, 0, prefetched.errors)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(prefetched.output.utf8)) as? [String: Any])
        XCTAssertEqual(summary["failed"] as? Int, 0, prefetched.output)
        let path = try XCTUnwrap(prefetched.output.firstMatch(of: /"path" ?: ?"([^"]+)"/)?.1)
        XCTAssertEqual(try ImageDecoder.inspect(.file(path: String(path))).size, PixelSize(width: 718, height: 1056))

        // The Plus's landscape heights are sourced, its width is not: estimated, with a note.
        let plus = try CLIRunner.run([
            "fetch", harbour, "--device", "iPhone 8 Plus", "--widget", "today-expanded", "--landscape", "--json", "--cache-dir", folder.path,
        ])
        XCTAssertEqual(plus.status, 0, plus.errors)
        let plusReport = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plus.output.utf8)) as? [String: Any])
        XCTAssertEqual(plusReport["pixels"] as? [String: Int], ["width": 1194, "height": 1056])
        XCTAssertEqual(plusReport["estimated"] as? Bool, true)
        XCTAssertNil(plusReport["expected_error_px"])
        XCTAssertTrue(plus.errors.contains("is estimated: width estimated"), plus.errors)
    }

    func testBadTodayOptionsAndUnsourcedSizesExitTwoWithOneLine() throws {
        let cases: [([String], String)] = [
            (["--widget", "today-compact", "--text-size", "huge"], "--text-size expects xs, s, m, l, xl, xxl or xxxl, got 'huge'"),
            (["--widget", "small", "--text-size", "xl"], "--text-size goes with --widget today-compact"),
            (["--widget", "today-compact", "--entry", "today-view"], "--entry goes with --widget today-expanded"),
            (["--widget", "today-compact", "--landscape"], "--landscape goes with --widget today-expanded"),
            (["--widget", "medium", "--landscape"], "--landscape goes with --widget today-expanded"),
            (["--widget", "today-expanded", "--entry", "lock-screen"], "--entry expects today-view or notification-center"),
            (["--widget", "today-sideways"], "--widget expects"),
        ]
        for (options, message) in cases {
            let result = try CLIRunner.run(["decode", harbour, "--device", "iPhone 8"] + options)
            XCTAssertEqual(result.status, 2, "\(options): \(result.errors)")
            XCTAssertTrue(result.errors.contains(message), "\(options): \(result.errors)")
            XCTAssertEqual(result.errors.split(separator: "\n").count, 1, result.errors)
        }
        let unsourced = try CLIRunner.run(["decode", harbour, "--device", "iPhone 16", "--widget", "today-expanded"])
        XCTAssertEqual(unsourced.status, 2, unsourced.errors)
        XCTAssertTrue(unsourced.errors.contains("no source gives the today-expanded (today-view) height on iPhone 14 Pro / 15 / 15 Pro / 16"), unsourced.errors)
        let pad = try CLIRunner.run(["decode", harbour, "--device", "iPad Air 2", "--widget", "today-compact"])
        XCTAssertEqual(pad.status, 2, pad.errors)
        XCTAssertTrue(pad.errors.contains("Today widget sizes are known for iPhones only"), pad.errors)
    }
}
