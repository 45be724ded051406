/// How a source image is fitted to a target size.
public enum ContentMode: String, Sendable, CaseIterable {
    /// Scale to fit inside the target, keeping the aspect ratio; one side may be shorter than the target.
    case fit
    /// Scale to cover the target, keeping the aspect ratio; one side may be longer than the target.
    case fill
    /// Scale to cover the target, then crop the centre to exactly the target size.
    case crop
}
