#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The open form of an `ImageSource` handed to a C decoder: a memory range or a `FILE *`.
enum SourceInput {
    case memory(UnsafeRawBufferPointer)
    case file(UnsafeMutablePointer<FILE>)

    /// The same input from its first byte again (a file is rewound).
    func rewound() -> SourceInput {
        if case .file(let file) = self { rewind(file) }
        return self
    }
}

extension ImageSource {
    /// Opens the source for the duration of `body`: memory stays pinned, a file stays open.
    func withInput<Result>(_ body: (SourceInput) throws -> Result) throws -> Result {
        switch self {
        case .data(let data):
            return try data.withUnsafeBytes { try body(.memory($0)) }
        case .file(let path):
            guard let file = fopen(path, "rb") else {
                throw ImgCacheError.io(path: path, detail: Self.openFailureReason(path))
            }
            defer { fclose(file) }
            return try body(.file(file))
        case .openFile(let file):
            return try file.withStream { try body(.file($0)) }
        }
    }
}
