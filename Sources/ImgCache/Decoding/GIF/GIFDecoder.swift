/// Decodes GIF with giflib's sequential API, compositing frames the way browsers do, and stops
/// reading the file after the last frame kept: the LZW data of later frames is never touched.
///
/// - Canvas: starts transparent black, never filled with the background colour; see `GIFCompositor`
///   for disposal (none, background = clear to transparent, previous = restore).
/// - Frames kept: `options.framesToKeep` at the output size, and no more frames than keep the sum of
///   their canvas pixels within `limits.maxTotalPixels` (at least one). Each kept frame is the whole
///   composited canvas, resampled to the target and handed to `onFrame` at once; none is held after.
///   The canvas itself (width x height x 4 bytes, within `maxPixelsPerFrame`) lives for the decode.
/// - Limits: the canvas is checked before it is allocated (a zero side is corrupt), and every frame
///   descriptor is checked against `maxPixelsPerFrame` before its pixels are read.
/// - Frames partly outside the canvas are clipped; a frame wholly outside it, or with a zero side,
///   draws nothing but still counts as a frame with its delay. Rows of a non-interlaced frame below
///   the canvas are skipped without decoding.
/// - Delays are the stored hundredths of a second (see `ImageFrame.displayDelaySeconds` for how
///   browsers show 0 and 1). The first NETSCAPE2.0 or ANIMEXTS1.0 loop count read is `loopCount`.
/// - Palettes: see `GIFPalette` (out-of-range indices are transparent; no colour table: grey ramp).
/// - Damage: an LZW end code before a frame's last pixel ends that frame (rows not received stay
///   as they were, the row in progress is not drawn) and decoding goes on. After at least one frame,
///   the data may end, or stop being GIF, where a record should start: the image ends there, as in
///   browsers (the trailer is optional). Data that ends inside a record is a truncated file: an
///   error, unless `acceptsTruncatedData`, when the frames read are returned, the frame in progress
///   included if at least one of its rows was decoded, with `isTruncated` set. Any other giflib
///   error is `corruptImage` with giflib's message.
enum GIFDecoder {
    static func decode(_ input: SourceInput, options: DecodingOptions, onFrame: FrameHandler) throws -> ImageInfo {
        try decode(input, targets: [options]) { _, frame, info in try onFrame(frame, info) }
    }

    /// Decodes once for several targets (which share their limits and flags): each composited
    /// frame is resampled for every target that keeps it, and reading stops after the last frame
    /// any target keeps.
    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        let options = targets[0]
        let reader = try GIFReader(input)
        let canvas = reader.canvasSize
        // The canvas, and at most as much again saved for a frame that restores what was under it.
        let plan = try AnimationPlan(canvas: canvas, targets: targets, format: .gif)

        var info = ImageInfo(format: .gif, sourceSize: canvas)
        var compositor = GIFCompositor(size: canvas)
        var control = GIFGraphicControl.none
        var delivered = 0
        var rowsInProgress = 0
        func deliverFrame() throws {
            let (keeping, resampler) = plan.resampler(forFrame: delivered)
            compositor.render(into: resampler)
            for (index, bitmap) in zip(keeping, resampler.finish()) {
                try onFrame(index, ImageFrame(bitmap: bitmap, delayCentiseconds: control.delayCentiseconds), info)
            }
            delivered += 1
        }

        do {
            reading: while delivered < plan.framesToRead {
                switch try reader.nextRecord() {
                case .extension(let block):
                    if let blockControl = block.graphicControl { control = blockControl }
                    if info.loopCount == nil { info.loopCount = block.loopCount }
                case .image:
                    let header = try reader.readImageHeader()
                    if header.width > 0 && header.height > 0 {
                        try options.limits.check(width: header.width, height: header.height, format: .gif)
                    }
                    compositor.begin(header, disposal: control.disposal)
                    rowsInProgress = 0
                    let palette = reader.palette(transparentIndex: control.transparentIndex)
                    try readPixels(header, from: reader, palette: palette, into: &compositor, rowsRead: &rowsInProgress)
                    rowsInProgress = 0
                    try deliverFrame()
                    compositor.dispose()
                    control = .none
                case .trailer:
                    break reading
                case .endOfData where delivered > 0, .unrecognized where delivered > 0:
                    break reading
                case .endOfData:
                    throw ImgCacheError.corruptImage(format: .gif, detail: "data ends before the first image (truncated file)")
                case .unrecognized:
                    throw ImgCacheError.corruptImage(format: .gif, detail: "unknown block type before the first image")
                }
            }
        } catch let error as ImgCacheError where reader.dataEnded {
            guard options.acceptsTruncatedData, delivered > 0 || rowsInProgress > 0 else { throw error }
            info.isTruncated = true
            if rowsInProgress > 0 { try deliverFrame() }
        }
        guard delivered > 0 else {
            throw ImgCacheError.corruptImage(format: .gif, detail: "the file holds no image")
        }
        return info
    }

    /// Reads the canvas size, counts the frames and finds the first loop count without decoding any
    /// pixels: each frame's LZW data is skipped block by block, unchecked. Reading is bounded by the
    /// file and nothing is allocated per frame. As in `decode`, the data may end or stop being GIF
    /// where a record should start once a frame was seen; data that ends inside a record throws.
    static func inspect(_ input: SourceInput) throws -> (canvas: PixelSize, frameCount: Int, loopCount: Int?) {
        let reader = try GIFReader(input)
        let canvas = reader.canvasSize
        guard canvas.width > 0, canvas.height > 0 else {
            throw ImgCacheError.corruptImage(format: .gif, detail: "zero image dimension (\(canvas))")
        }
        var frameCount = 0
        var loopCount: Int?
        reading: while true {
            switch try reader.nextRecord() {
            case .extension(let block):
                if loopCount == nil { loopCount = block.loopCount }
            case .image:
                _ = try reader.readImageHeader()
                try reader.skipImageData()
                frameCount += 1
            case .trailer, .endOfData, .unrecognized:
                break reading
            }
        }
        guard frameCount > 0 else { throw ImgCacheError.corruptImage(format: .gif, detail: "the file holds no image") }
        return (canvas, frameCount, loopCount)
    }

    /// Decodes the frame's rows onto the canvas, counting them in `rowsRead`. A frame that lands
    /// nowhere on the canvas, and the rows of a non-interlaced frame below it, are skipped undecoded.
    private static func readPixels(
        _ header: GIFReader.ImageHeader, from reader: GIFReader, palette: GIFPalette,
        into compositor: inout GIFCompositor, rowsRead: inout Int
    ) throws {
        guard compositor.frameIsVisible else { return try reader.skipImageData() }
        var line = [UInt8](repeating: 0, count: header.width)
        try line.withUnsafeMutableBufferPointer { line in
            for index in 0..<header.height {
                let row = header.isInterlaced ? interlacedRow(index, height: header.height) : index
                if !header.isInterlaced && !compositor.isVisible(row: row) { return try reader.skipImageData() }
                guard try reader.readRow(into: line.baseAddress!, width: header.width) else { return }
                compositor.draw(row: row, indices: line.baseAddress!, palette: palette)
                rowsRead += 1
            }
        }
    }

    /// The frame row that the `index`-th row stored by an interlaced frame of `height` rows lands on:
    /// pass 1 holds rows 0, 8, 16..., pass 2 rows 4, 12..., pass 3 rows 2, 6..., pass 4 rows 1, 3...
    static func interlacedRow(_ index: Int, height: Int) -> Int {
        var index = index
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            let rows = height > start ? (height - start + step - 1) / step : 0
            if index < rows { return start + index * step }
            index -= rows
        }
        return index
    }
}
