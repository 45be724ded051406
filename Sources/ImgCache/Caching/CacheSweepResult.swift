/// What a sweep, an expiry pass or a clear removed, and what is left.
public struct CacheSweepResult: Sendable, Equatable {
    /// Entries removed (with their files).
    public var removedCount: Int
    /// Bytes of the files removed.
    public var removedBytes: Int
    /// Entries left in the index.
    public var remainingCount: Int
    /// Bytes of the files left.
    public var remainingBytes: Int

    /// A result with the given counts and bytes, each 0 by default.
    public init(removedCount: Int = 0, removedBytes: Int = 0, remainingCount: Int = 0, remainingBytes: Int = 0) {
        self.removedCount = removedCount
        self.removedBytes = removedBytes
        self.remainingCount = remainingCount
        self.remainingBytes = remainingBytes
    }
}
