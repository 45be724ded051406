import Foundation
import ImgCache
import ImgCacheServerURLs
import XCTest

/// Each option's mapping to the request, and the typed error for every option imgcache lacks, every
/// bad number, empty argument, wrong argument count and contradiction.
final class ServeOptionTests: XCTestCase {
    private let url = ServeParsing.sourceURL

    private func size(_ width: Int, _ height: Int) -> ImageTarget { .pixels(PixelSize(width: width, height: height)) }

    func testImgproxysResizeOptionsMapToTargetsAndContentModes() throws {
        let cases: [([String], ImageRequest)] = [
            (["rs:fit:300:200"], ImageRequest(url: url, target: size(300, 200), contentMode: .fit)),
            (["resize:fill:300:200:1"], ImageRequest(url: url, target: size(300, 200), contentMode: .crop, allowsUpscaling: true)),
            (["rs:fill-down:300:200:0:0"], ImageRequest(url: url, target: size(300, 200), contentMode: .crop)),
            (["s:300:200"], ImageRequest(url: url, target: size(300, 200))),
            (["size:300:200:t:f"], ImageRequest(url: url, target: size(300, 200), allowsUpscaling: true)),
            (["w:300", "h:200", "rt:fill"], ImageRequest(url: url, target: size(300, 200), contentMode: .crop)),
            (["width:300", "height:200", "resizing_type:fit", "enlarge:true"],
             ImageRequest(url: url, target: size(300, 200), allowsUpscaling: true)),
            // Empty arguments of rs and s keep what was set before.
            (["w:300", "h:200", "rs:fill::"], ImageRequest(url: url, target: size(300, 200), contentMode: .crop)),
            (["rs:fill:300:200", "rs::400"], ImageRequest(url: url, target: size(400, 200), contentMode: .crop)),
            (["el:1", "rs:fit:300:200:"], ImageRequest(url: url, target: size(300, 200), allowsUpscaling: true)),
            (["rs:"], ImageRequest(url: url)),
            // Later options override earlier ones.
            (["w:300", "w:0"], ImageRequest(url: url)),
            (["rt:fill", "rt:fit", "w:10", "h:10"], ImageRequest(url: url, target: size(10, 10), contentMode: .fit)),
            (["el:TRUE", "el:F", "w:10", "h:10"], ImageRequest(url: url, target: size(10, 10))),
            // One side: fit to it, the other up to the output limit (16 MP by default).
            (["w:4096"], ImageRequest(url: url, target: size(4096, 4096))),
            (["h:1", "rt:fill"], ImageRequest(url: url, target: size(65_535, 1))),
            (["w:300", "dpr:3"], ImageRequest(url: url, target: size(900, 16_777_216 / 900))),
            (["w:150", "h:100", "dpr:2"], ImageRequest(url: url, target: size(300, 200))),
            (["w:3", "h:3", "dpr:.5"], ImageRequest(url: url, target: size(2, 2))),
            (["dpr:1", "dpr:2", "dpr:1"], ImageRequest(url: url)),
            (["ex:0", "extend:false", "g:ce", "gravity:ce:0:0.0", "w:8", "h:8"], ImageRequest(url: url, target: size(8, 8))),
            // Gravity places a fill's crop: the compass types, and a focal point in fractions.
            (["rs:fill:8:8", "g:no"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .north)),
            (["rs:fill:8:8", "gravity:soea:0:0"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .southEast)),
            (["rs:fill:8:8", "g:nowe"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .northWest)),
            (["rs:fill:8:8", "g:we", "g:ea"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .east)),
            (["rs:fill:8:8", "g:fp:0.3:.25"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .focus(x: 0.3, y: 0.25))),
            (["g:fp:1:0", "rs:fill:8:8"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .focus(x: 1, y: 0))),
            (["rs:fill:8:8", "g:sm"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .smart)),
            (["gravity:sm:0:0", "rs:fill:8:8"], ImageRequest(url: url, target: size(8, 8), contentMode: .crop, gravity: .smart)),
            // Without a target, a resizing type has no effect (as in imgproxy).
            (["rt:auto"], ImageRequest(url: url)),
            (["rs:force:0:0"], ImageRequest(url: url)),
        ]
        for (options, expected) in cases {
            XCTAssertEqual(try ServeParsing.request(options), expected, "\(options)")
        }
    }

    func testFormatQualityFramesBudgetColourAndCacheBuster() throws {
        let cases: [([String], String, ImageRequest)] = [
            ([], "", ImageRequest(url: url)),
            (["q:70"], "", ImageRequest(url: url, quality: 70)),
            (["q:0"], "", ImageRequest(url: url)),
            (["quality:100", "f:jpg"], "", ImageRequest(url: url, outputFormat: .jpeg(quality: 100))),
            (["f:jpeg"], "", ImageRequest(url: url, outputFormat: .jpeg(quality: 85))),
            (["format:png", "q:50"], "", ImageRequest(url: url, outputFormat: .png)),
            (["ext:gif"], "", ImageRequest(url: url, outputFormat: .gif)),
            ([], "jpg", ImageRequest(url: url, outputFormat: .jpeg(quality: 85))),
            (["q:40"], "jpeg", ImageRequest(url: url, outputFormat: .jpeg(quality: 40))),
            // The extension is applied after the options, as in imgproxy.
            (["f:gif"], "png", ImageRequest(url: url, outputFormat: .png)),
            (["f:webp"], "", ImageRequest(url: url, outputFormat: .webp(quality: 85))),
            (["q:60"], "webp", ImageRequest(url: url, outputFormat: .webp(quality: 60))),
            (["format:webp", "mb:20000"], "", ImageRequest(url: url, outputFormat: .webp(quality: 85), maxBytes: 20_000)),
            // AVIF's default quality is imgproxy's, 63; q means what it means to imgproxy.
            (["f:avif"], "", ImageRequest(url: url, outputFormat: .avif(quality: 63))),
            (["q:80"], "avif", ImageRequest(url: url, outputFormat: .avif(quality: 80))),
            (["format:avif", "mb:9000"], "", ImageRequest(url: url, outputFormat: .avif(quality: 63), maxBytes: 9000)),
            (["max_bytes:5000", "q:70"], "", ImageRequest(url: url, quality: 70, maxBytes: 5000)),
            (["mb:5000", "mb:0"], "", ImageRequest(url: url)),
            (["fr:8", "bu:4194304"], "", ImageRequest(url: url, maxFrames: 8, frameBudgetBytes: 4 << 20)),
            (["frames:10000", "budget:0"], "", ImageRequest(url: url, maxFrames: 10_000, frameBudgetBytes: 0)),
            (["fr:1", "bu:64MB"], "gif", ImageRequest(url: url, maxFrames: 1, frameBudgetBytes: 64 << 20, outputFormat: .gif)),
            (["bu:512kb"], "", ImageRequest(url: url, frameBudgetBytes: 512 << 10)),
            (["bu:100B"], "", ImageRequest(url: url, frameBudgetBytes: 100)),
            (["cp:keep"], "", ImageRequest(url: url, colorPolicy: .keep)),
            (["color_policy:ignore"], "", ImageRequest(url: url, colorPolicy: .ignore)),
            (["cp:convert"], "", ImageRequest(url: url)),
            (["cb:2024-05-01"], "", ImageRequest(url: url, cacheKey: ServeParsing.source + " cachebuster:2024-05-01")),
            (["cachebuster:a", "cb:b"], "", ImageRequest(url: url, cacheKey: ServeParsing.source + " cachebuster:b")),
        ]
        for (options, fileExtension, expected) in cases {
            XCTAssertEqual(try ServeParsing.request(options, extension: fileExtension), expected, "\(options) .\(fileExtension)")
        }
    }

    /// The cache buster's key is the source's key under the pipeline's key policy, then the buster.
    func testACacheBustersKeyFollowsTheKeyPolicy() throws {
        let parser = ServeURLParser(
            configuration: ServeURLConfiguration(signing: .unsigned, keyPolicy: CacheKeyPolicy(ignoredQueryItems: ["X-Amz-*"])))
        let source = "https://bucket.example.com/a.jpg?X-Amz-Signature=abc&v=1"
        let path = "/insecure/cb:9/plain/" + source.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let request = try XCTUnwrap(try parser.parse(path: path).imageRequest)
        XCTAssertEqual(request.url, URL(string: source)!)
        XCTAssertEqual(request.cacheKey, "https://bucket.example.com/a.jpg?v=1 cachebuster:9")
    }

    func testWidgetPresetsTakeTheirSizeAndScaleFromTheCatalogue() throws {
        let iPhone16Pro = try ServeParsing.device("iPhone 16 Pro")
        let iPadAir2 = try ServeParsing.device("iPad Air 2")
        let iPhone8 = try ServeParsing.device("iPhone 8")
        let iPhone8Plus = try ServeParsing.device("iPhone 8 Plus")
        let air = try ServeParsing.device("iPhone Air")
        let cases: [([String], ImageRequest)] = [
            (["wd:iphone-16-pro:medium"], ImageRequest(url: url, target: .widget(.medium, device: iPhone16Pro), contentMode: .crop)),
            (["widget:IPHONE-16-PRO:small", "rt:fit"], ImageRequest(url: url, target: .widget(.small, device: iPhone16Pro))),
            (["wd:ipad-air-2:extra-large", "rs:fill:0:0:1"],
             ImageRequest(url: url, target: .widget(.extraLarge, device: iPadAir2), contentMode: .crop, allowsUpscaling: true)),
            (["wd:iphone-air:large"], ImageRequest(url: url, target: .widget(.large, device: air), contentMode: .crop)),
            (["wd:iphone-8:today-compact"], ImageRequest(url: url, target: .today(.compact(.l), device: iPhone8), contentMode: .crop)),
            (["wd:iphone-8-plus:today-expanded:notification-center:landscape"],
             ImageRequest(url: url, target: .today(.expanded(.notificationCenter, landscape: true), device: iPhone8Plus), contentMode: .crop)),
            (["wd:iphone-8:today-expanded::portrait"],
             ImageRequest(url: url, target: .today(.expanded(.todayView), device: iPhone8), contentMode: .crop)),
            (["w:300", "wd:iphone-16-pro:medium", "w:0"],
             ImageRequest(url: url, target: .widget(.medium, device: iPhone16Pro), contentMode: .crop)),
        ]
        for (options, expected) in cases {
            XCTAssertEqual(try ServeParsing.request(options), expected, "\(options)")
        }
        XCTAssertEqual(try ServeParsing.request(["wd:iphone-16-pro:medium"]).target?.resolve().pixels, PixelSize(width: 1032, height: 486))
    }

    /// imgproxy's options imgcache lacks, by each of their names: a 400 naming the option as written.
    func testEveryUnsupportedImgproxyOptionIsRefusedByName() {
        let options = [
            "min-width:10", "mw:10", "min-height:10", "mh:10", "zoom:2", "z:2", "crop:10:10", "c:10:10", "crop_aspect_ratio:1",
            "crop_ar:1", "car:1", "trim:10", "t:10", "padding:10", "pd:10", "extend_aspect_ratio:1", "extend_ar:1", "exar:1",
            "rotate:90", "rot:90", "flip:1", "fl:1", "objects_position:ce", "obj_pos:ce", "op:ce", "resizing_algorithm:lanczos3",
            "ra:cubic", "background_alpha:0.5", "bga:0.5", "adjust:1:1:1", "a:1", "brightness:10",
            "br:10", "contrast:1", "co:1", "saturation:1", "sa:1", "monochrome:1", "mc:1", "duotone:1", "dt:1",
            "sharpen:1", "sh:1", "pixelate:5", "pix:5", "unsharp_masking:auto", "ush:auto", "blur_detections:2", "bd:2",
            "draw_detections:1", "dd:1", "colorize:1", "col:1", "gradient:1", "gr:1", "style:abc", "st:abc", "watermark:1",
            "wm:1", "watermark_url:abc", "wmu:abc", "watermark_text:abc", "wmt:abc", "watermark_size:10:10", "wms:10:10",
            "watermark_rotate:90", "wm_rot:90", "wmr:90", "watermark_shadow:1", "wmsh:1", "auto_rotate:1", "ar:1",
            "strip_metadata:1", "sm:1", "keep_copyright:1", "kcr:1", "dpi:72", "strip_color_profile:1", "scp:1",
            "enforce_thumbnail:1", "eth:1", "format_quality:jpg:80", "fq:jpg:80", "autoquality:dssim", "aq:dssim",
            "webp_options:1", "webpo:1",
            "avif_options:1", "avifo:1", "page:1", "pg:1", "pages:2", "pgs:2", "disable_animation:1", "da:1",
            "max_animation_frames:5", "maf:5", "max_src_resolution:10", "msr:10", "max_src_file_size:10", "msfs:10",
            "max_animation_frame_resolution:1", "mafr:1", "max_result_dimension:10", "mrd:10", "video_thumbnail_second:1",
            "vts:1", "video_thumbnail_keyframes:1", "vtk:1", "video_thumbnail_tile:1", "vtt:1", "video_thumbnail_animation:1",
            "vta:1", "fallback_image_url:abc", "fiu:abc", "skip_processing:gif", "skp:gif", "raw:1",
            "filename:a", "fn:a", "return_attachment:1", "att:1", "hashsum:md5:abc", "hs:md5:abc",
        ]
        for option in options {
            let name = String(option.prefix { $0 != ":" })
            let error = ServeParsing.error(options: ["w:10", option])
            guard case .unsupportedOption(name, let detail)? = error else {
                XCTFail("\(option): \(String(describing: error))")
                continue
            }
            XCTAssertEqual(error?.httpStatus, 400)
            XCTAssertFalse(detail.isEmpty)
            XCTAssertTrue(error!.description.hasPrefix("unsupported option '\(name)': "), error!.description)
        }
        XCTAssertEqual(
            ServeParsing.error(options: ["scp:1"]), .unsupportedOption(name: "scp", detail: "use cp:convert (to sRGB, the default), cp:keep or cp:ignore"))
        XCTAssertEqual(
            ServeParsing.error(options: ["fiu:abc"])?.description,
            "unsupported option 'fiu': the fallback image is the server's (serve --fallback-image), not a URL's")
    }

    /// Values of supported options that imgcache cannot honour: 400 naming the option as written.
    func testUnsupportedValuesAreRefusedByName() {
        let cases: [([String], String, ServeURLError)] = [
            (["rt:force", "w:10"], "", .unsupportedOption(name: "rt", detail: "force changes the aspect ratio, which imgcache never does: fit or fill")),
            (["rs:auto:10:10"], "", .unsupportedOption(name: "rs", detail: "auto picks fill or fit by the source's orientation: give fit or fill")),
            (["wd:iphone-16-pro:small", "resizing_type:auto"], "",
             .unsupportedOption(name: "resizing_type", detail: "auto picks fill or fit by the source's orientation: give fit or fill")),
            (["g:objw"], "", .unsupportedOption(
                name: "g", detail: "gravity 'objw' is not supported: give ce, no, so, ea, we, noea, nowe, soea, sowe, sm or fp:X:Y")),
            (["gravity:obj"], "", .unsupportedOption(
                name: "gravity", detail: "gravity 'obj' is not supported: give ce, no, so, ea, we, noea, nowe, soea, sowe, sm or fp:X:Y")),
            (["g:sm:3:0"], "", .unsupportedOption(name: "g", detail: "gravity offsets are not supported: give g:sm alone")),
            (["g:ce:10:0"], "", .unsupportedOption(name: "g", detail: "gravity offsets are not supported: give g:ce alone")),
            (["g:no:0:5"], "", .unsupportedOption(name: "g", detail: "gravity offsets are not supported: give g:no alone")),
            (["ex:1"], "", .unsupportedOption(name: "ex", detail: Self.extendDetail)),
            (["rs:fill:10:10:0:t"], "", .unsupportedOption(name: "rs", detail: Self.extendDetail)),
            (["w:10", "extend:1"], "", .unsupportedOption(name: "extend", detail: Self.extendDetail)),
            (["ex:1:sm", "w:10", "h:10"], "", .unsupportedOption(
                name: "ex", detail: "sm picks a crop's window; a padding is placed at ce, no, so, ea, we, noea, nowe, soea, sowe or fp:X:Y")),
            (["format:heic"], "", .unsupportedOption(
                name: "format", detail: "heic output is not supported: its only encoder, x265, is GPL; use avif")),
            ([], "heic", .unsupportedOption(name: "extension", detail: "heic output is not supported: its only encoder, x265, is GPL; use avif")),
            (["f:jxl"], "", .unsupportedOption(name: "f", detail: "jxl output is not supported: jpg, png, gif, webp or avif")),
            ([], "best", .unsupportedOption(name: "extension", detail: "best output is not supported: jpg, png, gif, webp or avif")),
            ([], "tga", .invalidOption(name: "extension", detail: "'tga' is no image format: jpg, png, gif, webp or avif")),
        ]
        for (options, fileExtension, expected) in cases {
            XCTAssertEqual(ServeParsing.error(options: options, extension: fileExtension), expected, "\(options) .\(fileExtension)")
            XCTAssertEqual(expected.httpStatus, 400)
        }
    }

    private static let extendDetail =
        "extend pads a fit to a width and a height (rt:fit with w and h, or wd:); it has nothing to pad here"

    /// `ex` pads a fit out to the size (at its own gravity), `bg` colours the padding and what
    /// shows through translucent pixels.
    func testExtendPadsAFitAndBackgroundColoursIt() throws {
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        let cases: [([String], ImageRequest)] = [
            (["rs:fit:300:200:0:1"], ImageRequest(url: url, target: size(300, 200), contentMode: .pad)),
            (["w:300", "h:200", "ex:1:no"], ImageRequest(url: url, target: size(300, 200), contentMode: .pad, gravity: .north)),
            (["s:300:200:1:t", "extend:1:fp:0.25:1"],
             ImageRequest(url: url, target: size(300, 200), contentMode: .pad, gravity: .focus(x: 0.25, y: 1), allowsUpscaling: true)),
            // The fill's gravity is not the padding's, nor the other way round.
            (["g:so", "ex:1:we", "w:30", "h:20"], ImageRequest(url: url, target: size(30, 20), contentMode: .pad, gravity: .west)),
            (["ex:1:ea", "rs:fill:30:20", "ex:0"], ImageRequest(url: url, target: size(30, 20), contentMode: .crop)),
            (["wd:iphone-16-pro:small", "rt:fit", "ex:1"], ImageRequest(
                url: url, target: .widget(.small, device: try DeviceCatalog.device(named: "iphone-16-pro")), contentMode: .pad)),
            (["bg:255:0:0"], ImageRequest(url: url, background: red)),
            (["background:FF0000", "w:8", "h:8", "ex:1"], ImageRequest(url: url, target: size(8, 8), contentMode: .pad, background: red)),
            (["bg:00000080"], ImageRequest(url: url, background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 128))),
        ]
        for (options, expected) in cases {
            XCTAssertEqual(try ServeParsing.request(options), expected, "\(options)")
        }
        let errors: [(String, ServeURLError)] = [
            ("bg:fff", .invalidOption(name: "bg", detail: "'fff' is no colour: give R:G:B or RRGGBB[AA] hex")),
            ("bg:256:0:0", .invalidOption(name: "bg", detail: "colour channel 256 is not in 0...255")),
            ("bg:1:2", .invalidOption(name: "bg", detail: "takes 1 argument (bg:R:G:B or bg:RRGGBB), not 2")),
            ("ex:2", .invalidOption(name: "ex", detail: "extend '2' is not 1, t, true, 0, f or false")),
            ("ex:1:fp:0.5", .invalidOption(name: "ex", detail: "give ex:1:TYPE or ex:1:fp:X:Y")),
            ("ex:1:no:5:0", .unsupportedOption(name: "ex", detail: "gravity offsets are not supported: give ex:1:no alone")),
        ]
        for (option, expected) in errors {
            XCTAssertEqual(ServeParsing.error(options: ["w:10", "h:10", option]), expected, option)
        }
    }

    func testUnknownOptionsAreRefusedByName() {
        XCTAssertEqual(ServeParsing.error(options: ["foo:1"]), .unknownOption(name: "foo"))
        XCTAssertEqual(ServeParsing.error(options: ["W:300"]), .unknownOption(name: "W"))
        XCTAssertEqual(ServeParsing.error(options: [":300"]), .unknownOption(name: ""))
        XCTAssertEqual(ServeParsing.error(options: ["w:1", "x:"])?.description, "unknown option 'x'")
        let long = String(repeating: "n", count: 500) + ":1"
        XCTAssertEqual(ServeParsing.error(options: [long]), .unknownOption(name: String(repeating: "n", count: 48) + "..."))
    }

    /// Bad numbers, huge numbers, empty arguments and wrong counts: 400s that say what is wrong.
    func testBadArgumentsAreTypedErrors() {
        let cases: [(String, ServeURLError)] = [
            ("w:-1", .invalidOption(name: "w", detail: "width '-1' is not a whole number from 0 to 65535")),
            ("w:+5", .invalidOption(name: "w", detail: "width '+5' is not a whole number from 0 to 65535")),
            ("w:1.5", .invalidOption(name: "w", detail: "width '1.5' is not a whole number from 0 to 65535")),
            ("w:0x10", .invalidOption(name: "w", detail: "width '0x10' is not a whole number from 0 to 65535")),
            ("w:65536", .invalidOption(name: "w", detail: "width 65536 is not in 0...65535")),
            ("w:999999999999999999", .invalidOption(name: "w", detail: "width 999999999999999999 is not in 0...65535")),
            ("h:99999999999999999999999999999999",
             .invalidOption(name: "h", detail: "height '99999999999999999999999999999999' is not a whole number from 0 to 65535")),
            ("w:", .invalidOption(name: "w", detail: "width is empty")),
            ("w:1:2", .invalidOption(name: "w", detail: "takes 1 argument (w:WIDTH), not 2")),
            ("rs:fit:1:1:0:0:ce", .invalidOption(name: "rs", detail: "takes 1 to 5 arguments (rs:TYPE:WIDTH:HEIGHT:ENLARGE:EXTEND), not 6")),
            ("rs:stretch:1:1", .invalidOption(name: "rs", detail: "resizing type 'stretch' is not one of fit, fill, fill-down, force, auto")),
            ("rt:", .invalidOption(name: "rt", detail: "resizing type is empty")),
            ("rs:fit:a", .invalidOption(name: "rs", detail: "width 'a' is not a whole number from 0 to 65535")),
            ("el:yes", .invalidOption(name: "el", detail: "enlarge 'yes' is not 1, t, true, 0, f or false")),
            ("el:2", .invalidOption(name: "el", detail: "enlarge '2' is not 1, t, true, 0, f or false")),
            ("q:101", .invalidOption(name: "q", detail: "quality 101 is not in 0...100")),
            ("mb:-1", .invalidOption(name: "mb", detail: "max bytes '-1' is not a whole number from 0 to 2147483647")),
            ("mb:3000000000", .invalidOption(name: "mb", detail: "max bytes 3000000000 is not in 0...2147483647")),
            ("mb:1:2", .invalidOption(name: "mb", detail: "takes 1 argument (mb:BYTES), not 2")),
            ("q:", .invalidOption(name: "q", detail: "quality is empty")),
            ("dpr:0", .invalidOption(name: "dpr", detail: "dpr 0 is not above 0 and at most 16")),
            ("dpr:16.5", .invalidOption(name: "dpr", detail: "dpr 16.5 is not above 0 and at most 16")),
            ("dpr:1e1", .invalidOption(name: "dpr", detail: "dpr '1e1' is not a decimal number such as 2 or 2.5")),
            ("dpr:inf", .invalidOption(name: "dpr", detail: "dpr 'inf' is not a decimal number such as 2 or 2.5")),
            ("dpr:nan", .invalidOption(name: "dpr", detail: "dpr 'nan' is not a decimal number such as 2 or 2.5")),
            ("dpr:2.", .invalidOption(name: "dpr", detail: "dpr '2.' is not a decimal number such as 2 or 2.5")),
            ("dpr:-2", .invalidOption(name: "dpr", detail: "dpr '-2' is not a decimal number such as 2 or 2.5")),
            ("dpr:1.2.3", .invalidOption(name: "dpr", detail: "dpr '1.2.3' is not a decimal number such as 2 or 2.5")),
            ("g:", .invalidOption(name: "g", detail: "gravity type is empty")),
            ("g:middle", .invalidOption(name: "g", detail: "gravity type 'middle' is none of imgproxy's (ce, no, so, ea, we, ..., fp, sm)")),
            ("g:fp:1.5:0", .invalidOption(name: "g", detail: "focal point x '1.5' is not a fraction from 0 to 1 such as 0.25")),
            ("g:fp:0.5:-1", .invalidOption(name: "g", detail: "focal point y '-1' is not a fraction from 0 to 1 such as 0.25")),
            ("g:fp:0.5:nan", .invalidOption(name: "g", detail: "focal point y 'nan' is not a fraction from 0 to 1 such as 0.25")),
            ("f:", .invalidOption(name: "f", detail: "format is empty")),
            ("cb:", .invalidOption(name: "cb", detail: "cache buster is empty")),
            ("cb:a:b", .invalidOption(name: "cb", detail: "takes 1 argument (cb:STRING), not 2")),
            ("fr:0", .invalidOption(name: "fr", detail: "frames 0 is not in 1...10000")),
            ("fr:10001", .invalidOption(name: "fr", detail: "frames 10001 is not in 1...10000")),
            ("bu:67108865", .invalidOption(name: "bu", detail: "budget 67108865 is not in 0...67108864 bytes (64MB)")),
            ("bu:65MB", .invalidOption(name: "bu", detail: "budget 65MB is not in 0...67108864 bytes (64MB)")),
            ("bu:999999999999999999MB", .invalidOption(name: "bu", detail: "budget 999999999999999999MB is not in 0...67108864 bytes (64MB)")),
            ("bu:15.5MB", .invalidOption(name: "bu", detail: "budget '15.5MB' is not a whole number of bytes, KB or MB, such as 15MB")),
            ("bu:1GB", .invalidOption(name: "bu", detail: "budget '1GB' is not a whole number of bytes, KB or MB, such as 15MB")),
            ("bu:MB", .invalidOption(name: "bu", detail: "budget 'MB' is not a whole number of bytes, KB or MB, such as 15MB")),
            ("cp:srgb", .invalidOption(name: "cp", detail: "colour policy 'srgb' is not one of convert, keep, ignore")),
            ("wd:iphone-16-pro", .invalidOption(name: "wd", detail: "takes 2 to 4 arguments (wd:DEVICE:FAMILY, e.g. wd:iphone-16-pro:medium), not 1")),
            ("wd::medium", .invalidOption(name: "wd", detail: "device is empty")),
            ("wd:iphone-16-pro:", .invalidOption(name: "wd", detail: "widget family is empty")),
            ("wd:iphone-16-pro:medium:x", .invalidOption(name: "wd", detail: "takes 2 arguments (wd:DEVICE:FAMILY), not 3")),
            ("wd:iphone-16-pro:huge", .invalidOption(
                name: "wd",
                detail: "widget family 'huge' is not one of small, medium, large, extra-large, accessory-circular, "
                    + "accessory-rectangular, accessory-inline, today-compact, today-expanded")),
            ("wd:iphone-16-pro:extra-large", .invalidOption(name: "wd", detail: "no published extra-large widget size for iPhone 16 Pro / 17 / 17 Pro")),
            ("wd:iphone-8:today-compact:huge", .invalidOption(name: "wd", detail: "text size 'huge' is not one of xs, s, m, l, xl, xxl, xxxl")),
            ("wd:iphone-8:today-expanded:today-view:sideways", .invalidOption(name: "wd", detail: "orientation 'sideways' is not landscape or portrait")),
            ("wd:" + String(repeating: "x", count: 65) + ":small", .invalidOption(name: "wd", detail: "the device name is over 64 characters")),
        ]
        for (option, expected) in cases {
            XCTAssertEqual(ServeParsing.error(options: [option]), expected, option)
        }
        guard case .invalidOption("wd", let detail)? = ServeParsing.error(options: ["wd:iphone-16-prox:small"]) else {
            return XCTFail("an unknown device parsed")
        }
        XCTAssertTrue(detail.hasPrefix("unknown device 'iphone-16-prox'; closest: iphone-16-pro"), detail)
    }

    /// Options that contradict each other, and sizes no target can have.
    func testContradictionsAndOversizedTargetsAreRefused() {
        let cases: [([String], ServeURLError)] = [
            (["wd:iphone-16-pro:medium", "w:300"], .invalidOption(name: "w", detail: "the size comes from wd: give no width or height beside it")),
            (["rs:fit:0:300", "widget:iphone-16-pro:medium"],
             .invalidOption(name: "rs", detail: "the size comes from widget: give no width or height beside it")),
            (["wd:iphone-16-pro:medium", "dpr:2"], .invalidOption(name: "dpr", detail: "the scale comes from the device with wd")),
            (["dpr:2"], .invalidOption(name: "dpr", detail: "dpr multiplies a width or height: give one")),
            (["w:65535", "dpr:2"], .invalidOption(name: "dpr", detail: "width 65535 x dpr 2 is 131070 pixels, not in 1...65535")),
            (["w:1", "h:1", "dpr:0.1"], .invalidOption(name: "dpr", detail: "width 1 x dpr 0.1 is 0 pixels, not in 1...65535")),
            (["w:5000", "h:5000"], .invalidOption(name: "h", detail: "5000x5000 is over the output limit of 16777216 pixels")),
            (["rs:fit:4097:4096"], .invalidOption(name: "rs", detail: "4097x4096 is over the output limit of 16777216 pixels")),
            (["sl:medium:top", "wd:ipad-air-2:medium"],
             .invalidOption(name: "sl", detail: "home-screen slices are of iPhone screenshots; wd names an iPad")),
        ]
        for (options, expected) in cases {
            XCTAssertEqual(ServeParsing.error(options: options), expected, "\(options)")
        }
    }

    /// A smaller output limit bounds targets and the free side of a one-sided size.
    func testTheOutputLimitComesFromTheConfiguration() throws {
        let parser = ServeURLParser(
            configuration: ServeURLConfiguration(signing: .unsigned, limits: DecodingLimits(maxOutputPixels: 1_000_000)))
        XCTAssertEqual(try parser.parse(path: ServeParsing.path(["w:800"])).imageRequest?.target, size(800, 1250))
        XCTAssertEqual(
            ServeParsing.error(ServeParsing.path(["w:1001", "h:1000"]), parser: parser),
            .invalidOption(name: "h", detail: "1001x1000 is over the output limit of 1000000 pixels"))
        let tiny = ServeURLParser(configuration: ServeURLConfiguration(signing: .unsigned, limits: DecodingLimits(maxOutputPixels: 100)))
        XCTAssertEqual(
            ServeParsing.error(ServeParsing.path(["w:101"]), parser: tiny),
            .invalidOption(name: "w", detail: "a side of 101 pixels is over the output limit of 100 pixels"))
        XCTAssertEqual(
            ServeParsing.error(ServeParsing.path(["wd:iphone-16-pro:small"]), parser: tiny),
            .invalidOption(name: "wd", detail: "486x486 is over the output limit of 100 pixels"))
    }
}
