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

    /// All the file's bytes.
    func read() throws -> Data {
        try ImagePipeline.readStoredFile(URL(fileURLWithPath: "/proc/self/fd/\(handle.fileDescriptor)"))
    }
}
