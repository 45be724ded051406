import Foundation

/// A cache file held open for as long as it is read, so that another process's sweep that removes
/// it meanwhile cannot take its bytes away: on Linux a file stays readable through an open
/// descriptor after it is unlinked, and `/proc/self/fd/N` opens that same file again.
final class OpenedFile: Sendable {
    private let handle: FileHandle

    /// Opens `url` for reading; nil when it is gone (removed since it was looked up).
    init?(_ url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        self.handle = handle
    }

    /// The file's bytes as a decoder source, readable while this object lives.
    var source: ImageSource { .file(path: "/proc/self/fd/\(handle.fileDescriptor)") }

    private var path: String { "/proc/self/fd/\(handle.fileDescriptor)" }

    /// All the file's bytes.
    func read() throws -> Data {
        try Self.read(URL(fileURLWithPath: path))
    }

    /// The bytes of the cache file at `url`, or an `io` error naming it.
    static func read(_ url: URL) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw ImgCacheError.io(path: url.path, detail: "cannot read: \(error.localizedDescription)")
        }
    }

    /// True when the file holds exactly `data`, read a mebibyte at a time (so that the file is
    /// never held whole beside it).
    func hasSameBytes(as data: Data) throws -> Bool {
        do {
            let mine = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? mine.close() }
            var offset = data.startIndex
            while true {
                let chunk = try mine.read(upToCount: 1 << 20) ?? Data()
                let end = data.index(offset, offsetBy: chunk.count, limitedBy: data.endIndex) ?? data.endIndex
                guard chunk.elementsEqual(data[offset..<end]) else { return false }
                offset = end
                if chunk.isEmpty { return offset == data.endIndex }
            }
        } catch {
            throw ImgCacheError.io(path: path, detail: "cannot compare with the stored copy: \(error.localizedDescription)")
        }
    }

    /// True when the file holds the same bytes as the file at `other`, read a mebibyte at a time
    /// from each, so that neither is held whole.
    func hasSameBytes(asFileAt other: String) throws -> Bool {
        do {
            let mine = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? mine.close() }
            let theirs = try FileHandle(forReadingFrom: URL(fileURLWithPath: other))
            defer { try? theirs.close() }
            while true {
                let chunk = try mine.read(upToCount: 1 << 20) ?? Data()
                guard chunk == (try theirs.read(upToCount: 1 << 20) ?? Data()) else { return false }
                if chunk.isEmpty { return true }
            }
        } catch {
            throw ImgCacheError.io(path: other, detail: "cannot compare with the stored copy: \(error.localizedDescription)")
        }
    }
}
