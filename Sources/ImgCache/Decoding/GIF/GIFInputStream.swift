#if canImport(Glibc)
import Glibc
#endif

/// The bytes giflib reads through its input function: a memory range or a `FILE *`, read forward
/// only. It notes when a read came up short, which is how the decoder tells a truncated file from
/// a malformed one.
final class GIFInputStream {
    private let input: SourceInput
    private var offset = 0
    /// True once a read returned fewer bytes than asked for: the data ended.
    private(set) var endedEarly = false

    init(_ input: SourceInput) {
        self.input = input
    }

    /// Copies up to `count` bytes into `buffer` and returns how many were copied.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var copied = 0
        switch input {
        case .memory(let bytes):
            copied = max(0, min(count, bytes.count - offset))
            if copied > 0, let base = bytes.baseAddress {
                UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: copied)
            }
            offset += copied
        case .file(let file):
            copied = fread(buffer, 1, count, file)
        }
        if copied < count { endedEarly = true }
        return copied
    }
}
