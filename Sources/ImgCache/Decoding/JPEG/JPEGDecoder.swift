import CJPEG

/// Decodes JPEG with libjpeg-turbo: baseline, progressive, arithmetic, grayscale, RGB, CMYK and
/// YCCK, every chroma subsampling, restart markers. The DCT-domain scale (1/2, 1/4, 1/8) is chosen
/// from the target so the decoded region stays at least twice the output size; the area filter does
/// the rest, row by row. Only the columns the outputs read are decoded (`jpeg_crop_scanline`), the
/// rows above them are skipped (`jpeg_skip_scanlines`), and decoding stops below them, each with a
/// margin so that the pixels read are the full decode's. EXIF orientation is applied to the small
/// result.
///
/// 12-bit and lossless (SOF3) files are refused with `corruptImage`: libjpeg-turbo 2.1.5's 8-bit
/// API does not decode them.
enum JPEGDecoder {
    /// How libjpeg reconstructs pixels. The defaults are the accurate choices; tests set others to
    /// compare against reference decodes bit for bit.
    struct Settings {
        var dctMethod = JDCT_ISLOW
        /// Triangle-filtered chroma upsampling (libjpeg's default); false repeats each chroma sample.
        var fancyUpsampling = true
        /// Decode at exactly 1/n (1, 2, 4 or 8) and skip the resampler; nil chooses from the target.
        var fixedScaleDenominator: Int?
        /// Decode only the columns the outputs read and skip the rows above them; tests turn it
        /// off to compare.
        var skipsUnreadPixels = true
    }

    /// What one decode did: what it learned of the source, and how libjpeg was asked to scale.
    struct Report {
        var info: ImageInfo
        /// n of the 1/n DCT-domain scale libjpeg decoded at.
        var scaleDenominator: Int
        /// Size of the rows libjpeg produced, before resampling and orientation.
        var decodedSize: PixelSize
        /// The columns of those rows it decoded (all of them unless the outputs needed fewer).
        var decodedColumns: Range<Int>
        /// Rows at the top it skipped, as the outputs did not read them.
        var skippedRows: Int
    }

    static func decode(
        _ input: SourceInput, options: DecodingOptions, settings: Settings = Settings(), onFrame: FrameHandler
    ) throws -> ImageInfo {
        try decodeReporting(input, options: options, settings: settings, onFrame: onFrame).info
    }

    /// Decodes like `decode` and tells how.
    static func decodeReporting(
        _ input: SourceInput, options: DecodingOptions, settings: Settings = Settings(), onFrame: FrameHandler
    ) throws -> Report {
        let reader = try JPEGReader(input)
        try reader.readHeader()
        return try decode(reader, targets: [(0, options)], settings: settings) { _, frame, info in try onFrame(frame, info) }
    }

    /// Decodes once per DCT scale for several targets (which share their limits and flags): the
    /// targets that need the same scale are resampled from one pass over the rows. Returns a report
    /// per pass, finest scale first.
    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> [Report] {
        let reader = try JPEGReader(input)
        try reader.readHeader()
        let orientation = try checkedOrientation(reader, targets[0])
        let reductions = try targets.map { try $0.geometry(forStoredSize: reader.storedSize, orientation: orientation).reductionFactor }
        let groups = Dictionary(grouping: targets.indices) { scaleDenominator(reduction: reductions[$0]) }
        return try groups.sorted(by: { $0.key < $1.key }).enumerated().map { offset, group in
            let groupReader = try offset == 0 ? reader : JPEGReader(input.rewound())
            if offset > 0 { try groupReader.readHeader() }
            return try decode(groupReader, targets: group.value.map { ($0, targets[$0]) }, onFrame: onFrame)
        }
    }

    /// The orientation to apply, once the stored size is checked against the limits (a
    /// progressive file's coefficients against the working memory) and
    /// libjpeg's own allocations are bounded by the same limit.
    private static func checkedOrientation(_ reader: JPEGReader, _ options: DecodingOptions) throws -> ImageOrientation {
        let stored = reader.storedSize
        try options.limits.check(width: stored.width, height: stored.height, format: .jpeg)
        if reader.isProgressive {
            try options.limits.checkWorkingMemory(bytes: reader.coefficientBytes, for: stored)
        }
        reader.limitMemory(to: options.limits.maxWorkingBytes)
        return options.appliesOrientation ? reader.exifOrientation() ?? .up : .up
    }

    /// One pass over the rows of `reader` (its header read) at the scale the first target needs,
    /// feeding every target's resampler.
    private static func decode(
        _ reader: JPEGReader, targets: [(index: Int, options: DecodingOptions)], settings: Settings = Settings(),
        onFrame: TargetFrameHandler
    ) throws -> Report {
        let options = targets[0].options
        let stored = reader.storedSize
        let orientation = try checkedOrientation(reader, options)
        var info = ImageInfo(format: .jpeg, sourceSize: orientation.swapsAxes ? stored.transposed : stored,
                             orientation: orientation, colorProfile: reader.colorProfile())
        let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
        var geometries = try targets.map { try $0.options.geometry(forStoredSize: stored, orientation: orientation) }

        let denominator = settings.fixedScaleDenominator ?? scaleDenominator(reduction: geometries[0].reductionFactor)
        let cinfo = reader.cinfo
        cinfo.pointee.scale_num = 1
        cinfo.pointee.scale_denom = UInt32(denominator)
        cinfo.pointee.dct_method = settings.dctMethod
        cinfo.pointee.do_fancy_upsampling = settings.fancyUpsampling ? 1 : 0
        // CMYK is converted here (libjpeg has no CMYK to RGB), with its profile or else by formula;
        // everything else, gray included, comes out of libjpeg-turbo as RGBA with opaque alpha and
        // is converted to sRGB here when its profile asks for it.
        let isCMYK = reader.isCMYK
        cinfo.pointee.out_color_space = isCMYK ? JCS_CMYK : JCS_EXT_RGBA
        try reader.calcOutputDimensions()
        let decoded = reader.outputSize
        if settings.fixedScaleDenominator != nil { geometries = [.identity(decoded)] }

        try reader.start()
        // A progressive file is read whole by `start`: refuse a truncated one before any row.
        try checkComplete(reader, options: options, info: &info)
        // Every row libjpeg (or the CMYK conversion) writes has opaque alpha.
        let resampler = RowResampler(inputSize: decoded, geometries: geometries, inputIsOpaque: true)
        if settings.skipsUnreadPixels, let wanted = Self.columnsWorthCropping(resampler.columnsNeeded, width: decoded.width) {
            let columns = try reader.cropColumns(wanted)
            guard columns.lowerBound <= wanted.lowerBound, columns.upperBound >= wanted.upperBound, columns.upperBound <= decoded.width
            else {
                throw ImgCacheError.corruptImage(format: .jpeg, detail: "libjpeg cropped columns \(columns), not \(wanted)")
            }
            resampler.narrowRows(to: columns)
        }
        var skippedRows = 0
        if settings.skipsUnreadPixels, resampler.firstRowNeeded - Self.cropMargin >= Self.cropMargin {
            skippedRows = try reader.skipRows(resampler.firstRowNeeded - Self.cropMargin)
            resampler.skipRows(skippedRows)
        }
        let width = resampler.pushedColumns.count
        let rowBytes = width * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * reader.rowsPerRead)
        try rows.withUnsafeMutableBufferPointer { rows in
            let base = rows.baseAddress!
            var pointers = (0..<reader.rowsPerRead).map { Optional(base + $0 * rowBytes) }
            while !resampler.isComplete && reader.hasMoreRows {
                let count = try reader.readRows(&pointers)
                // Refused as soon as the data runs out, rather than after decoding grey rows.
                if !options.acceptsTruncatedData { try checkComplete(reader, options: options, info: &info) }
                for index in 0..<count {
                    let row = base + index * rowBytes
                    if let colorTransform {
                        colorTransform.apply(to: row, width: width)
                    } else if isCMYK {
                        convertInvertedCMYKToRGBA(row, width: width)
                    }
                    resampler.push(row: row)
                }
            }
        }
        // Checked before the abort, which frees the state the check reads.
        try checkComplete(reader, options: options, info: &info)
        reader.abort()
        for (target, bitmap) in zip(targets, resampler.finish()) {
            try onFrame(target.index, ImageFrame(bitmap: bitmap.oriented(orientation)), info)
        }
        return Report(info: info, scaleDenominator: denominator, decodedSize: decoded, decodedColumns: resampler.pushedColumns,
            skippedRows: skippedRows)
    }

    /// Decoded pixels kept beyond the columns the outputs read on each side, and rows above the
    /// first they read, so that the edge of what libjpeg decodes (where its chroma upsampling has
    /// no neighbour) is never read; fewer rows than twice this are never skipped.
    static let cropMargin = 32

    /// The columns to ask libjpeg for when `needed` of `width` leaves out enough to be worth it
    /// (a tenth of the row), with `cropMargin` on each side; nil to decode whole rows.
    static func columnsWorthCropping(_ needed: Range<Int>, width: Int) -> Range<Int>? {
        let wanted = max(0, needed.lowerBound - cropMargin)..<min(width, needed.upperBound + cropMargin)
        return wanted.count * 10 <= width * 9 ? wanted : nil
    }

    /// The largest of 1, 2, 4, 8 that leaves at least two decoded pixels per output pixel.
    static func scaleDenominator(reduction: Double) -> Int {
        for denominator in [8, 4, 2] where reduction >= Double(denominator * 2) { return denominator }
        return 1
    }

    /// Marks `info` truncated when the data read so far ended early or left progressive scans
    /// missing, or throws if the options refuse truncated data.
    private static func checkComplete(_ reader: JPEGReader, options: DecodingOptions, info: inout ImageInfo) throws {
        let detail: String
        if reader.dataEndedEarly {
            detail = "data ends before the image does (truncated file)"
        } else if reader.coefficientsIncomplete {
            detail = "progressive scans stop before the image is complete (truncated file)"
        } else {
            return
        }
        guard options.acceptsTruncatedData else { throw ImgCacheError.corruptImage(format: .jpeg, detail: detail) }
        info.isTruncated = true
    }

    /// Turns libjpeg's CMYK into RGBA in place, for a file without a usable CMYK profile (or under
    /// `ColorPolicy.ignore`). CMYK JPEGs store inverted values (255 = no ink), as Photoshop writes
    /// them; every CMYK file is read that way, with or without an Adobe marker, as browsers do. On
    /// inverted values R = C x K / 255 (and likewise G from M, B from Y).
    private static func convertInvertedCMYKToRGBA(_ row: UnsafeMutablePointer<UInt8>, width: Int) {
        for x in 0..<width {
            let pixel = row + x * 4
            let k = UInt32(pixel[3])
            pixel[0] = UInt8((UInt32(pixel[0]) * k + 127) / 255)
            pixel[1] = UInt8((UInt32(pixel[1]) * k + 127) / 255)
            pixel[2] = UInt8((UInt32(pixel[2]) * k + 127) / 255)
            pixel[3] = 255
        }
    }
}
