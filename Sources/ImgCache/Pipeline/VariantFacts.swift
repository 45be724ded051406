/// A prepared variant and the facts of its pixels (see `ImagePipeline.facts(for:)`).
public struct VariantFacts: Sendable {
    /// The variant: its format, size, bytes, file and cache outcome.
    public let summary: ImageSummary
    /// What its first frame's pixels say.
    public let facts: ImageFacts

    /// The facts of the variant `summary` describes.
    public init(summary: ImageSummary, facts: ImageFacts) {
        self.summary = summary
        self.facts = facts
    }
}
