import Glibc

/// What tells one version of a file from another: device, inode, size and modification time.
/// A stored variant re-rendered, replaced or removed and written again is a new version.
public struct StoredFileVersion: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
    /// The file's size in bytes.
    public let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// The version of the regular file at `path` now (one `stat`); nil when there is none.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = status.st_mtim.tv_sec
        modifiedNanoseconds = status.st_mtim.tv_nsec
    }
}
