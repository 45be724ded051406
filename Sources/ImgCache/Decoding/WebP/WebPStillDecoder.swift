import CWebP

/// Decodes a still WebP (lossy VP8, lossless VP8L, VP8X with an ALPH chunk) with libwebp over the
/// whole file in memory: non-premultiplied RGBA with fancy upsampling (as dwebp), cropped to the
/// targets' regions and scaled toward the largest target (`WebPStillPlan`), then resampled by the
/// area filter for every target from one pass.
///
/// Data that ends before the image does (or a RIFF size beyond the data) is `corruptImage`,
/// unless `acceptsTruncatedData`: libwebp's incremental decoder then keeps the rows it can decode
/// (the rest transparent) and `isTruncated` is set; a file that ends before its first row is
/// always an error.
enum WebPStillDecoder {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, features: WebPFeatures, targets: [DecodingOptions], onFrame: TargetFrameHandler
    ) throws -> ImageInfo {
        let options = targets[0]
        let size = features.size
        try options.limits.check(width: size.width, height: size.height, format: .webp)
        let geometries = try targets.map { try $0.geometry(forStoredSize: size, orientation: .up) }
        let plan = try checkedPlan(source: size, geometries: geometries, features: features, limits: options.limits)

        let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
        config.initialize(to: WebPDecoderConfig())
        defer { config.deallocate() }
        guard WebPInitDecoderConfig(config) != 0 else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "libwebp's decoder ABI does not match its header")
        }
        configure(&config.pointee, plan: plan, source: size)
        defer { WebPFreeDecBuffer(&config.pointee.output) }
        var info = ImageInfo(format: .webp, sourceSize: size, colorProfile: WebPDecoder.colorProfile(in: bytes))
        let colorTransform = info.colorProfile.transformToSRGB(policy: options.colorPolicy)
        let rowsDecoded = try decodeRows(bytes, config: config, acceptsTruncatedData: options.acceptsTruncatedData, info: &info)
        let pixels = config.pointee.output.u.RGBA.rgba!
        let stride = Int(config.pointee.output.u.RGBA.stride)

        let resampler = RowResampler(
            inputSize: plan.decodedSize, geometries: plan.geometries, inputIsOpaque: features.isLossy && !features.hasAlpha)
        for row in 0..<rowsDecoded where !resampler.isComplete {
            colorTransform?.apply(to: pixels + row * stride, width: plan.decodedSize.width)
            resampler.push(row: pixels + row * stride)
        }
        for (index, bitmap) in resampler.finish().enumerated() {
            try onFrame(index, ImageFrame(bitmap: bitmap), info)
        }
        return info
    }

    /// Decodes into `config.output` (allocated by libwebp) and returns the rows decoded: all of them
    /// with `WebPDecode`; when the data ends early and truncated data is accepted, those the
    /// incremental decoder gets from the data there is (`info.isTruncated` is then set).
    private static func decodeRows(
        _ bytes: UnsafeRawBufferPointer, config: UnsafeMutablePointer<WebPDecoderConfig>, acceptsTruncatedData: Bool,
        info: inout ImageInfo
    ) throws -> Int {
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = WebPDecode(data, bytes.count, config)
        if status == VP8_STATUS_OK { return Int(config.pointee.output.height) }
        guard status == VP8_STATUS_NOT_ENOUGH_DATA else { throw WebPDecoder.error(status, while: "decoding the image") }
        guard acceptsTruncatedData else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "data ends before the image does (truncated file)")
        }
        WebPFreeDecBuffer(&config.pointee.output)
        // The decoder keeps pointers into `config` (its output buffer and options) until deleted;
        // the rows it decodes stay in `config.output`.
        guard let decoder = WebPIDecode(nil, 0, config) else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "libwebp cannot start decoding")
        }
        defer { WebPIDelete(decoder) }
        let incremental = WebPIUpdate(decoder, data, bytes.count)
        guard incremental == VP8_STATUS_OK || incremental == VP8_STATUS_SUSPENDED else {
            throw WebPDecoder.error(incremental, while: "decoding the image")
        }
        var rows: Int32 = 0
        guard WebPIDecGetRGB(decoder, &rows, nil, nil, nil) != nil, rows > 0 else {
            throw ImgCacheError.corruptImage(format: .webp, detail: "data ends before the first row (truncated file)")
        }
        info.isTruncated = incremental == VP8_STATUS_SUSPENDED
        return Int(rows)
    }

    /// The plan for `geometries`, once what libwebp will hold (the decoded region, and a lossless
    /// image whole) is checked against the working memory: when the region decoded at twice the
    /// output is too large, it is decoded at the output size instead.
    private static func checkedPlan(
        source: PixelSize, geometries: [ResizeGeometry], features: WebPFeatures, limits: DecodingLimits
    ) throws -> WebPStillPlan {
        func bytes(_ plan: WebPStillPlan) -> Int {
            let (sum, overflow) = plan.decodedBytes.addingReportingOverflow(features.sourceWorkingBytes)
            return overflow ? Int.max : sum
        }
        var plan = WebPStillPlan(source: source, geometries: geometries)
        if bytes(plan) > limits.maxWorkingBytes && plan.scales {
            plan = WebPStillPlan(source: source, geometries: geometries, oversampling: 1)
        }
        try limits.checkWorkingMemory(bytes: bytes(plan), for: source)
        return plan
    }

    /// Sets the output (RGBA, libwebp-allocated), the crop and the scale of `plan`, and lets libwebp
    /// filter a lossy image on a second thread.
    private static func configure(_ config: inout WebPDecoderConfig, plan: WebPStillPlan, source: PixelSize) {
        config.output.colorspace = MODE_RGBA
        config.options.use_threads = 1
        if plan.crops(source) {
            config.options.use_cropping = 1
            config.options.crop_left = Int32(plan.crop.x)
            config.options.crop_top = Int32(plan.crop.y)
            config.options.crop_width = Int32(plan.crop.width)
            config.options.crop_height = Int32(plan.crop.height)
        }
        if plan.scales {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(plan.decodedSize.width)
            config.options.scaled_height = Int32(plan.decodedSize.height)
        }
    }
}
