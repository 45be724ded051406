import CAVIF
import Foundation

/// One libavif decoder over the whole of an AVIF file in memory, its headers parsed (no pixel is
/// decoded until `nextImage()`): what is known of the primary image or sequence from the container.
///
/// libavif's MIAF strictness checks are off, so that real-world files the spec's letter refuses
/// (a missing `pixi`, a `clap` with odd offsets on subsampled chroma) are read as other decoders
/// read them (`HEIFTransform.cleanAperture`); a `clap` that keeps no pixel inside the image is ignored.
final class AVIFSession {
    /// Owns the libavif decoder, so that it is destroyed even when `init` throws half-way.
    private final class Owner {
        let decoder: UnsafeMutablePointer<avifDecoder>
        init(_ decoder: UnsafeMutablePointer<avifDecoder>) { self.decoder = decoder }
        deinit { avifDecoderDestroy(decoder) }
    }

    private let owner: Owner
    private var decoder: UnsafeMutablePointer<avifDecoder> { owner.decoder }
    /// The coded size of each image.
    let codedSize: PixelSize
    /// The part of the coded image shown (`clap`, when transforms are applied), in coded pixels.
    let crop: PixelRect
    /// `irot` and `imir` as an orientation (`.up` when transforms are not applied).
    let orientation: ImageOrientation
    /// Images in the file: 1 for a still, the frames of an `avis` sequence.
    let imageCount: Int
    let hasAlpha: Bool
    /// The embedded ICC profile, else the `nclx` colour.
    let colorProfile: SourceColorProfile

    /// Parses the container of `bytes` (which must outlive the session).
    /// - Throws: `corruptImage` with libavif's reason when the file cannot be parsed.
    init(_ bytes: UnsafeRawBufferPointer, appliesTransforms: Bool) throws {
        guard let decoder = avifDecoderCreate() else {
            throw ImgCacheError.corruptImage(format: .avif, detail: "libavif cannot create a decoder")
        }
        owner = Owner(decoder)
        decoder.pointee.strictFlags = avifStrictFlags(AVIF_STRICT_DISABLED.rawValue)
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        decoder.pointee.maxThreads = Int32(min(4, ProcessInfo.processInfo.activeProcessorCount))
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try Self.check(avifDecoderSetIOMemory(decoder, data, bytes.count), decoder, while: "reading the file")
        try Self.check(avifDecoderParse(decoder), decoder, while: "parsing the container")
        let image = decoder.pointee.image!.pointee
        codedSize = PixelSize(width: Int(image.width), height: Int(image.height))
        imageCount = Int(decoder.pointee.imageCount)
        hasAlpha = decoder.pointee.alphaPresent != AVIF_FALSE
        colorProfile = image.icc.size > 0
            ? SourceColorProfile(iccBytes: Array(UnsafeBufferPointer(start: image.icc.data, count: image.icc.size)), imageColorSpace: .rgb)
            : NCLXColor(colorPrimaries: Int(image.colorPrimaries), transferCharacteristics: Int(image.transferCharacteristics)).sourceProfile
        var crop = PixelRect(x: 0, y: 0, width: codedSize.width, height: codedSize.height)
        var orientation = ImageOrientation.up
        if appliesTransforms {
            let flags = image.transformFlags
            if flags & avifTransformFlags(AVIF_TRANSFORM_CLAP.rawValue) != 0 {
                let clap = image.clap
                func signed(_ value: UInt32) -> Int { Int(Int32(bitPattern: value)) }
                crop = HEIFTransform.cleanAperture(
                    width: (Int(clap.widthN), Int(clap.widthD)), height: (Int(clap.heightN), Int(clap.heightD)),
                    horizontalOffset: (signed(clap.horizOffN), Int(clap.horizOffD)), verticalOffset: (signed(clap.vertOffN), Int(clap.vertOffD)),
                    coded: codedSize) ?? crop
            }
            let rotates = flags & avifTransformFlags(AVIF_TRANSFORM_IROT.rawValue) != 0
            let mirrors = flags & avifTransformFlags(AVIF_TRANSFORM_IMIR.rawValue) != 0
            orientation = HEIFTransform.orientation(
                quarterTurns: rotates ? Int(image.irot.angle) : 0, mirrorMode: mirrors ? Int(image.imir.mode) : nil)
        }
        self.crop = crop
        self.orientation = orientation
    }

    /// The size shown: the crop, turned by the orientation.
    var displayedSize: PixelSize { orientation.swapsAxes ? crop.size.transposed : crop.size }

    /// Makes the AV1 decoder refuse frames of more than `pixels` (dav1d's frame size limit),
    /// whatever the container says. The container itself is parsed with libavif's own limit
    /// (16384 x 16384 pixels, past which a file is `corruptImage`), so that `limits` report sizes below it.
    func limitDecodedPixels(to pixels: Int) {
        decoder.pointee.imageSizeLimit = min(decoder.pointee.imageSizeLimit, UInt32(clamping: pixels))
    }

    /// Decodes the next image (the first on the first call) and returns it, owned by the decoder
    /// until the next call, with its duration in seconds (0 for a still).
    func nextImage(index: Int) throws -> (image: UnsafeMutablePointer<avifImage>, duration: Double) {
        try Self.check(avifDecoderNextImage(decoder), decoder, while: "decoding image \(index + 1) of \(imageCount)")
        guard let image = decoder.pointee.image else {
            throw ImgCacheError.corruptImage(format: .avif, detail: "libavif returned no image \(index + 1) of \(imageCount)")
        }
        guard Int(image.pointee.width) == codedSize.width, Int(image.pointee.height) == codedSize.height else {
            throw ImgCacheError.corruptImage(
                format: .avif, detail: "image \(index + 1) is \(image.pointee.width)x\(image.pointee.height), not the \(codedSize) the container says")
        }
        return (image, decoder.pointee.imageTiming.duration)
    }

    /// Throws `corruptImage` with libavif's words for a result other than OK.
    private static func check(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>, while doing: String) throws {
        guard result != AVIF_RESULT_OK else { return }
        let detail = withUnsafeBytes(of: decoder.pointee.diag.error) { buffer in
            String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        }
        let reason = String(cString: avifResultToString(result)) + (detail.isEmpty ? "" : " (\(detail))")
        throw ImgCacheError.corruptImage(format: .avif, detail: "\(reason) while \(doing)")
    }
}
