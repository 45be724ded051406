import Foundation

/// A cache file held open for as long as it is read, so that another process's sweep that removes
/// it meanwhile cannot take its bytes away: on Linux a file stays readable through an open
/// descriptor after it is unlinked.
extension OpenFile {
    /// Opens the cache file at `url`; nil when it is gone (removed since it was looked up) or is
    /// a symlink, which the cache never reads through.
    static func opening(_ url: URL) -> OpenFile? {
        try? OpenFile(path: url.path, followingSymlinks: false)
    }

    /// All the file's bytes.
    func read() throws -> Data {
        try withExtendedLifetime(self) { try Self.read(URL(fileURLWithPath: reopeningPath)) }
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
            return try withExtendedLifetime(self) {
                let mine = try FileHandle(forReadingFrom: URL(fileURLWithPath: reopeningPath))
                defer { try? mine.close() }
                var offset = data.startIndex
                while true {
                    let chunk = try mine.read(upToCount: 1 << 20) ?? Data()
                    let end = data.index(offset, offsetBy: chunk.count, limitedBy: data.endIndex) ?? data.endIndex
                    guard chunk.elementsEqual(data[offset..<end]) else { return false }
                    offset = end
                    if chunk.isEmpty { return offset == data.endIndex }
                }
            }
        } catch {
            throw ImgCacheError.io(path: path, detail: "cannot compare with the stored copy: \(error.localizedDescription)")
        }
    }

    /// True when the file holds the same bytes as the file at `other`, read a mebibyte at a time
    /// from each, so that neither is held whole.
    func hasSameBytes(asFileAt other: String) throws -> Bool {
        do {
            return try withExtendedLifetime(self) {
                let mine = try FileHandle(forReadingFrom: URL(fileURLWithPath: reopeningPath))
                defer { try? mine.close() }
                let theirs = try FileHandle(forReadingFrom: URL(fileURLWithPath: other))
                defer { try? theirs.close() }
                while true {
                    let chunk = try mine.read(upToCount: 1 << 20) ?? Data()
                    guard chunk == (try theirs.read(upToCount: 1 << 20) ?? Data()) else { return false }
                    if chunk.isEmpty { return true }
                }
            }
        } catch {
            throw ImgCacheError.io(path: other, detail: "cannot compare with the stored copy: \(error.localizedDescription)")
        }
    }
}
