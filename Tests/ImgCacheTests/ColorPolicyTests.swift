import CDeflate
import Foundation
import XCTest
@testable import ImgCache

/// `keep` leaves the pixels as stored and embeds the source's profile (JPEG APP2, PNG iCCP);
/// `ignore` leaves them and carries none; the policy is part of variant keys but for the default.
final class ColorPolicyTests: XCTestCase {
    private let scene = TestImages.scene(width: 64, height: 40)

    /// A JPEG and a PNG of the scene carrying Display P3.
    private func p3Sources() throws -> [(String, Data)] {
        [("jpeg", try JPEGEncoder.encode(scene, quality: 95, iccProfile: ColorFixtures.displayP3)),
         ("png", try PNGEncoder.encode(scene, iccProfile: ColorFixtures.displayP3))]
    }

    func testEncodersEmbedTheProfileTheDecodersRead() throws {
        for (name, data) in try p3Sources() {
            let inspected = try ImageDecoder.inspect(.data(data)).colorProfile
            XCTAssertEqual(inspected.profile?.iccBytes, ColorFixtures.displayP3, name)
            XCTAssertEqual(inspected.profile?.description, "Display P3", name)
        }
        XCTAssertThrowsError(try PNGEncoder.encode(scene, iccProfile: []))
        XCTAssertThrowsError(try JPEGEncoder.encode(scene, iccProfile: []))
    }

    func testKeepLeavesThePixelsAndCarriesTheProfileIgnoreCarriesNone() throws {
        for (name, data) in try p3Sources() {
            let kept = try ImageDecoder.decode(.data(data), options: DecodingOptions(colorPolicy: .keep))
            let ignored = try ImageDecoder.decode(.data(data), options: DecodingOptions(colorPolicy: .ignore))
            let converted = try ImageDecoder.decode(.data(data))
            XCTAssertEqual(kept.frames, ignored.frames, name)
            XCTAssertNotEqual(kept.frames, converted.frames, name)
            XCTAssertEqual(kept.info.colorProfile.embeddedBytes(under: .keep), ColorFixtures.displayP3, name)
            XCTAssertNil(ignored.info.colorProfile.embeddedBytes(under: .ignore), name)
            XCTAssertNil(converted.info.colorProfile.embeddedBytes(under: .convert), name)
        }
    }

    /// Only an RGB profile can describe the RGB output: a grey one is not embedded under `keep`.
    func testKeepEmbedsOnlyRGBProfiles() throws {
        let grey = SourceColorProfile(iccBytes: ColorFixtures.grayGamma18, imageColorSpace: .gray)
        XCTAssertNotNil(grey.profile)
        XCTAssertNil(grey.embeddedBytes(under: .keep))
    }

    func testPNGProfilesThatCannotBeUsedAreIgnored() throws {
        let p3 = ColorFixtures.displayP3
        var cases: [(String, Data)] = [
            ("truncated", try PNGEncoder.encode(scene, iccProfile: Array(p3.prefix(p3.count / 2)))),
            ("grey profile on RGB", try PNGEncoder.encode(scene, iccProfile: ColorFixtures.grayGamma18)),
        ]
        // A corrupt zlib stream: the iCCP chunk's data with its stream cut short (CRC fixed up).
        var corrupt = [UInt8](try PNGEncoder.encode(scene, iccProfile: p3))
        let chunkStart = 33, length = Int(corrupt[33]) << 24 | Int(corrupt[34]) << 16 | Int(corrupt[35]) << 8 | Int(corrupt[36])
        XCTAssertEqual(String(decoding: corrupt[37..<41], as: UTF8.self), "iCCP")
        for index in (chunkStart + 8 + length - 6)..<(chunkStart + 8 + length) { corrupt[index] = 0xFF }
        let crc = corrupt[(chunkStart + 4)..<(chunkStart + 8 + length)].withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        corrupt[(chunkStart + 8 + length)..<(chunkStart + 12 + length)] = [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        cases.append(("corrupt zlib", Data(corrupt)))
        for (name, data) in cases {
            let decoded = try ImageDecoder.decode(.data(data))
            guard case .malformed = decoded.info.colorProfile else { return XCTFail("\(name): \(decoded.info.colorProfile)") }
            XCTAssertEqual(decoded.frames, try ImageDecoder.decode(.data(data), options: DecodingOptions(colorPolicy: .ignore)).frames, name)
        }
    }

    func testVariantKeysGainThePolicyOnlyWhenItIsNotTheDefault() throws {
        let url = URL(string: "https://example.test/photo.jpg")!
        let configuration = ImagePipeline.Configuration()
        let plain = try RequestPlan(ImageRequest(url: url, outputFormat: .png), configuration)
        XCTAssertEqual(plain.variantKey, "https://example.test/photo.jpg#imgcache-variant:v2;size=source;mode=fit;"
            + "upscale=0;frames=1;budget=15728640;format=png")
        for policy in [ColorPolicy.keep, .ignore] {
            let plan = try RequestPlan(ImageRequest(url: url, outputFormat: .png, colorPolicy: policy), configuration)
            XCTAssertEqual(plan.variantKey, plain.variantKey + ";color=\(policy.rawValue)")
            XCTAssertEqual(plan.options.colorPolicy, policy)
        }
    }

    func testTargetsDecodedTogetherMustShareTheirPolicy() throws {
        let data = try JPEGEncoder.encode(scene)
        let targets = [DecodingOptions(colorPolicy: .keep), DecodingOptions(colorPolicy: .convert)]
        XCTAssertThrowsError(try ImageDecoder.decode(.data(data), targets: targets) { _, _ in })
    }

    /// The pipeline stores a kept variant with the profile, read back unconverted; requests of one
    /// URL under several policies are prepared together.
    func testThePipelineKeepsTheProfileInVariantsUnderKeep() async throws {
        let loader = CountingLoader()
        let url = URL(string: "https://example.test/p3.jpg")!
        loader.serve(url, .init(data: try JPEGEncoder.encode(scene, quality: 95, iccProfile: ColorFixtures.displayP3)))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-color-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let pipeline = try ImagePipeline(configuration: ImagePipeline.Configuration(
            dataLoader: loader, diskCache: DiskCache.Configuration(root: root), memoryCacheLimit: 0))
        let requests = [ColorPolicy.convert, .keep, .ignore].map {
            ImageRequest(url: url, target: .pixels(PixelSize(width: 32, height: 20)), outputFormat: .jpeg(quality: 90), colorPolicy: $0)
        }
        let summaries = await pipeline.prefetch(requests)
        XCTAssertEqual(try summaries.map { try $0.get().format }, [.jpeg, .jpeg, .jpeg])
        var stored: [ColorPolicy: Data] = [:]
        for request in requests {
            stored[request.colorPolicy] = try await pipeline.image(for: request).encodedData()
        }
        XCTAssertEqual(try ImageDecoder.inspect(.data(stored[.keep]!)).colorProfile.profile?.iccBytes, ColorFixtures.displayP3)
        XCTAssertEqual(try ImageDecoder.inspect(.data(stored[.ignore]!)).colorProfile, SourceColorProfile.none)
        XCTAssertEqual(try ImageDecoder.inspect(.data(stored[.convert]!)).colorProfile, SourceColorProfile.none)
        let kept = try await pipeline.image(for: requests[1])
        XCTAssertEqual(kept.image.info.colorProfile.profile?.description, "Display P3")
    }
}
