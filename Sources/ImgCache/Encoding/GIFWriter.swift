import CGIF
import Foundation

/// giflib's encoder writing into memory through an output function: the screen descriptor, the
/// NETSCAPE2.0 loop extension, and frames each with a graphic control block and a local palette.
/// The bytes grow as frames are put; `close()` writes the trailer and hands them over.
final class GIFWriter {
    /// The bytes written so far; giflib's output function appends to it.
    private final class Output {
        var bytes: [UInt8] = []
    }

    private var gif: UnsafeMutablePointer<GifFileType>?
    private let output = Output()

    /// Starts a GIF89a with a `size` canvas, no global palette and background index 0.
    init(size: PixelSize) throws {
        var error: Int32 = 0
        gif = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), { gif, bytes, count in
            guard let gif, let bytes, count > 0, let userData = gif.pointee.UserData else { return 0 }
            let output = Unmanaged<Output>.fromOpaque(userData).takeUnretainedValue()
            output.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
            return count
        }, &error)
        guard let gif else { throw Self.failure(error) }
        EGifSetGifVersion(gif, true)
        try check(EGifPutScreenDesc(gif, Int32(size.width), Int32(size.height), 8, 0, nil))
    }

    deinit {
        if let gif { EGifCloseFile(gif, nil) }
    }

    /// Bytes written so far.
    var byteCount: Int { output.bytes.count }

    /// Writes the NETSCAPE2.0 application extension: loop `count` times, 0 forever.
    func putLoopCount(_ count: Int) throws {
        let gif = try open()
        let loops = UInt16(clamping: count)
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE))
        try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)))
        try check(EGifPutExtensionBlock(gif, 3, [1, UInt8(loops & 0xFF), UInt8(loops >> 8)]))
        try check(EGifPutExtensionTrailer(gif))
    }

    /// Writes one whole-canvas frame: a graphic control block, the image descriptor with `palette`
    /// as its local colour table (padded with black to a power of two, at least 2 entries), then the
    /// `size.area` palette indices in `indices`, row by row (giflib masks them in place).
    func putFrame(
        size: PixelSize, indices: inout [UInt8], palette: [GifColorType], transparentIndex: Int?,
        delayCentiseconds: Int, disposal: Int32
    ) throws {
        let gif = try open()
        var control = GraphicsControlBlock(
            DisposalMode: disposal, UserInputFlag: false, DelayTime: Int32(clamping: min(max(delayCentiseconds, 0), 0xFFFF)),
            TransparentColor: Int32(transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes))

        var colors = palette
        let tableSize = max(2, 1 << GifBitSize(Int32(max(colors.count, 1))))
        colors.append(contentsOf: repeatElement(GifColorType(Red: 0, Green: 0, Blue: 0), count: tableSize - colors.count))
        guard let map = GifMakeMapObject(Int32(tableSize), colors) else {
            throw ImgCacheError.encodingFailed(format: .gif, detail: "out of memory for a colour table")
        }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(gif, 0, 0, Int32(size.width), Int32(size.height), false, map))
        try indices.withUnsafeMutableBufferPointer { indices in
            for y in 0..<size.height {
                try check(EGifPutLine(gif, indices.baseAddress! + y * size.width, Int32(size.width)))
            }
        }
    }

    /// Writes the trailer, releases giflib's encoder and returns the file.
    func close() throws -> Data {
        let gif = try open()
        self.gif = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw Self.failure(error) }
        return Data(output.bytes)
    }

    private func open() throws -> UnsafeMutablePointer<GifFileType> {
        guard let gif else { throw ImgCacheError.invalidArgument("the GIF encoder is already finished") }
        return gif
    }

    private func check(_ status: Int32) throws {
        guard status == GIF_OK else { throw Self.failure(gif?.pointee.Error ?? 0) }
    }

    private static func failure(_ code: Int32) -> ImgCacheError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .encodingFailed(format: .gif, detail: message)
    }
}
