/// What `DiskCache.verify(repair:)` found when it compared the index with the files in data/.
public struct CacheVerifyReport: Sendable, Equatable {
    /// A row whose file exists with another size than recorded.
    public struct SizeMismatch: Sendable, Equatable {
        /// The key of the row.
        public var key: String
        /// The row's file name under data/.
        public var fileName: String
        /// The size the row records.
        public var indexedBytes: Int
        /// The size of the file on disk.
        public var fileBytes: Int
    }

    /// Rows checked.
    public var checkedEntries: Int
    /// Files found in data/ under names the cache gives (32 hex digits and an extension); other
    /// names there are not the cache's, and are neither counted nor removed.
    public var checkedFiles: Int
    /// Keys of rows whose file is missing (or is a symlink or folder rather than a file).
    public var missingFiles: [String]
    /// Names the cache gives, in data/, that no row refers to.
    public var orphanFiles: [String]
    /// Rows whose file exists with another size than recorded.
    public var sizeMismatches: [SizeMismatch]
    /// Paths of the cache's temporary files left in tmp/ by writers that have ended (or an hour old).
    public var staleTemporaryFiles: [String]
    /// True when the problems found were fixed: rows without a usable file and mismatched rows and
    /// files removed, orphans and stale temporary files deleted.
    public var repaired: Bool

    /// True when every row has its file at the recorded size and every file has its row.
    public var isConsistent: Bool { missingFiles.isEmpty && orphanFiles.isEmpty && sizeMismatches.isEmpty }

    /// Number of inconsistencies (stale temporary files are not counted: they are not in data/).
    public var issueCount: Int { missingFiles.count + orphanFiles.count + sizeMismatches.count }
}
