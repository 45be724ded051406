/// Decodes HEIC (and other HEIF files libheif reads) with libheif 1.15 (HEVC through libde265):
/// the primary image, grids and overlays, alpha, `clap`/`irot`/`imir`; depth and auxiliary
/// images are ignored, and an HDR gain map's SDR base image is what is read.
///
/// - Header facts: the container is parsed (`HEIFImageHandle`) and the size checked against the
///   limits, and libheif's memory for the decode against the working memory, before decoding.
/// - Memory: libheif 1.15 decodes a grid only whole (it has no API to decode one tile, added in
///   1.19), so a plain grid of 8-bit HEVC tiles (`HEIFTileGrid`, what phones write) is decoded a
///   row of tiles at a time, each tile as a file of its own (`HEICTileRows`), admitted for
///   `HEICTileRows.workingBytes(for:)`. Any other image is decoded whole to its coded planes
///   (YCbCr at its depth, in the chroma format of its `hvcC`, `HEVCChroma`: no RGB copy), admitted
///   for `workingBytes(for:chroma:size:)`, and its rows are converted to RGBA (`HEIFDecodedImage`) as
///   they stream into the resampler. Overlays, which libheif composes in RGB, are decoded to RGB.
/// - Thumbnails: the smallest embedded thumbnail is decoded instead when every target comes out
///   of it at the size it would from the full image without upscaling, and its aspect agrees with
///   the image's (imgproxy's ENFORCE_THUMBNAIL rule); never for a region, or without transforms.
/// - Geometry: libheif applies the transforms itself (none with `appliesOrientation` false); a
///   grid decoded by tiles has its `irot`/`imir` applied to the resampled outputs, and reported
///   as `ImageInfo.orientation`.
/// - Colour: an embedded ICC profile, else `nclx` primaries, as `DecodingOptions.colorPolicy` says.
/// - Alpha: premultiplied alpha (as the file says) is divided out before resampling.
enum HEICDecoder {
    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        try SourceBytes.with(input, format: .heic) { bytes in
            let primary = try HEIFImageHandle.primary(of: bytes)
            return ImageInspection(format: .heic, size: primary.size(transformed: true), colorProfile: complete ? primary.colorProfile : .none)
        }
    }

    /// Bytes a pixel libheif 1.15 holds while decoding beside the planes it returns (its tile
    /// decoding and the compressed data), as measured on phone-like grids of 512x512 tiles: peak
    /// memory grows by about 5 bytes a pixel for 8-bit 4:2:0, of which 1.5 are the planes.
    static let decodingBytesPerPixel = 3.5

    /// Bytes libheif holds to decode `handle` in `chroma` (nil: unknown, decoded to RGB): its
    /// planes at the coded depth and alpha, or interleaved 8-bit RGB(A) and the planes it is made
    /// from, and `decodingBytesPerPixel`.
    static func workingBytes(for handle: HEIFImageHandle, chroma: HEVCChroma?, size: PixelSize) -> Int {
        let sampleBytes = Double(handle.bitsPerSample > 8 ? 2 : 1)
        let alpha = handle.hasAlpha ? 1.0 : 0
        let planes = chroma.map { sampleBytes * ($0.samplesPerPixel + alpha) } ?? (sampleBytes * (3 + alpha) + 3 + alpha)
        let perPixel = planes + decodingBytesPerPixel
        let bytes = Double(size.area) * perPixel
        return bytes < Double(Int.max) ? Int(bytes) : Int.max
    }

    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try SourceBytes.with(input, format: .heic) { bytes in
            let options = targets[0]
            let transformed = options.appliesOrientation
            let primary = try HEIFImageHandle.primary(of: bytes)
            let size = primary.size(transformed: transformed)
            try options.limits.check(width: size.width, height: size.height, format: .heic)
            let geometries = try targets.map { try $0.geometry(forStoredSize: size, orientation: .up) }
            var info = ImageInfo(format: .heic, sourceSize: size, colorProfile: primary.colorProfile)
            let thumbnail = transformed ? coveringThumbnail(of: primary, size: size, targets: targets, geometries: geometries) : nil
            if thumbnail == nil, let grid = try tileGrid(of: bytes, primary: primary, size: size, transformed: transformed) {
                info.orientation = grid.orientation
                try decodeTiles(grid, of: bytes, targets: targets, info: info, onFrame: onFrame)
                return info
            }
            let source = thumbnail?.handle ?? primary
            let decodedSize = thumbnail?.size ?? size
            let chroma = HEVCChroma(bytes)
            try options.limits.checkWorkingMemory(bytes: workingBytes(for: source, chroma: chroma, size: decodedSize), for: decodedSize)
            let image = try source.decode(chroma: chroma, transformed: transformed)
            guard image.size == decodedSize else {
                throw ImgCacheError.corruptImage(format: .heic, detail: "the decoded image is \(image.size), not the \(decodedSize) of the headers")
            }
            let resampler = RowResampler(
                inputSize: decodedSize, geometries: thumbnail?.geometries ?? geometries, inputIsOpaque: !image.hasAlpha)
            let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
            let row = UnsafeMutablePointer<UInt8>.allocate(capacity: decodedSize.width * 4)
            defer { row.deallocate() }
            for y in 0..<decodedSize.height where !resampler.isComplete {
                image.rgbaRow(y, premultiplied: source.isAlphaPremultiplied, into: row)
                colorTransform?.apply(to: row, width: decodedSize.width)
                resampler.push(row: row)
            }
            for (index, bitmap) in resampler.finish().enumerated() {
                try onFrame(index, ImageFrame(bitmap: bitmap), info)
            }
            return info
        }
    }

    /// The primary image as a grid to decode a row of tiles at a time (`HEIFTileGrid`), its
    /// orientation `.up` unless `transformed`; nil when libheif should decode it whole.
    private static func tileGrid(
        of bytes: UnsafeRawBufferPointer, primary: HEIFImageHandle, size: PixelSize, transformed: Bool
    ) throws -> HEIFTileGrid? {
        guard !primary.hasAlpha, primary.bitsPerSample == 8, let grid = try HEIFTileGrid(HEIFContainer(bytes)) else { return nil }
        let orientation = transformed ? grid.orientation : .up
        guard (orientation.swapsAxes ? grid.outputSize.transposed : grid.outputSize) == size else { return nil }
        return transformed ? grid : grid.withoutOrientation
    }

    /// Decodes `grid` a row of tiles at a time (`HEICTileRows`), once its working memory is admitted.
    private static func decodeTiles(
        _ grid: HEIFTileGrid, of bytes: UnsafeRawBufferPointer, targets: [DecodingOptions], info: ImageInfo, onFrame: TargetFrameHandler
    ) throws {
        let options = targets[0]
        try options.limits.checkWorkingMemory(bytes: HEICTileRows.workingBytes(for: grid), for: grid.outputSize)
        let geometries = try targets.map { try $0.geometry(forStoredSize: grid.outputSize, orientation: grid.orientation) }
        let resampler = RowResampler(inputSize: grid.outputSize, geometries: geometries, inputIsOpaque: true)
        var profile = info.colorProfile
        try HEICTileRows(grid: grid, bytes: bytes).push(into: resampler, colorTransform: profile.transformToSRGB(policy: options.colorPolicy))
        for (index, bitmap) in resampler.finish().enumerated() {
            try onFrame(index, ImageFrame(bitmap: bitmap.oriented(grid.orientation)), info)
        }
    }

    /// The smallest thumbnail that `covers` every target; nil when none does, or a target keeps a region.
    private static func coveringThumbnail(
        of primary: HEIFImageHandle, size: PixelSize, targets: [DecodingOptions], geometries: [ResizeGeometry]
    ) -> (handle: HEIFImageHandle, size: PixelSize, geometries: [ResizeGeometry])? {
        guard targets.allSatisfy({ $0.sourceRegion == nil }) else { return nil }
        let candidates = primary.thumbnails().map { ($0, $0.size(transformed: true)) }.sorted { $0.1.area < $1.1.area }
        for (handle, thumbnailSize) in candidates {
            if let covering = Self.geometries(ofThumbnail: thumbnailSize, image: size, targets: targets, geometries: geometries) {
                return (handle, thumbnailSize, covering)
            }
        }
        return nil
    }

    /// The targets' geometries on a thumbnail of `thumbnail` size, when it covers them: smaller
    /// than the `image`, of its aspect to within two of its pixels (thumbnails are rounded, then
    /// their sides made even), and holding, without upscaling, the part each target keeps at the
    /// output size it has from the image (`geometries`), which it then keeps; nil otherwise.
    static func geometries(
        ofThumbnail thumbnail: PixelSize, image: PixelSize, targets: [DecodingOptions], geometries: [ResizeGeometry]
    ) -> [ResizeGeometry]? {
        guard thumbnail.width > 0, thumbnail.height > 0, thumbnail.area < image.area,
              abs(thumbnail.width * image.height - thumbnail.height * image.width) <= 2 * max(image.width, image.height)
        else { return nil }
        var covering: [ResizeGeometry] = []
        for (options, geometry) in zip(targets, geometries) {
            var exact = options
            exact.targetSize = geometry.outputSize
            exact.contentMode = .crop
            exact.allowsUpscaling = false
            guard let onThumbnail = try? exact.geometry(forStoredSize: thumbnail, orientation: .up),
                  onThumbnail.outputSize == geometry.outputSize, onThumbnail.reductionFactor >= 1
            else { return nil }
            covering.append(onThumbnail)
        }
        return covering
    }
}
