import CJPEG

/// Decodes JPEG with libjpeg-turbo: baseline, progressive, arithmetic, grayscale, CMYK and YCCK,
/// every chroma subsampling. The DCT-domain scale (1/2, 1/4, 1/8) is chosen from the target so the
/// decoded region stays at least twice the output size; the area filter does the rest, row by row.
/// EXIF orientation is applied to the small result.
enum JPEGDecoder {
    /// How libjpeg reconstructs pixels. The defaults are the accurate choices; tests set others to
    /// compare against reference decodes bit for bit.
    struct Settings {
        var dctMethod = JDCT_ISLOW
        var fancyUpsampling = true
        /// Decode at exactly 1/n (1, 2, 4 or 8) and skip the resampler; nil chooses from the target.
        var fixedScaleDenominator: Int?
    }

    /// Progressive scans allowed before a file is refused (a many-scan file burns CPU for nothing).
    static let maxScans: Int32 = 1000
    /// Bytes libjpeg may allocate; a progressive file holds all its coefficients, 2 bytes a sample.
    static let maxDecoderMemory = 1 << 30

    static func decode(
        _ input: SourceInput, options: DecodingOptions, settings: Settings = Settings(), onFrame: FrameHandler
    ) throws -> ImageInfo {
        let reader = try Reader(input)
        let cinfo = reader.cinfo
        try reader.readHeader()
        let stored = PixelSize(width: Int(cinfo.pointee.image_width), height: Int(cinfo.pointee.image_height))
        try options.limits.check(width: stored.width, height: stored.height, format: .jpeg)
        let orientation = options.appliesOrientation ? reader.exifOrientation() ?? .up : .up
        var geometry = options.geometry(forStoredSize: stored, orientation: orientation)

        let denominator = settings.fixedScaleDenominator ?? scaleDenominator(reduction: geometry.reductionFactor)
        cinfo.pointee.scale_num = 1
        cinfo.pointee.scale_denom = UInt32(denominator)
        cinfo.pointee.dct_method = settings.dctMethod
        cinfo.pointee.do_fancy_upsampling = settings.fancyUpsampling ? 1 : 0
        let isCMYK = cinfo.pointee.jpeg_color_space == JCS_CMYK || cinfo.pointee.jpeg_color_space == JCS_YCCK
        cinfo.pointee.out_color_space = isCMYK ? JCS_CMYK : JCS_EXT_RGBA
        try reader.calcOutputDimensions()
        let decoded = PixelSize(width: Int(cinfo.pointee.output_width), height: Int(cinfo.pointee.output_height))
        if settings.fixedScaleDenominator != nil { geometry = .identity(decoded) }

        try reader.start()
        var resampler = StreamingResampler(inputSize: decoded, geometry: geometry)
        let batch = max(1, Int(cinfo.pointee.rec_outbuf_height))
        let rowBytes = decoded.width * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * batch)
        let invertedCMYK = cinfo.pointee.saw_Adobe_marker != 0
        try rows.withUnsafeMutableBufferPointer { rows in
            let base = rows.baseAddress!
            var pointers = (0..<batch).map { Optional(base + $0 * rowBytes) }
            while !resampler.isComplete && cinfo.pointee.output_scanline < cinfo.pointee.output_height {
                let count = try reader.readRows(&pointers)
                for index in 0..<count {
                    let row = base + index * rowBytes
                    if isCMYK { convertCMYKToRGBA(row, width: decoded.width, inverted: invertedCMYK) }
                    resampler.push(row: row)
                }
            }
        }
        reader.abort()
        var info = ImageInfo(format: .jpeg, sourceSize: orientation.swapsAxes ? stored.transposed : stored,
                             orientation: orientation)
        if reader.dataEndedEarly {
            guard options.acceptsTruncatedData else {
                throw ImgCacheError.corruptImage(format: .jpeg, detail: "data ends before the image does (truncated file)")
            }
            info.isTruncated = true
        }
        try onFrame(ImageFrame(bitmap: resampler.finish().oriented(orientation)), info)
        return info
    }

    /// The largest of 1, 2, 4, 8 that leaves at least two decoded pixels per output pixel.
    static func scaleDenominator(reduction: Double) -> Int {
        for denominator in [8, 4, 2] where reduction >= Double(denominator * 2) { return denominator }
        return 1
    }

    /// Turns libjpeg's CMYK (inverted when an Adobe marker says so, as Photoshop writes it) into RGBA
    /// in place: R = C x K / 255 on inverted values.
    private static func convertCMYKToRGBA(_ row: UnsafeMutablePointer<UInt8>, width: Int, inverted: Bool) {
        for x in 0..<width {
            let pixel = row + x * 4
            var c = UInt32(pixel[0]), m = UInt32(pixel[1]), y = UInt32(pixel[2]), k = UInt32(pixel[3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            pixel[0] = UInt8((c * k + 127) / 255)
            pixel[1] = UInt8((m * k + 127) / 255)
            pixel[2] = UInt8((y * k + 127) / 255)
            pixel[3] = 255
        }
    }

    /// Owns one libjpeg decompressor and turns its failures into `corruptImage` errors.
    private final class Reader {
        private let decoder: OpaquePointer
        let cinfo: UnsafeMutablePointer<jpeg_decompress_struct>

        init(_ input: SourceInput) throws {
            guard let decoder = imgjpeg_decoder_create() else {
                throw ImgCacheError.corruptImage(format: .jpeg, detail: "cannot create a libjpeg decompressor")
            }
            self.decoder = decoder
            cinfo = imgjpeg_decoder_cinfo(decoder)
            imgjpeg_set_limits(decoder, JPEGDecoder.maxScans, JPEGDecoder.maxDecoderMemory)
            switch input {
            case .memory(let bytes):
                try check(imgjpeg_use_memory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count))
            case .file(let file):
                try check(imgjpeg_use_file(decoder, file))
            }
        }

        deinit { imgjpeg_decoder_destroy(decoder) }

        var dataEndedEarly: Bool { imgjpeg_data_ended_early(decoder) != 0 }

        func readHeader() throws { try check(imgjpeg_read_header(decoder)) }
        func calcOutputDimensions() throws { try check(imgjpeg_calc_output_dimensions(decoder)) }
        func start() throws { try check(imgjpeg_start(decoder)) }
        func abort() { imgjpeg_abort(decoder) }

        func readRows(_ rows: inout [UnsafeMutablePointer<UInt8>?]) throws -> Int {
            var count: Int32 = 0
            try check(imgjpeg_read_rows(decoder, &rows, Int32(rows.count), &count))
            if count == 0 {
                throw ImgCacheError.corruptImage(format: .jpeg, detail: "decoder returned no rows")
            }
            return Int(count)
        }

        /// The orientation in the first APP1 Exif segment, if any.
        func exifOrientation() -> ImageOrientation? {
            var marker = cinfo.pointee.marker_list
            while let current = marker {
                if current.pointee.marker == 0xE1, let data = current.pointee.data {
                    let segment = UnsafeRawBufferPointer(start: data, count: Int(current.pointee.data_length))
                    if let orientation = EXIFOrientation.orientation(inAPP1: segment) { return orientation }
                }
                marker = current.pointee.next
            }
            return nil
        }

        private func check(_ status: Int32) throws {
            guard status == 0 else {
                throw ImgCacheError.corruptImage(format: .jpeg, detail: String(cString: imgjpeg_error_message(decoder)))
            }
        }
    }
}
