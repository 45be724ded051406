#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A file held open for reading, as `ImageSource.openFile` reads it: its bytes stay readable
/// through this object for as long as it lives, whatever becomes of its path meanwhile (removed,
/// or replaced by a rename). Its descriptor is closed when the last reference goes, never before,
/// so a source that holds it never reads another file that took the descriptor's number.
public final class OpenFile: Sendable {
    /// The path the file was opened at, for messages: it may name another file by now.
    public let path: String
    private let descriptor: Int32

    /// Opens the file at `path` for reading (a symlink is followed).
    /// - Throws: `ImgCacheError.io` naming `path` when it cannot be opened or is a folder.
    public convenience init(path: String) throws {
        try self.init(path: path, followingSymlinks: true)
    }

    /// Opens the file at `path` for reading; when `followingSymlinks` is false, a symlink is
    /// refused as a file that cannot be opened.
    init(path: String, followingSymlinks: Bool) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (followingSymlinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            throw ImgCacheError.io(path: path, detail: ImageSource.openFailureReason(path))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            throw ImgCacheError.io(path: path, detail: "is a directory")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// A path that opens this same file again, with a read position of its own, for as long as
    /// this object lives (Linux's `/proc/self/fd/N`); use it only while holding the object.
    var reopeningPath: String { "/proc/self/fd/\(descriptor)" }

    /// Up to `count` bytes from the start of the file, read without moving any read position.
    func prefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + total, count - total, off_t(total)) }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else {
                throw ImgCacheError.io(path: path, detail: "cannot read: \(String(cString: strerror(errno)))")
            }
            if read == 0 { break }
            total += read
        }
        return Array(bytes.prefix(total))
    }

    /// Calls `body` with a new `FILE *` on this file from its first byte, which no other reader
    /// moves, closed when `body` returns.
    func withStream<Result>(_ body: (UnsafeMutablePointer<FILE>) throws -> Result) throws -> Result {
        try withExtendedLifetime(self) {
            guard let stream = fopen(reopeningPath, "rb") else {
                throw ImgCacheError.io(path: path, detail: "cannot open again: \(String(cString: strerror(errno)))")
            }
            defer { fclose(stream) }
            return try body(stream)
        }
    }
}
