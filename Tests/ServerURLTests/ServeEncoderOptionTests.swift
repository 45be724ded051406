import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// imgproxy's `jpgo` and `pngo` and imgcache's `ch`: the encoder controls a URL sets over the
/// server's defaults (`ServeURLConfiguration.encoderControls`, `quantizationColors`); what imgcache
/// cannot write is refused by name, and bad values are 400s naming the option.
final class ServeEncoderOptionTests: XCTestCase {
    private func controls(_ options: [String], parser: ServeURLParser = ServeParsing.unsigned) throws -> EncoderControls {
        let serve = try parser.parse(path: ServeParsing.path(options))
        return try XCTUnwrap(serve.imageRequest).encoderControls
    }

    func testJPEGOptionsSetProgressiveAndChroma() throws {
        XCTAssertEqual(try controls([]), EncoderControls())
        XCTAssertEqual(try controls(["jpgo:1"]), EncoderControls(progressiveJPEG: true))
        XCTAssertEqual(try controls(["jpeg_options:true:true"]), EncoderControls(progressiveJPEG: true, chroma: .yuv444))
        XCTAssertEqual(try controls(["jpgo::1"]), EncoderControls(chroma: .yuv444))
        XCTAssertEqual(try controls(["jpgo:0:0"]), EncoderControls(chroma: .yuv420))
        // Empty arguments keep what was set before; mozjpeg's settings may be given as false.
        XCTAssertEqual(try controls(["jpgo:1:1", "jpgo::"]), EncoderControls(progressiveJPEG: true, chroma: .yuv444))
        XCTAssertEqual(try controls(["jpgo:1::0:f:false:0"]), EncoderControls(progressiveJPEG: true))
    }

    func testPNGOptionsQuantizeToTheColoursGivenOrThoseBefore() throws {
        XCTAssertEqual(try controls(["pngo::1"]), EncoderControls(paletteColors: 256))
        XCTAssertEqual(try controls(["png_options:0:1:64"]), EncoderControls(paletteColors: 64))
        XCTAssertEqual(try controls(["pngo:::16", "pngo::t"]), EncoderControls(paletteColors: 16))
        XCTAssertEqual(try controls(["pngo::1:16", "pngo:::2"]), EncoderControls(paletteColors: 2))
        XCTAssertEqual(try controls(["pngo::1:16", "pngo::0"]), EncoderControls())
        XCTAssertEqual(try controls(["pngo:::16"]), EncoderControls())
    }

    func testChromaIsImgcachesOwnOption() throws {
        XCTAssertEqual(try controls(["ch:444"]), EncoderControls(chroma: .yuv444))
        XCTAssertEqual(try controls(["chroma:420"]), EncoderControls(chroma: .yuv420))
        XCTAssertEqual(try controls(["jpgo::1", "ch:auto"]), EncoderControls())
        XCTAssertEqual(try controls(["ch:420", "jpgo::1"]), EncoderControls(chroma: .yuv444))
    }

    func testTheServersDefaultsApplyUntilAURLSaysOtherwise() throws {
        var configuration = ServeURLConfiguration(signing: .unsigned)
        configuration.encoderControls = EncoderControls(progressiveJPEG: true, chroma: .yuv444, paletteColors: 32)
        configuration.quantizationColors = 32
        let parser = ServeURLParser(configuration: configuration)
        XCTAssertEqual(try controls([], parser: parser), configuration.encoderControls)
        XCTAssertEqual(try controls(["jpgo:0", "ch:auto", "pngo::0"], parser: parser), EncoderControls())
        XCTAssertEqual(try controls(["pngo::0", "pngo::1"], parser: parser).paletteColors, 32)
        configuration.encoderControls = EncoderControls()
        XCTAssertEqual(try controls(["pngo::1"], parser: ServeURLParser(configuration: configuration)).paletteColors, 32)
    }

    func testUnsupportedSettingsAndBadValuesAreRefusedNamingTheOption() {
        let unsupported: [(String, String)] = [
            ("jpgo:1:0:1", "trellis_quant needs mozjpeg; imgcache writes with libjpeg-turbo"),
            ("jpgo::::1", "overshoot_deringing needs mozjpeg; imgcache writes with libjpeg-turbo"),
            ("jpgo:::::t", "optimize_scans needs mozjpeg; imgcache writes with libjpeg-turbo"),
            ("jpgo::::::3", "quant_table needs mozjpeg; imgcache writes with libjpeg-turbo"),
            ("pngo:1", "imgcache writes no interlaced PNG: give pngo:0 or leave it empty"),
        ]
        for (option, detail) in unsupported {
            let name = String(option.prefix { $0 != ":" })
            let error = ServeParsing.error(options: [option])
            XCTAssertEqual(error, .unsupportedOption(name: name, detail: detail), option)
            XCTAssertEqual(error?.httpStatus, 400, option)
        }
        let invalid: [(String, ServeURLError)] = [
            ("jpgo:yes", .invalidOption(name: "jpgo", detail: "progressive 'yes' is not 1, t, true, 0, f or false")),
            ("jpgo:1:2", .invalidOption(name: "jpgo", detail: "no_subsample '2' is not 1, t, true, 0, f or false")),
            ("jpgo:::::::", .invalidOption(name: "jpgo", detail: "takes 1 to 6 arguments (jpgo:PROGRESSIVE:NO_SUBSAMPLE), not 7")),
            ("jpgo::::::9", .invalidOption(name: "jpgo", detail: "quant_table 9 is not in 0...8")),
            ("pngo::1:1", .invalidOption(name: "pngo", detail: "quantization colors 1 is not in 2...256")),
            ("pngo::1:257", .invalidOption(name: "pngo", detail: "quantization colors 257 is not in 2...256")),
            ("pngo::1:x", .invalidOption(name: "pngo", detail: "quantization colors 'x' is not a whole number from 2 to 256")),
            ("ch:422", .invalidOption(name: "ch", detail: "chroma '422' is not one of 420, 444")),
            ("chroma:", .invalidOption(name: "chroma", detail: "chroma is empty")),
            ("ch:444:1", .invalidOption(name: "ch", detail: "takes 1 argument (ch:420, ch:444 or ch:auto), not 2")),
        ]
        for (option, expected) in invalid {
            let error = ServeParsing.error(options: [option])
            XCTAssertEqual(error, expected, option)
            XCTAssertEqual(error?.httpStatus, 400, option)
        }
    }
}
