#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// How a folder is known for a cache before anything in it is touched: a new cache is made only in
/// a folder that is missing or empty, and is marked twice, by `<root>/CACHEDIR.TAG` (the Cache
/// Directory Tagging file, which backup tools skip, with imgcache's own text) and by the index's
/// SQLite `application_id`. A folder of an earlier imgcache, which has no tag, is known by its
/// index (see `CacheIndex`), then tagged. Any other folder that holds something is refused.
extension CacheFolder {
    /// What `claim()` found.
    enum Claim: Equatable {
        /// The folder holds the tag: it is a cache, or was empty and is one now.
        case tagged
        /// No tag, but an `index.sqlite` that may be an earlier imgcache's: `CacheIndex` decides,
        /// then `tag()` marks the folder.
        case untaggedIndex
    }

    static let tagName = "CACHEDIR.TAG"

    /// The tag's text, compared whole: another program's CACHEDIR.TAG does not make a folder imgcache's.
    static let tagText = """
        Signature: 8a477f597d28d172789f06886806bc55
        # This file is a cache directory tag created by imgcache: this folder is an imgcache disk cache.
        # For information about cache directory tags, see https://bford.info/cachedir/

        """

    /// The index's SQLite `application_id`: "imgc".
    static let applicationID: Int32 = 0x696D_6763

    var tagPath: String { root.path + "/" + Self.tagName }

    /// The error for a folder that is neither empty nor a cache; nothing in it was changed.
    var notACache: ImgCacheError {
        .io(path: root.path, detail: """
            not an imgcache cache, and not empty: nothing in it was changed; give a new or empty folder \
            for the cache, or the folder of an existing imgcache cache
            """)
    }

    /// Creates the root when it is missing (mode 0700, with its parents) and tells whether it is a
    /// cache: tagged (an empty folder is tagged now), or untagged with an index that may be an
    /// earlier imgcache's. Anything else that is not empty is refused with `notACache`, untouched.
    /// Two processes claiming one new folder at once are serialised by a lock on the root.
    func claim() throws -> Claim {
        try Self.makeFolders(root.path)
        if hasTag() { return .tagged }
        return try whileLocked {
            if hasTag() { return .tagged }
            guard let items = Self.list(root.path) else { throw Self.ioError(root.path, "cannot list") }
            if items.isEmpty {
                try writeTag()
                return .tagged
            }
            guard items.contains(where: { $0.name == "index.sqlite" }), indexMayBeImgcaches() else { throw notACache }
            return .untaggedIndex
        }
    }

    /// Writes the tag of a folder that `CacheIndex` found to be an earlier imgcache's; a
    /// CACHEDIR.TAG another program wrote is left as it is.
    func tag() throws {
        try whileLocked {
            guard Self.lstatMode(tagPath) == nil else { return }
            try writeTag()
        }
    }

    /// True when the tag holds imgcache's text.
    private func hasTag() -> Bool {
        let descriptor = open(tagPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let expected = Array(Self.tagText.utf8)
        var bytes = [UInt8](repeating: 0, count: expected.count + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            total += count
        }
        return bytes.prefix(total).elementsEqual(expected)
    }

    /// Creates the tag; the caller holds the root's lock.
    private func writeTag() throws {
        let descriptor = open(tagPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.ioError(tagPath, "cannot create") }
        let text = Array(Self.tagText.utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        let failure = written == text.count ? nil : Self.ioError(tagPath, "cannot write")
        close(descriptor)
        if let failure {
            unlink(tagPath)
            throw failure
        }
    }

    /// True when `index.sqlite` is a regular file that starts as an SQLite database does, with
    /// no application id or imgcache's: a text file or another program's database is not opened.
    private func indexMayBeImgcaches() -> Bool {
        let descriptor = open(indexPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 72)
        guard header.withUnsafeMutableBytes({ pread(descriptor, $0.baseAddress!, $0.count, 0) }) == header.count,
              header.prefix(16).elementsEqual(Array("SQLite format 3\0".utf8))
        else { return false }
        let applicationID = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return applicationID == 0 || applicationID == UInt32(Self.applicationID)
    }

    /// Runs `body` holding an exclusive lock on the root folder. Where the file system has no such
    /// locks, `body` runs unlocked: two processes making one new cache at once may then see each
    /// other's half-made folder and refuse it.
    private func whileLocked<T>(_ body: () throws -> T) throws -> T {
        let descriptor = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.ioError(root.path, "cannot open") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
        return try body()
    }
}
