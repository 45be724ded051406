/// What `ImagePipeline.prepare(_:fallback:)` prepared: the source's variant, or the fallback's in
/// its place with the source's failure.
public struct FallbackSummary: Sendable {
    /// The variant prepared: the source's, or the fallback image's.
    public let summary: ImageSummary
    /// Why the source was not served when the fallback was; nil when the summary is the source's.
    public let sourceFailure: ImgCacheError?

    /// `summary`, the fallback's when `sourceFailure` is given.
    public init(summary: ImageSummary, sourceFailure: ImgCacheError? = nil) {
        self.summary = summary
        self.sourceFailure = sourceFailure
    }

    /// True when the summary is the fallback image's.
    public var isFallback: Bool { sourceFailure != nil }
}
