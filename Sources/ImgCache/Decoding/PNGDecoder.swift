import CPNG

/// Decodes PNG with libpng: every colour type and bit depth, Adam7, palette and tRNS to alpha,
/// 16-bit to 8-bit by the high byte. Gamma and colour chunks are not applied (as browsers without
/// colour management do). Non-interlaced rows stream into the resampler one at a time; an
/// interlaced image is held whole (within the pixel limit) since Adam7 fills rows over seven passes.
enum PNGDecoder {
    static func decode(
        _ input: SourceInput, options: DecodingOptions, onFrame: FrameHandler
    ) throws -> ImageInfo {
        let reader = try Reader(input)
        let header = try reader.readHeader()
        let stored = PixelSize(width: Int(header.width), height: Int(header.height))
        try options.limits.check(width: stored.width, height: stored.height, format: .png)
        let layout = try reader.setLayout(IMGPNG_RGBA8)
        var resampler = StreamingResampler(
            inputSize: stored, geometry: options.geometry(forStoredSize: stored, orientation: .up))
        var info = ImageInfo(format: .png, sourceSize: stored)
        do {
            if header.interlaced != 0 {
                var image = try reader.readImage(size: stored, rowBytes: layout.rowBytes)
                image.withUnsafeMutableBufferPointer { pixels in
                    for y in 0..<stored.height where !resampler.isComplete {
                        resampler.push(row: pixels.baseAddress! + y * layout.rowBytes)
                    }
                }
            } else {
                var row = [UInt8](repeating: 0, count: layout.rowBytes)
                try row.withUnsafeMutableBufferPointer { row in
                    while !resampler.isComplete {
                        try reader.readRow(into: row.baseAddress!)
                        resampler.push(row: row.baseAddress!)
                    }
                }
            }
            if resampler.inputRowIndex == stored.height { try reader.readEnd() }
        } catch let error as ImgCacheError where options.acceptsTruncatedData && resampler.inputRowIndex > 0 {
            _ = error
            info.isTruncated = true
        }
        try onFrame(ImageFrame(bitmap: resampler.finish()), info)
        return info
    }

    /// Decodes the whole image in libpng's expanded layout (channels as stored, palette expanded,
    /// tRNS to alpha, 16-bit to 8-bit), the layout of the PngSuite CRC references.
    static func decodeExpanded(_ source: ImageSource, limits: DecodingLimits = DecodingLimits()) throws
        -> (size: PixelSize, channels: Int, pixels: [UInt8])
    {
        try source.withInput { input in
            let reader = try Reader(input)
            let header = try reader.readHeader()
            let size = PixelSize(width: Int(header.width), height: Int(header.height))
            try limits.check(width: size.width, height: size.height, format: .png)
            let layout = try reader.setLayout(IMGPNG_EXPANDED8)
            let pixels = try reader.readImage(size: size, rowBytes: layout.rowBytes)
            try reader.readEnd()
            return (size, layout.channels, pixels)
        }
    }

    /// Owns one libpng read struct and turns its failures into `corruptImage` errors.
    private final class Reader {
        private let decoder: OpaquePointer

        init(_ input: SourceInput) throws {
            guard let decoder = imgpng_decoder_create() else {
                throw ImgCacheError.corruptImage(format: .png, detail: "cannot create a libpng reader")
            }
            self.decoder = decoder
            switch input {
            case .memory(let bytes):
                imgpng_use_memory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            case .file(let file):
                imgpng_use_file(decoder, file)
            }
        }

        deinit { imgpng_decoder_destroy(decoder) }

        func readHeader() throws -> imgpng_header {
            var header = imgpng_header()
            try check(imgpng_read_info(decoder, &header))
            return header
        }

        func setLayout(_ layout: imgpng_layout) throws -> (channels: Int, rowBytes: Int) {
            var channels: Int32 = 0
            var rowBytes = 0
            try check(imgpng_set_layout(decoder, layout, &channels, &rowBytes))
            return (Int(channels), rowBytes)
        }

        func readRow(into row: UnsafeMutablePointer<UInt8>) throws {
            try check(imgpng_read_row(decoder, row))
        }

        func readImage(size: PixelSize, rowBytes: Int) throws -> [UInt8] {
            var pixels = [UInt8](repeating: 0, count: rowBytes * size.height)
            try pixels.withUnsafeMutableBufferPointer { pixels in
                var rows = (0..<size.height).map { Optional(pixels.baseAddress! + $0 * rowBytes) }
                try check(imgpng_read_image(decoder, &rows))
            }
            return pixels
        }

        func readEnd() throws {
            try check(imgpng_read_end(decoder))
        }

        private func check(_ status: Int32) throws {
            guard status == 0 else {
                throw ImgCacheError.corruptImage(format: .png, detail: String(cString: imgpng_error_message(decoder)))
            }
        }
    }
}
