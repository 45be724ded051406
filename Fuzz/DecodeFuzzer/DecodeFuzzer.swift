import Foundation
import FuzzDriver
import ImgCache

// Sniffs, inspects and decodes fuzzed bytes (JPEG, PNG, GIF, WebP, HEIC, AVIF) to a small target, within small
// limits, as the pipeline decodes what a server sends. Any crash, hang or leak is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func decodeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(bytes: $0, count: size) } ?? Data()
    let limits = DecodingLimits(maxPixelsPerFrame: 4_000_000, maxTotalPixels: 16_000_000)
    _ = try? ImageDecoder.inspect(.data(bytes))
    for (index, mode) in ContentMode.allCases.enumerated() {
        var options = DecodingOptions(
            targetSize: PixelSize(width: 31 + index * 17, height: 23 + index * 11), contentMode: mode, maxFrames: 3,
            limits: limits)
        options.acceptsTruncatedData = index == 1
        _ = try? ImageDecoder.decode(.data(bytes), options: options)
    }
    return 0
}

@_cdecl("DecodeFuzzer_main")
public func decodeFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, decodeFuzzerTestOneInput)
}
