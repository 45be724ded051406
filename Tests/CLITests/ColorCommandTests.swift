import Foundation
import ImgCache
import XCTest

/// `--color convert|keep|ignore` on the verbs that decode, and the profile in `imgcache info`.
final class ColorCommandTests: XCTestCase {
    /// P3 primaries with a 2.2 gamma, built with Little CMS through the library.
    private let profile = try! ColorProfile(
        chromaticities: .init(white: (0.3127, 0.3290), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060)),
        encodingGamma: 1 / 2.2, description: "P3 gamma 2.2")

    private func taggedJPEG(in folder: URL) throws -> String {
        var pixels: [UInt8] = []
        for index in 0..<(64 * 48) { pixels += [UInt8(index % 256), UInt8(index * 3 % 256), 200, 255] }
        let bitmap = try Bitmap(size: PixelSize(width: 64, height: 48), pixels: pixels)
        let path = folder.appendingPathComponent("p3.jpg").path
        try JPEGEncoder.encode(bitmap, iccProfile: profile.iccBytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testDecodeKeepsOrDropsTheProfileAsAsked() throws {
        let folder = try CLIRunner.temporaryFolder()
        let source = try taggedJPEG(in: folder)
        var outputs: [String: SourceColorProfile] = [:]
        for policy in ["convert", "keep", "ignore"] {
            for fileExtension in ["jpg", "png"] {
                let output = folder.appendingPathComponent("\(policy).\(fileExtension)").path
                let result = try CLIRunner.run(["decode", source, "--size", "32x24", "--color", policy, "-o", output])
                XCTAssertEqual(result.status, 0, result.errors)
                outputs["\(policy).\(fileExtension)"] = try ImageDecoder.inspect(.file(path: output)).colorProfile
            }
        }
        XCTAssertEqual(outputs["keep.jpg"]?.profile?.iccBytes, profile.iccBytes)
        XCTAssertEqual(outputs["keep.png"]?.profile?.iccBytes, profile.iccBytes)
        for name in ["convert.jpg", "convert.png", "ignore.jpg", "ignore.png"] { XCTAssertEqual(outputs[name], SourceColorProfile.none, name) }
    }

    func testAnUnknownPolicyIsAUsageError() throws {
        let folder = try CLIRunner.temporaryFolder()
        let result = try CLIRunner.run(["decode", try taggedJPEG(in: folder), "--size", "32x24", "--color", "srgb"])
        XCTAssertEqual(result.status, 2, result.errors)
        XCTAssertTrue(result.errors.contains("--color expects convert, keep or ignore, got 'srgb'"), result.errors)
    }

    func testInfoShowsTheProfileOrWhyItIsIgnored() throws {
        let folder = try CLIRunner.temporaryFolder()
        let tagged = try taggedJPEG(in: folder)
        let text = try CLIRunner.run(["info", tagged])
        XCTAssertTrue(text.output.contains("profile:     P3 gamma 2.2"), text.output)
        let json = try CLIRunner.run(["info", "--json", tagged])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        XCTAssertEqual(object["icc_profile"] as? String, "P3 gamma 2.2")

        // A profile cut short: APP2 says so, but Little CMS cannot use it.
        let bitmap = try Bitmap(size: PixelSize(width: 8, height: 8), pixels: [UInt8](repeating: 255, count: 256))
        let malformed = folder.appendingPathComponent("malformed.png").path
        try PNGEncoder.encode(bitmap, iccProfile: Array(profile.iccBytes.prefix(100))).write(to: URL(fileURLWithPath: malformed))
        let malformedText = try CLIRunner.run(["info", malformed])
        XCTAssertTrue(malformedText.output.contains("profile:     malformed, ignored ("), malformedText.output)
        let malformedJSON = try CLIRunner.run(["info", "--json", malformed])
        let malformedObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(malformedJSON.output.utf8)) as? [String: Any])
        XCTAssertTrue(malformedObject["icc_profile"] is NSNull)
        XCTAssertNotNil(malformedObject["icc_profile_malformed"] as? String)

        let untagged = folder.appendingPathComponent("untagged.png").path
        try PNGEncoder.encode(bitmap).write(to: URL(fileURLWithPath: untagged))
        XCTAssertTrue(try CLIRunner.run(["info", untagged]).output.contains("profile:     none"))
    }
}
