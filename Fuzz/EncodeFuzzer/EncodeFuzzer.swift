import Foundation
import FuzzDriver
import ImgCache

// Encodes fuzzed bitmaps as PNG, JPEG (at a fuzzed quality, translucent pixels flattened) and GIF
// (several frames, exact palettes or median cut), then decodes each result, which must succeed
// and give the bitmap's size: an encoder that writes what its decoder refuses is a finding too.
// The first bytes choose the size (1 to 64 pixels a side), the quality and the frame count; the
// rest are the pixels, repeated as needed.

@_cdecl("LLVMFuzzerTestOneInput")
public func encodeFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size >= 5 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let width = Int(bytes[0] % 64) + 1, height = Int(bytes[1] % 64) + 1
    let quality = Int(bytes[2] % 100) + 1, frames = Int(bytes[3] % 3) + 1
    let body = bytes.dropFirst(4)
    let pixelSize = PixelSize(width: width, height: height)
    func bitmap(_ frame: Int) -> Bitmap {
        let pixels = (0..<width * height * 4).map { body[body.startIndex + ($0 + frame * 7) % body.count] }
        return try! Bitmap(size: pixelSize, pixels: pixels)
    }
    do {
        let first = bitmap(0)
        let png = try PNGEncoder.encode(first, compressionLevel: Int(bytes[2] % 13))
        let decodedPNG = try ImageDecoder.decode(.data(png))
        precondition(decodedPNG.frames[0].bitmap == first, "PNG does not round-trip")
        let jpeg = try ImageDecoder.decode(.data(JPEGEncoder.encode(first, quality: quality)))
        precondition(jpeg.size == pixelSize, "JPEG size changed")
        let encoder = try GIFEncoder(size: pixelSize, loopCount: Int(bytes[3]))
        for frame in 0..<frames { try encoder.add(ImageFrame(bitmap: bitmap(frame), delayCentiseconds: Int(bytes[2]))) }
        let gif = try ImageDecoder.decode(.data(encoder.finish()), options: DecodingOptions(maxFrames: 10))
        precondition(gif.frames.count == frames && gif.size == pixelSize, "GIF frames or size changed")
    } catch {
        preconditionFailure("encoding a valid bitmap failed: \(error)")
    }
    return 0
}

@_cdecl("EncodeFuzzer_main")
public func encodeFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, encodeFuzzerTestOneInput)
}
