import CHeif

/// An image of a HEIF file read by libheif (the primary, or one of its thumbnails), with its
/// context: the container parsed, nothing decoded.
final class HEIFImageHandle {
    /// The context, shared by the primary and its thumbnails (freed with the last of them).
    private final class Context {
        let pointer: OpaquePointer
        init(_ pointer: OpaquePointer) { self.pointer = pointer }
        deinit { heif_context_free(pointer) }
    }

    private let context: Context
    let handle: OpaquePointer

    private init(context: Context, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
    }

    deinit { heif_image_handle_release(handle) }

    /// The primary image of the file in `bytes` (which must outlive it and its thumbnails).
    /// - Throws: `corruptImage` with libheif's message when the file cannot be parsed.
    static func primary(of bytes: UnsafeRawBufferPointer) throws -> HEIFImageHandle {
        guard let pointer = heif_context_alloc() else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "libheif cannot allocate a context")
        }
        let context = Context(pointer)
        try check(heif_context_read_from_memory_without_copy(pointer, bytes.baseAddress, bytes.count, nil), while: "parsing the container")
        var handle: OpaquePointer?
        try check(heif_context_get_primary_image_handle(pointer, &handle), while: "finding the primary image")
        guard let handle else { throw ImgCacheError.corruptImage(format: .heic, detail: "the file has no primary image") }
        return HEIFImageHandle(context: context, handle: handle)
    }

    /// The size shown, after `clap`, `irot` and `imir` (with `transformed`), else the coded `ispe` size.
    func size(transformed: Bool) -> PixelSize {
        transformed
            ? PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            : PixelSize(width: Int(heif_image_handle_get_ispe_width(handle)), height: Int(heif_image_handle_get_ispe_height(handle)))
    }

    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }
    var isAlphaPremultiplied: Bool { heif_image_handle_is_premultiplied_alpha(handle) != 0 }
    var bitsPerSample: Int { Int(max(heif_image_handle_get_luma_bits_per_pixel(handle), 8)) }

    /// The embedded ICC profile (`prof`, `rICC`), else the `nclx` colour (`NCLXColor`).
    var colorProfile: SourceColorProfile {
        let type = heif_image_handle_get_color_profile_type(handle)
        if type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC {
            var bytes = [UInt8](repeating: 0, count: heif_image_handle_get_raw_color_profile_size(handle))
            guard !bytes.isEmpty, heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else {
                return .malformed(reason: "libheif cannot read the ICC profile")
            }
            return SourceColorProfile(iccBytes: bytes, imageColorSpace: .rgb)
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return .none }
        defer { heif_nclx_color_profile_free(nclx) }
        return NCLXColor(
            colorPrimaries: Int(nclx.pointee.color_primaries.rawValue),
            transferCharacteristics: Int(nclx.pointee.transfer_characteristics.rawValue)).sourceProfile
    }

    /// The image's thumbnails (each with its own transforms applied by libheif).
    func thumbnails() -> [HEIFImageHandle] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id in
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else { return nil }
            return HEIFImageHandle(context: context, handle: thumbnail)
        }
    }

    /// The `nclx` matrix and range that turn the coded YCbCr into RGB; without an `nclx` box
    /// libheif's defaults, BT.601 at full range (what iPhones write).
    var ycbcrMatrix: YCbCrMatrix {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else {
            return YCbCrMatrix(matrixCoefficients: 6, fullRange: true)
        }
        defer { heif_nclx_color_profile_free(nclx) }
        return YCbCrMatrix(matrixCoefficients: Int(nclx.pointee.matrix_coefficients.rawValue), fullRange: nclx.pointee.full_range_flag != 0)
    }

    /// Decodes the image as it is coded, `chroma` (planar YCbCr or monochrome at its depth, with
    /// its alpha plane: libheif converts no colour and holds no RGB copy), with its transforms
    /// applied when `transformed`. An image of unknown chroma, or one libheif only gives as RGB
    /// (an overlay), is decoded to interleaved 8-bit RGB(A), 10- and 12-bit samples rounded by libheif.
    func decode(chroma: HEVCChroma?, transformed: Bool) throws -> HEIFDecodedImage {
        guard let options = heif_decoding_options_alloc() else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "libheif cannot allocate decoding options")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = transformed ? 0 : 1
        options.pointee.convert_hdr_to_8bit = 1
        if let chroma {
            let planes: [HEVCChroma: (heif_colorspace, heif_chroma)] = [
                .monochrome: (heif_colorspace_monochrome, heif_chroma_monochrome), .yuv420: (heif_colorspace_YCbCr, heif_chroma_420),
                .yuv422: (heif_colorspace_YCbCr, heif_chroma_422), .yuv444: (heif_colorspace_YCbCr, heif_chroma_444),
            ]
            var image: OpaquePointer?
            let (colorspace, format) = planes[chroma]!
            try Self.check(heif_decode_image(handle, &image, colorspace, format, options), while: "decoding the image")
            guard let image else { throw ImgCacheError.corruptImage(format: .heic, detail: "libheif returned no image") }
            if let planar = HEIFDecodedImage(planar: image, matrix: ycbcrMatrix) { return planar }
            heif_image_release(image)
        }
        var rgb: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try Self.check(heif_decode_image(handle, &rgb, heif_colorspace_RGB, chroma, options), while: "decoding the image")
        guard let rgb else { throw ImgCacheError.corruptImage(format: .heic, detail: "libheif returned no image") }
        return try HEIFDecodedImage(interleaved: rgb, channels: hasAlpha ? 4 : 3)
    }

    /// Decodes the image as stored (no transforms) to planar 8-bit RGB, the way libheif 1.15
    /// converts each tile of a grid it composes.
    func decodeRGBPlanes() throws -> HEIFDecodedImage {
        guard let options = heif_decoding_options_alloc() else {
            throw ImgCacheError.corruptImage(format: .heic, detail: "libheif cannot allocate decoding options")
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 1
        var image: OpaquePointer?
        try Self.check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_444, options), while: "decoding a tile")
        guard let image else { throw ImgCacheError.corruptImage(format: .heic, detail: "libheif returned no image") }
        guard let planes = HEIFDecodedImage(planar: image, matrix: ycbcrMatrix) else {
            heif_image_release(image)
            throw ImgCacheError.corruptImage(format: .heic, detail: "libheif returned a tile that is not 8-bit RGB")
        }
        return planes
    }

    /// Throws `corruptImage` with libheif's message for an error other than OK.
    static func check(_ error: heif_error, while doing: String) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        throw ImgCacheError.corruptImage(format: .heic, detail: "\(message) while \(doing)")
    }
}

