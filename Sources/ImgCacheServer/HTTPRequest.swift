/// The methods a handler is given: every other method is answered 405 by the server.
public enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET"
    case head = "HEAD"
}

/// A request as the server hands it to its handler: headers read in full, no body (a GET or HEAD
/// that announces one is answered 400 before the handler runs).
public struct HTTPRequest: Sendable, Hashable {
    /// GET or HEAD. A handler answers HEAD like GET: the server sends the headers, with the
    /// `Content-Length` of the body, and no body.
    public var method: HTTPMethod
    /// The request target up to its first "?", exactly as sent: percent-escapes are not decoded,
    /// so a signature over the path can be checked byte for byte. Always starts with "/" (the
    /// server answers 400 to any other form) and holds only visible ASCII.
    public var path: String
    /// The request target after its first "?", as sent (escapes and "+" not decoded); empty when
    /// there is no "?" or nothing follows it.
    public var query: String
    /// The header fields as sent, names lower-cased, values with their surrounding whitespace
    /// removed; bytes that are not UTF-8 read as U+FFFD.
    public var headers: HTTPHeaders
    /// The address of the client at the other end of the connection (with nginx in front, nginx's).
    public var peer: NetworkAddress

    public init(method: HTTPMethod, path: String, query: String = "", headers: HTTPHeaders = HTTPHeaders(), peer: NetworkAddress) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.peer = peer
    }
}
