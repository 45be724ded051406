import CPNG

/// Decodes PNG with libpng: every colour type and bit depth, Adam7, palette and tRNS to alpha,
/// 16-bit to 8-bit by the high byte. The colour chunks (iCCP, sRGB, gAMA and cHRM: see
/// `PNGColorChunks`) convert the rows to sRGB as the options' colour policy says; text chunks are
/// skipped unread. Non-interlaced rows stream into the
/// resampler one at a time; an interlaced image is held whole (within the pixel limit) since Adam7
/// fills rows over seven passes. APNG animation chunks are ignored: the default image is decoded.
enum PNGDecoder {
    /// What one decode did: what it learned of the source, and how much of it was held at once.
    struct Report {
        var info: ImageInfo
        /// Bytes of the largest buffer of source-resolution pixels held: one row when rows
        /// stream, the whole image for Adam7.
        var largestSourceBuffer: Int
    }

    static func decode(
        _ input: SourceInput, options: DecodingOptions, onFrame: FrameHandler
    ) throws -> ImageInfo {
        try decodeReporting(input, options: options, onFrame: onFrame).info
    }

    /// Decodes like `decode` and tells how.
    static func decodeReporting(
        _ input: SourceInput, options: DecodingOptions, onFrame: FrameHandler
    ) throws -> Report {
        try decode(input, targets: [options]) { _, frame, info in try onFrame(frame, info) }
    }

    /// Decodes once for several targets (which share their limits and flags): each row feeds
    /// every target's resampler.
    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> Report {
        let options = targets[0]
        let reader = try PNGReader(input)
        let header = try reader.readHeader()
        let stored = PixelSize(width: Int(header.width), height: Int(header.height))
        try options.limits.check(width: stored.width, height: stored.height, format: .png)
        let layout = try reader.setLayout(IMGPNG_RGBA8)
        // Adam7 fills rows over seven passes: the whole image is held.
        if layout.passes > 1 { try options.limits.checkWorkingMemory(bytesPerPixel: 4, for: stored) }
        let resampler = RowResampler(
            inputSize: stored, geometries: try targets.map { try $0.geometry(forStoredSize: stored, orientation: .up) })
        var info = ImageInfo(format: .png, sourceSize: stored, colorProfile: try reader.colorProfile(header))
        let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
        let largestSourceBuffer: Int
        if layout.passes > 1 {
            largestSourceBuffer = layout.rowBytes * stored.height
            var image = [UInt8](repeating: 0, count: largestSourceBuffer)
            var rowsRead = 0
            info.isTruncated = try image.withUnsafeMutableBufferPointer { image in
                let base = image.baseAddress!
                let truncated = try readAllowingTruncation(options: options, rowsRead: { rowsRead }) {
                    try reader.readImage(into: base, height: stored.height, layout: layout, rowsRead: &rowsRead)
                    try reader.readEnd()
                }
                for y in 0..<stored.height where !resampler.isComplete {
                    colorTransform?.apply(to: base + y * layout.rowBytes, width: stored.width)
                    resampler.push(row: base + y * layout.rowBytes)
                }
                return truncated
            }
        } else {
            largestSourceBuffer = layout.rowBytes
            var row = [UInt8](repeating: 0, count: layout.rowBytes)
            info.isTruncated = try row.withUnsafeMutableBufferPointer { row in
                try readAllowingTruncation(options: options, rowsRead: { resampler.inputRowIndex }) {
                    while !resampler.isComplete {
                        try reader.readRow(into: row.baseAddress!)
                        colorTransform?.apply(to: row.baseAddress!, width: stored.width)
                        resampler.push(row: row.baseAddress!)
                    }
                    // A crop that ends above the last row leaves the rest of the file unread.
                    if resampler.inputRowIndex == stored.height { try reader.readEnd() }
                }
            }
        }
        for (index, bitmap) in resampler.finish().enumerated() { try onFrame(index, ImageFrame(bitmap: bitmap), info) }
        return Report(info: info, largestSourceBuffer: largestSourceBuffer)
    }

    /// Runs `read`, and returns whether it stopped early: when it fails after some rows arrived and
    /// the options accept truncated data, the failure is reported as truncation instead of thrown.
    private static func readAllowingTruncation(
        options: DecodingOptions, rowsRead: () -> Int, _ read: () throws -> Void
    ) throws -> Bool {
        do {
            try read()
            return false
        } catch let error as ImgCacheError {
            guard options.acceptsTruncatedData, rowsRead() > 0, case .corruptImage = error else { throw error }
            return true
        }
    }

    /// Decodes the whole image in libpng's expanded layout (channels as stored, palette expanded,
    /// tRNS to alpha, 16-bit to 8-bit), the layout of the PngSuite CRC references.
    static func decodeExpanded(_ source: ImageSource, limits: DecodingLimits = DecodingLimits()) throws
        -> (size: PixelSize, channels: Int, pixels: [UInt8])
    {
        try source.withInput { input in
            let reader = try PNGReader(input)
            let header = try reader.readHeader()
            let size = PixelSize(width: Int(header.width), height: Int(header.height))
            try limits.check(width: size.width, height: size.height, format: .png)
            let layout = try reader.setLayout(IMGPNG_EXPANDED8)
            var pixels = [UInt8](repeating: 0, count: layout.rowBytes * size.height)
            var rowsRead = 0
            try pixels.withUnsafeMutableBufferPointer { pixels in
                try reader.readImage(into: pixels.baseAddress!, height: size.height, layout: layout, rowsRead: &rowsRead)
            }
            try reader.readEnd()
            return (size, layout.channels, pixels)
        }
    }
}
