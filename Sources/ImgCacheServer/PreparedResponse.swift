import Glibc
import Synchronization

/// A response ready for MHD's threads: status checked, framing headers left out, file opened.
/// A handler's response is prepared on the task that delivers it; an immediate handler's on
/// the MHD thread that answers, which then opens its file (as an event-loop server does).
struct PreparedResponse: Sendable {
    enum Body: Sendable {
        case bytes([UInt8])
        case file(OpenFile)
    }

    /// Headers the HTTP library writes itself from the body; the handler's are not sent.
    private static let framingHeaders = ["content-length", "transfer-encoding"]

    /// Whether `name` is one of `framingHeaders`, in any case (without making a lower-cased copy).
    private static func isFraming(_ name: String) -> Bool {
        framingHeaders.contains { framing in
            name.utf8.count == framing.utf8.count
                && zip(name.utf8, framing.utf8).allSatisfy { byte, lower in
                    ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == lower
                }
        }
    }

    let status: Int
    let headers: HTTPHeaders
    let body: Body
    /// The handler's `HTTPResponse.note`.
    private(set) var note: String?

    /// Bytes of the body (sent unless the request is HEAD).
    var bodyByteCount: Int {
        switch body {
        case .bytes(let bytes): return bytes.count
        case .file(let file): return Int(clamping: file.size)
        }
    }

    /// `response` prepared; a 500 when its file cannot be opened.
    init(_ response: HTTPResponse) {
        switch Self.prepare(response) {
        case .success(let prepared): self = prepared
        case .failure(let error): self.init(text: 500, "cannot open the response's file: \(error.reason)")
        }
    }

    /// `response` prepared; nil when its file cannot be opened.
    init?(ifItsFileOpens response: HTTPResponse) {
        guard case .success(let prepared) = Self.prepare(response) else { return nil }
        self = prepared
    }

    private static func prepare(_ response: HTTPResponse) -> Result<PreparedResponse, OpenFile.Failure> {
        guard (200...599).contains(response.status) else {
            return .success(PreparedResponse(text: 500, "the handler answered status \(response.status), not 200...599"))
        }
        let headers = HTTPHeaders(response.headers.fields.filter { !isFraming($0.name) })
        var prepared: PreparedResponse
        switch response.body {
        case .bytes(let bytes):
            prepared = PreparedResponse(status: response.status, headers: headers, body: .bytes(bytes))
        case .file(let path):
            switch OpenFile.open(path: path) {
            case .success(let file): prepared = PreparedResponse(status: response.status, headers: headers, body: .file(file))
            case .failure(let error): return .failure(error)
            }
        }
        prepared.note = response.note
        return .success(prepared)
    }

    /// A one-line plain-text response (`HTTPResponse.text`).
    init(text status: Int, _ line: String, headers: HTTPHeaders = HTTPHeaders()) {
        let response = HTTPResponse.text(status: status, line, headers: headers)
        self.init(status: response.status, headers: response.headers, body: .bytes(Self.bytes(of: response.body)))
    }

    private init(status: Int, headers: HTTPHeaders, body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    private static func bytes(of body: HTTPResponse.Body) -> [UInt8] {
        if case .bytes(let bytes) = body { return bytes }
        return []
    }
}

/// An open regular file whose descriptor is handed to MHD (which closes it when the response is
/// done), or closed here when it never is.
final class OpenFile: Sendable {
    /// Why a file could not be opened, as `strerror` says.
    struct Failure: Error {
        let reason: String
    }

    let size: UInt64
    private let descriptor: Mutex<Int32?>

    private init(descriptor: Int32, size: UInt64) {
        self.descriptor = Mutex(descriptor)
        self.size = size
    }

    deinit {
        if let descriptor = descriptor.withLock({ $0 }) {
            close(descriptor)
        }
    }

    /// Opens `path` for reading; fails unless it is a regular file. Opened without blocking (a
    /// FIFO never stalls the caller) and left so: reads of a regular file ignore `O_NONBLOCK`,
    /// `sendfile`'s included. Two system calls (`open`, `fstat`).
    static func open(path: String) -> Result<OpenFile, Failure> {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(Failure(reason: String(cString: strerror(errno)))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            return .failure(Failure(reason: reason))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .failure(Failure(reason: "not a regular file"))
        }
        return .success(OpenFile(descriptor: descriptor, size: UInt64(status.st_size)))
    }

    /// The descriptor, once: the caller owns it from now on.
    func take() -> Int32? {
        descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
    }
}
