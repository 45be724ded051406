import CAVIF

/// Decodes AVIF with libavif 0.11 (AV1 through dav1d): stills, grids, alpha (straight or
/// premultiplied, as the file says), 10- and 12-bit samples rounded to 8, and `avis` sequences.
/// libavif reads the whole file from memory: a file input is mapped read-only (`SourceBytes`).
///
/// - Header facts: the container is parsed first (`AVIFSession`) and the size is checked against
///   the limits, and the decoded planes against the working memory, before any AV1 is decoded.
/// - Geometry: `clap`, then `irot` and `imir` as an orientation, as JPEG's EXIF orientation is
///   (none of them with `appliesOrientation` false).
/// - Rows are converted to RGBA a chunk at a time (`AVIFRows`) and streamed into the resampler.
/// - Colour: an embedded ICC profile, else the `nclx` primaries (`NCLXColor`), as
///   `DecodingOptions.colorPolicy` says.
/// - Sequences: the frames `AnimationPlan` keeps, each with its duration, none decoded after the
///   last kept; they loop forever (libavif 0.11 reads no repetition count), as browsers play them.
///   Sequences are shown uncropped and unturned.
enum AVIFDecoder {
    /// Bytes of decoded planes held per coded pixel at most: three 16-bit planes and alpha.
    static let planeBytesPerPixel = 8

    static func inspect(_ input: SourceInput, complete: Bool) throws -> ImageInspection {
        try SourceBytes.with(input, format: .avif) { bytes in
            let session = try AVIFSession(bytes, appliesTransforms: true)
            let isSequence = session.imageCount > 1
            return ImageInspection(
                format: .avif, size: isSequence ? session.codedSize : session.displayedSize,
                orientation: isSequence ? .up : session.orientation, frameCount: complete ? session.imageCount : 1,
                loopCount: complete && isSequence ? 0 : nil, colorProfile: complete ? session.colorProfile : .none)
        }
    }

    static func decode(_ input: SourceInput, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        try SourceBytes.with(input, format: .avif) { bytes in
            let options = targets[0]
            let session = try AVIFSession(bytes, appliesTransforms: options.appliesOrientation)
            let coded = session.codedSize
            try options.limits.check(width: coded.width, height: coded.height, format: .avif)
            try options.limits.checkWorkingMemory(bytesPerPixel: planeBytesPerPixel, for: coded)
            session.limitDecodedPixels(to: options.limits.maxPixelsPerFrame)
            return session.imageCount > 1
                ? try decodeSequence(session, targets: targets, onFrame: onFrame)
                : try decodeStill(session, targets: targets, onFrame: onFrame)
        }
    }

    private static func decodeStill(_ session: AVIFSession, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        let options = targets[0]
        let crop = session.crop
        let orientation = session.orientation
        let geometries = try targets.map { try $0.geometry(forStoredSize: crop.size, orientation: orientation) }
        var info = ImageInfo(format: .avif, sourceSize: session.displayedSize, orientation: orientation, colorProfile: session.colorProfile)
        let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
        let (image, _) = try session.nextImage(index: 0)
        let resampler = RowResampler(inputSize: crop.size, geometries: geometries, inputIsOpaque: !session.hasAlpha)
        try AVIFRows.forEach(of: image, rows: crop.y..<crop.maxY, columns: crop.x..<crop.maxX) { row in
            colorTransform?.apply(to: row, width: crop.width)
            resampler.push(row: row)
            return !resampler.isComplete
        }
        for (index, bitmap) in resampler.finish().enumerated() {
            try onFrame(index, ImageFrame(bitmap: bitmap.oriented(orientation)), info)
        }
        return info
    }

    private static func decodeSequence(_ session: AVIFSession, targets: [DecodingOptions], onFrame: TargetFrameHandler) throws -> ImageInfo {
        let canvas = session.codedSize
        let plan = try AnimationPlan(canvas: canvas, targets: targets, format: .avif)
        var info = ImageInfo(format: .avif, sourceSize: canvas, loopCount: 0, colorProfile: session.colorProfile)
        let colorTransform = info.colorProfile.transformToSRGB(policy: targets[0].colorPolicy)
        for frame in 0..<min(plan.framesToRead, session.imageCount) {
            let (image, duration) = try session.nextImage(index: frame)
            let (keeping, resampler) = plan.resampler(forFrame: frame)
            try AVIFRows.forEach(of: image, rows: 0..<canvas.height, columns: 0..<canvas.width) { row in
                colorTransform?.apply(to: row, width: canvas.width)
                resampler.push(row: row)
                return !resampler.isComplete
            }
            let delay = Int((max(0, duration) * 100).rounded())
            for (index, bitmap) in zip(keeping, resampler.finish()) {
                try onFrame(index, ImageFrame(bitmap: bitmap, delayCentiseconds: delay), info)
            }
        }
        return info
    }
}
