import Foundation

/// A stored copy of an original or a variant as a cache tier hands it over: its bytes (in memory,
/// or in a local file held open while the copy or its source lives) and the HTTP metadata stored
/// beside them.
public struct CachedData: Sendable {
    /// The bytes, as a decoder reads them. A local file's source (`.openFile`) holds the file open
    /// itself: it reads these bytes for as long as it lives, after this copy is gone too.
    public let source: ImageSource
    /// The file in a local cache folder that holds the bytes, for callers that serve or copy it;
    /// nil for bytes in memory.
    public let fileURL: URL?
    /// Size of the bytes.
    public let byteCount: Int
    /// The `Content-Type` stored with the bytes, if any.
    public var contentType: String?
    /// The HTTP ETag validator, if any.
    public var etag: String?
    /// The HTTP Last-Modified validator (the header's text), if any.
    public var lastModified: String?
    /// When the copy stops being fresh; nil for never. A tier returns stale copies too: the
    /// pipeline revalidates them.
    public var expiresAt: Date?
    /// The local file `source` reads, held open: readable while a copy of the source lives, whoever
    /// removes it meanwhile; nil for bytes in memory.
    let file: OpenFile?

    /// Bytes in memory with their metadata (each default nil).
    public init(
        data: Data, contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, expiresAt: Date? = nil
    ) {
        source = .data(data)
        fileURL = nil
        byteCount = data.count
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.expiresAt = expiresAt
        file = nil
    }

    /// The bytes of the local file `file` (held open; `fileURL` names it), `byteCount` long.
    init(file: OpenFile, fileURL: URL, byteCount: Int, contentType: String?, etag: String?, lastModified: String?, expiresAt: Date?) {
        source = .openFile(file)
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
        self.expiresAt = expiresAt
        self.file = file
    }

    /// True when `expiresAt` is set and not after `date`.
    public func isExpired(at date: Date = Date()) -> Bool {
        expiresAt.map { $0 <= date } ?? false
    }

    /// The bytes, read from the file when they are in one.
    public func data() throws -> Data {
        switch source {
        case .data(let bytes): return bytes
        case .openFile(let file): return try file.read()
        case .file(let path): return try OpenFile.read(URL(fileURLWithPath: path))
        }
    }

    /// True when `other` holds the same bytes: sizes first, then a file compared a piece at a time
    /// with bytes in memory (no file is read whole for it).
    func hasSameBytes(as other: CachedData) throws -> Bool {
        guard byteCount == other.byteCount else { return false }
        switch (file, other.file) {
        case (let mine?, nil): return try mine.hasSameBytes(as: try other.data())
        case (nil, let theirs?): return try theirs.hasSameBytes(as: try data())
        default: return try data() == other.data()
        }
    }

    /// These bytes with the metadata of `other` (a revalidation's new expiry and validators).
    func withMetadata(of other: CachedData) -> CachedData {
        var copy = self
        copy.contentType = other.contentType ?? contentType
        copy.etag = other.etag ?? etag
        copy.lastModified = other.lastModified ?? lastModified
        copy.expiresAt = other.expiresAt
        return copy
    }
}
