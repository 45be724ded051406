import CGIF

/// giflib's sequential reader over a `SourceInput`, one record at a time (never `DGifSlurp`).
///
/// Images are read with `DGifGetImageHeader`, the part of `DGifGetImageDesc` that does not append
/// to `SavedImages`, so reading a file with thousands of frames allocates nothing per frame.
/// Every giflib failure becomes `ImgCacheError.corruptImage(format: .gif, ...)`; `dataEnded` tells
/// whether it happened because the data ran out.
final class GIFReader {
    /// What comes next in the file.
    enum Record {
        /// An image descriptor: call `readImageHeader()`, then read or skip its pixels.
        case image
        case `extension`(GIFExtension)
        /// The trailer (`;`).
        case trailer
        /// The data ended where a record should start.
        case endOfData
        /// A byte that starts no record: the rest of the file is not GIF.
        case unrecognized
    }

    /// Position and size of a frame on the canvas, as stored (not clipped).
    struct ImageHeader: Equatable {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
        var isInterlaced: Bool
    }

    private let gif: UnsafeMutablePointer<GifFileType>
    private let stream: GIFInputStream

    /// Opens `input` and reads the header and logical screen descriptor (with the global palette).
    init(_ input: SourceInput) throws {
        let stream = GIFInputStream(input)
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(stream).toOpaque(), { gif, buffer, count in
            guard let gif, let buffer, count > 0, let userData = gif.pointee.UserData else { return 0 }
            let stream = Unmanaged<GIFInputStream>.fromOpaque(userData).takeUnretainedValue()
            return Int32(stream.read(into: buffer, count: Int(count)))
        }, &error)
        guard let opened else {
            throw Self.failure(code: error, dataEnded: stream.endedEarly)
        }
        self.gif = opened
        self.stream = stream
    }

    deinit { DGifCloseFile(gif, nil) }

    /// Size of the logical screen (the canvas).
    var canvasSize: PixelSize {
        PixelSize(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
    }

    /// True once a read came up short: the data ended before giflib expected.
    var dataEnded: Bool { stream.endedEarly }

    /// Reads the next record introducer; an extension is read whole.
    func nextRecord() throws -> Record {
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(gif, &type) == GIF_OK else {
            if gif.pointee.Error == D_GIF_ERR_WRONG_RECORD { return .unrecognized }
            if stream.endedEarly { return .endOfData }
            throw failure()
        }
        switch type {
        case IMAGE_DESC_RECORD_TYPE: return .image
        case EXTENSION_RECORD_TYPE: return .extension(try readExtension())
        default: return .trailer
        }
    }

    /// Reads an image descriptor and its local palette, and sets up LZW decoding for its pixels.
    func readImageHeader() throws -> ImageHeader {
        guard DGifGetImageHeader(gif) == GIF_OK else { throw failure() }
        let image = gif.pointee.Image
        return ImageHeader(
            left: Int(image.Left), top: Int(image.Top), width: Int(image.Width), height: Int(image.Height),
            isInterlaced: image.Interlace)
    }

    /// The palette of the image whose header was read last: its local colour table, else the global
    /// one, else a grey ramp.
    func palette(transparentIndex: Int?) -> GIFPalette {
        guard let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            return GIFPalette(colors: nil, transparentIndex: transparentIndex)
        }
        let count = max(0, min(256, Int(map.pointee.ColorCount)))
        return GIFPalette(colors: UnsafeBufferPointer(start: colors, count: count), transparentIndex: transparentIndex)
    }

    /// Decodes the next row of the current image (`width` palette indices) into `row`.
    ///
    /// Returns false when the image's LZW data ended (an end code) before this row was complete:
    /// the rest of the image's data is skipped and no further row may be read.
    func readRow(into row: UnsafeMutablePointer<UInt8>, width: Int) throws -> Bool {
        if DGifGetLine(gif, row, Int32(width)) == GIF_OK { return true }
        guard gif.pointee.Error == D_GIF_ERR_EOF_TOO_SOON, !stream.endedEarly else { throw failure() }
        gif.pointee.Error = D_GIF_SUCCEEDED
        try skipImageData()
        return false
    }

    /// Skips the rest of the current image's LZW data without decoding it.
    func skipImageData() throws {
        var block: UnsafeMutablePointer<GifByteType>?
        var codeSize: Int32 = 0
        guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { throw failure() }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw failure() }
        }
    }

    /// Reads an extension: its code and first two data sub-blocks (enough for a graphic control
    /// block or an application identifier and its first data block); further sub-blocks are skipped.
    private func readExtension() throws -> GIFExtension {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure() }
        var blocks: [[UInt8]] = []
        while let current = block {
            if blocks.count < 2 {
                blocks.append(Array(UnsafeBufferPointer(start: current + 1, count: Int(current[0]))))
            }
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure() }
        }
        return GIFExtension(code: Int(code), blocks: blocks)
    }

    private func failure() -> ImgCacheError {
        Self.failure(code: gif.pointee.Error, dataEnded: stream.endedEarly)
    }

    private static func failure(code: Int32, dataEnded: Bool) -> ImgCacheError {
        if dataEnded {
            return .corruptImage(format: .gif, detail: "data ends before the image does (truncated file)")
        }
        let message = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
        return .corruptImage(format: .gif, detail: message)
    }
}
