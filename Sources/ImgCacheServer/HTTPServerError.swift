/// Why an `HTTPServer` did not start.
public struct HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address asked for.
    public var address: NetworkAddress
    /// libmicrohttpd's message, e.g. "Failed to bind to port 8080: Address already in use".
    public var reason: String

    public var description: String {
        "cannot listen on \(address): \(reason)"
    }
}
