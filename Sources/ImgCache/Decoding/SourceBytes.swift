#if canImport(Glibc)
import Glibc
#endif

/// The whole of a source in memory, as libwebp, libheif and libavif need it: a memory input as it
/// is, a file mapped read-only (never copied). A file that cannot be mapped (a pipe) is read into
/// memory, at most `maxStreamedBytes` of it.
enum SourceBytes {
    /// The most bytes read from a file that cannot be mapped (a pipe, a device): 64 MiB.
    static let maxStreamedBytes = 64 << 20

    /// Calls `body` with every byte of `input`; the bytes stay valid only during the call.
    static func with<Result>(_ input: SourceInput, format: ImageFormat, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        switch input {
        case .memory(let bytes):
            return try body(bytes)
        case .file(let file):
            let descriptor = fileno(file)
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 {
                let length = Int(status.st_size)
                let mapping = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0)
                if let mapping, mapping != MAP_FAILED {
                    defer { munmap(mapping, length) }
                    return try body(UnsafeRawBufferPointer(start: mapping, count: length))
                }
            }
            let bytes = try readToEnd(file, format: format)
            return try bytes.withUnsafeBytes(body)
        }
    }

    /// Every byte of `file` from its start; `corruptImage` past `maxStreamedBytes`.
    private static func readToEnd(_ file: UnsafeMutablePointer<FILE>, format: ImageFormat) throws -> [UInt8] {
        rewind(file)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes.append(contentsOf: chunk.prefix(count))
            if count < chunk.count { return bytes }
            guard bytes.count <= maxStreamedBytes else {
                throw ImgCacheError.corruptImage(
                    format: format, detail: "a \(format.rawValue.uppercased()) read from a stream is limited to \(maxStreamedBytes) bytes")
            }
        }
    }
}
