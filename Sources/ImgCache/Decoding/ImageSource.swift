import Foundation

/// Where encoded image bytes come from. A file is read in small pieces as the decoder needs them,
/// so decoding a large file does not hold the whole file in memory.
public enum ImageSource: Sendable {
    /// Bytes already in memory.
    case data(Data)
    /// The file at `path`, opened by each decode: what is there then is what is read.
    case file(path: String)
    /// A file already open: the one the source holds, whatever becomes of its path.
    case openFile(OpenFile)

    /// The format, from the magic bytes at the start (see `ImageFormat.sniff`).
    public func sniffFormat() throws -> ImageFormat {
        try ImageFormat.sniff(prefix(ImageFormat.signatureLength))
    }

    /// The first bytes, enough to sniff the format.
    func prefix(_ count: Int) throws -> [UInt8] {
        switch self {
        case .data(let data):
            return Array(data.prefix(count))
        case .file(let path):
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ImgCacheError.io(path: path, detail: Self.openFailureReason(path))
            }
            defer { try? handle.close() }
            do {
                return Array(try handle.read(upToCount: count) ?? Data())
            } catch {
                throw ImgCacheError.io(path: path, detail: "cannot read: \(error.localizedDescription)")
            }
        case .openFile(let file):
            return try file.prefix(count)
        }
    }

    /// Why `path` cannot be opened for reading, in words.
    static func openFailureReason(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) { return "no such file" }
        if isDirectory.boolValue { return "is a directory" }
        return "cannot open for reading"
    }
}
