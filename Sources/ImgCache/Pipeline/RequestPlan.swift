import Foundation

/// A request resolved against the pipeline's configuration: target pixels and scale, decoding
/// options, and the cache keys of the original and of the variant. Making one checks everything
/// a request can get wrong before any cache or network is touched.
struct RequestPlan: Sendable {
    let request: ImageRequest
    let pixels: PixelSize?
    let scale: Double
    let options: DecodingOptions
    let originalKey: String
    let variantKey: String
    /// What runs on the resampled frames: the request's processors, then the padding of `.pad`
    /// and the request's background (imgproxy's order: filters, extend, flatten).
    let processors: ProcessorChain

    /// - Throws: `invalidURL` for a scheme other than http, https or file; `refusedURL` for a
    ///   host the loader's `allowedHosts` does not list (whether or not the image is cached);
    ///   `invalidArgument` for a header `HTTPHeaderField` refuses, a quality outside 1...100, a
    ///   byte cap below 1, a palette outside 2...256 colours or an option out of its range.
    init(_ request: ImageRequest, _ configuration: ImagePipeline.Configuration) throws {
        try Self.checkURL(request.url, loading: configuration.loading)
        try HTTPHeaderField.check(request.headers, of: "request")
        _ = try VariantEncoder(request) // checks the qualities, the byte cap and the encoder controls
        try request.processorChain.validate()
        let resolved = try request.target?.resolve()
        self.request = request
        pixels = resolved?.pixels
        scale = resolved?.scale ?? 1
        var options = DecodingOptions(
            targetSize: resolved?.pixels, sourceRegion: request.sourceRegion, contentMode: request.contentMode,
            gravity: request.gravity, allowsUpscaling: request.allowsUpscaling, maxFrames: request.maxFrames ?? configuration.maxFrames,
            frameBudgetBytes: request.frameBudgetBytes ?? configuration.frameBudgetBytes,
            limits: configuration.limits, colorPolicy: request.colorPolicy)
        // A still format keeps one frame: decoding more would be thrown away.
        if request.outputFormat.isStill { options.maxFrames = 1 }
        try options.validate()
        self.options = options
        originalKey = Self.originalKey(for: request, configuration)
        variantKey = VariantKey.make(
            url: originalKey, pixels: pixels, options: options, format: request.outputFormat, quality: request.quality,
            maxBytes: request.maxBytes, controls: request.encoderControls, background: request.background, processors: request.processorChain, scale: scale)
        processors = ProcessorChain(processors: request.frameProcessors(targetPixels: pixels))
    }

    /// `image` through `processors` (as decoded when there are none).
    func process(_ image: DecodedImage) throws -> DecodedImage {
        guard !processors.processors.isEmpty else { return image }
        return try processors.apply(
            to: image, context: ImageProcessingContext(scale: scale, targetSize: pixels), limits: options.limits)
    }

    /// The original's cache key: the caller's own key, else the URL after the key policy; then
    /// the values of the headers named in `keyHeaders` (the request's, else the loader
    /// configuration's; names in lower case, in order), so that an origin that answers
    /// differently by a header has an original per value.
    static func originalKey(for request: ImageRequest, _ configuration: ImagePipeline.Configuration) -> String {
        var key = request.cacheKey.map(CacheKey.originalKey(custom:)) ?? configuration.keyPolicy.key(for: request.url)
        for name in Set(request.keyHeaders.map { $0.lowercased() }).sorted() {
            let value = [request.headers, configuration.loading.headers].lazy
                .compactMap { headers in headers.first { $0.key.lowercased() == name }?.value }.first ?? ""
            key += CacheKey.originalKey(custom: " header:\(name)=\(value)")
        }
        return key
    }

    /// What identical requests in flight share one preparation by: the variant's key and the
    /// request's policies (a reload never joins a cached lookup).
    var workKey: String { "\(variantKey) \(request.cachePolicy.rawValue) \(request.storage.rawValue)" }

    /// The request for the original, whose bytes must be an image.
    var originalRequest: OriginalRequest {
        OriginalRequest(
            url: request.url, key: originalKey, headers: request.headers, policy: request.cachePolicy,
            storage: request.storage, requiresImage: true)
    }

    /// `image` encoded in the requested format under the request's byte cap, and that format (see
    /// `VariantEncoder`); under `ColorPolicy.keep` a JPEG, PNG or WebP carries the source's RGB
    /// profile (GIF cannot).
    func encode(_ image: DecodedImage) throws -> (data: Data, format: ImageFormat) {
        try VariantEncoder(request, iccProfile: image.info.colorProfile.embeddedBytes(under: options.colorPolicy)).encode(image)
    }

    /// Throws `invalidURL` unless `url` is http, https or file (files are read only when the
    /// loader allows them), and `refusedURL` for an http(s) host `allowedHosts` does not list or,
    /// with `refusesPrivateAddresses`, for a host written as an address that is not public (a
    /// cached image of it is refused as its download would be; a name is checked by the loader
    /// when it resolves it).
    static func checkURL(_ url: URL, loading: DataLoader.Configuration) throws {
        guard let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw ImgCacheError.invalidURL(url.absoluteString)
        }
        guard scheme != "file" else { return }
        if loading.allowedHosts != nil, let reason = try URLPolicy(allowedHosts: loading.allowedHosts).refusal(for: url) {
            throw ImgCacheError.refusedURL(url: url.absoluteString, reason: reason)
        }
        guard loading.refusesPrivateAddresses, let host = url.host,
              let address = IPAddress(literal: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))),
              let range = address.nonPublicRange,
              !(try HostPatterns(loading.allowedPrivateHosts, setting: "allowed private host").matches(url))
        else { return }
        throw ImgCacheError.refusedURL(url: url.absoluteString, reason: "\(address) is not a public address (\(range))")
    }
}
