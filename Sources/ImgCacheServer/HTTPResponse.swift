/// What a handler answers: a status, headers and a body. The server adds `Content-Length` (and
/// `Date`); a `Content-Length` or `Transfer-Encoding` among `headers` is not sent.
public struct HTTPResponse: Sendable, Hashable {
    /// Where the body's bytes come from.
    public enum Body: Sendable, Hashable {
        /// Bytes in memory (copied once, into the HTTP library).
        case bytes([UInt8])
        /// A regular file, opened when the handler returns and sent from its descriptor with
        /// `sendfile` (no copy through Swift). The file can be removed once the handler has
        /// returned: the open descriptor keeps its bytes. One that cannot be opened is answered
        /// 500.
        case file(path: String)
    }

    /// The status code, 200...599 (anything else is answered 500).
    public var status: Int
    /// Sent in order, names as written. Values with CR, LF or other control characters are
    /// refused by the HTTP library and the response becomes a 500.
    public var headers: HTTPHeaders
    /// For HEAD the body is not sent, but its length is, as `Content-Length`.
    public var body: Body
    /// A word for the server's response observer (an access log's cache outcome, say); never
    /// sent. Default nil.
    public var note: String?

    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .bytes([]), note: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.note = note
    }

    /// A body of one line of plain text (`text/plain; charset=utf-8`), as every error the server
    /// makes itself: `line` with every line break (CR, LF and the others) replaced by a space, then
    /// "\n".
    public static func text(status: Int, _ line: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var all = headers
        all.set(name: "Content-Type", value: "text/plain; charset=utf-8")
        let flat = line.map { $0.isNewline ? " " : $0 }
        return HTTPResponse(status: status, headers: all, body: .bytes(Array((String(flat) + "\n").utf8)))
    }
}
