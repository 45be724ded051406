/// How a size or a layout that no source gives was estimated, and how far off it may be. Every
/// estimated value carries one, so that it is never shown as if it were measured.
public struct SizeEstimate: Hashable, Sendable {
    /// How the numbers were made.
    public let basis: String
    /// How many pixels, at the target's scale, an edge of the estimate may be off: the worst error
    /// the same method made when each measured table was hidden and estimated from the others
    /// (leave-one-out). Nil when nothing measured is left to check the method against.
    public let expectedErrorPixels: Int?

    /// An estimate made as `basis` says, off by up to `expectedErrorPixels` (nil when unknown).
    public init(basis: String, expectedErrorPixels: Int?) {
        self.basis = basis
        self.expectedErrorPixels = expectedErrorPixels
    }
}
