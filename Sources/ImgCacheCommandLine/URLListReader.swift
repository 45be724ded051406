#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import ImgCache

/// The lines of a URL list (a file, or standard input), read as they are asked for, on a queue
/// of their own so that a slow pipe never holds a Swift concurrency thread. Blank lines and lines
/// starting with '#' are skipped, and each line is trimmed of spaces and tabs. A line longer than
/// `maxLineBytes` (64 KiB by default) is never held: the rest of it is read past, and it comes out
/// as `.tooLong` with its line number.
final class URLListReader: AsyncSequence, @unchecked Sendable {
    enum Line: Equatable, Sendable {
        case source(String, lineNumber: Int)
        case tooLong(lineNumber: Int)
    }

    typealias Element = Line

    /// The longest line taken, in bytes.
    let maxLineBytes: Int
    /// The list's path, or "-" for standard input, for messages.
    let path: String
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "imgcache.url-list")
    // Touched only on `queue`.
    private var buffer = [UInt8](repeating: 0, count: 65_536)
    private var start = 0, end = 0, lineNumber = 0, atEnd = false

    /// Reads `path`, or standard input when it is "-".
    /// - Throws: `ImgCacheError.io` when the file cannot be opened.
    init(path: String, maxLineBytes: Int = 65_536) throws {
        self.path = path
        self.maxLineBytes = maxLineBytes
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ImgCacheError.io(path: path, detail: "cannot read the URL list: \(String(cString: strerror(errno)))")
            }
        }
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let reader: URLListReader

        func next() async throws -> Line? {
            try await withCheckedThrowingContinuation { continuation in
                reader.queue.async { continuation.resume(with: Result { try reader.nextLine() }) }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: self) }

    /// The next line worth prefetching, or nil at the end of the list.
    private func nextLine() throws -> Line? {
        while let line = try readLine() {
            guard case .source(let text, let number) = line else { return line }
            let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r"))
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") { return .source(trimmed, lineNumber: number) }
        }
        return nil
    }

    /// The next raw line, its newline left off.
    private func readLine() throws -> Line? {
        var tooLong = false
        var text: [UInt8] = []
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                if !tooLong { text += buffer[start..<newline] }
                start = newline + 1
                break
            }
            if !tooLong { text += buffer[start..<end] }
            start = end
            if text.count > maxLineBytes { tooLong = true; text = [] }
            guard try fill() else {
                if text.isEmpty && !tooLong { return nil }
                break
            }
        }
        lineNumber += 1
        if tooLong || text.count > maxLineBytes { return .tooLong(lineNumber: lineNumber) }
        return .source(String(decoding: text, as: UTF8.self), lineNumber: lineNumber)
    }

    /// Reads more into the empty buffer; false at the end of the list.
    private func fill() throws -> Bool {
        guard !atEnd else { return false }
        start = 0
        end = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { end = count; return true }
            if count == 0 { atEnd = true; return false }
            guard errno == EINTR else {
                throw ImgCacheError.io(path: path, detail: "cannot read the URL list: \(String(cString: strerror(errno)))")
            }
        }
    }
}
