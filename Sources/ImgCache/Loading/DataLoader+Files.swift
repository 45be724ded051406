import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension DataLoader {
    /// The most bytes of a file read at once, between two looks at the deadline: 1 MiB.
    static let fileReadBytes = 1 << 20

    /// Reads a `file://` URL (no host, or localhost) under the byte limit, before `deadline` (the
    /// load's overall time-out from its start).
    ///
    /// Only a regular file is read. The file is opened without waiting (O_NONBLOCK, so that opening
    /// a FIFO returns at once even with no writer), and anything fstat does not call a regular file
    /// (a FIFO, a device such as /dev/zero, a socket, a directory) fails with `io` before a byte is
    /// read. A file over the limit is refused from its size, and one that grows past it while being
    /// read is cut off (`tooLarge`); a read still going at the deadline fails with `timeout`.
    func readFile(_ url: URL, deadline: ContinuousClock.Instant) throws -> DataResponse {
        guard url.host == nil || url.host == "" || url.host == "localhost" else {
            throw ImgCacheError.invalidURL(url.absoluteString)
        }
        let path = url.path
        let limit = configuration.maxBytes
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.fileError(path, "cannot open") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.fileError(path, "cannot stat") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ImgCacheError.io(path: path, detail: "not a regular file but \(Self.kind(of: status.st_mode))")
        }
        if status.st_size > limit { throw ImgCacheError.tooLarge(bytes: Int(clamping: status.st_size), limit: limit) }
        // A regular file's reads wait for the disk as they should (a file system may refuse
        // O_NONBLOCK reads with EAGAIN).
        guard fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK) == 0 else {
            throw Self.fileError(path, "cannot set blocking reads")
        }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(Self.fileReadBytes, limit + 1), alignment: 1)
        defer { chunk.deallocate() }
        var data = Data()
        data.reserveCapacity(Int(status.st_size))
        // One byte past the limit tells a file that grew past it.
        while data.count <= limit {
            guard ContinuousClock.now < deadline else {
                throw ImgCacheError.timeout(url: url.absoluteString, seconds: configuration.overallTimeout)
            }
            let count = read(descriptor, chunk.baseAddress, min(chunk.count, limit + 1 - data.count))
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Self.fileError(path, "cannot read") }
            if count == 0 { break }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
        }
        if data.count > limit { throw ImgCacheError.tooLarge(bytes: data.count, limit: limit) }
        return DataResponse(
            url: url, statusCode: 200, data: data,
            freshness: HTTPFreshness(expires: Date().addingTimeInterval(configuration.defaultTTL)))
    }

    /// `io` for `path`, saying what failed and why (from `errno`).
    private static func fileError(_ path: String, _ what: String) -> ImgCacheError {
        .io(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
    }

    /// What a file that is not a regular one is, from its `st_mode`.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "of another kind"
        }
    }
}
