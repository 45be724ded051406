import Foundation

extension RedisConfiguration {
    /// Parses a Redis URL, every other setting at its default:
    /// - `redis://[[username]:password@]host[:port][/db]`: one server (port 6379 by default);
    /// - `redis-cluster://[[username]:password@]host:port[,host:port...]`: a Redis Cluster reached
    ///   through these seed nodes (at most 64; database 0).
    /// - `redis-sentinel://[[username]:password@]host[:port][,host[:port]...]/MASTER_NAME[/db]`: the
    ///   master that these sentinels name (see `init(sentinelURL:)`).
    ///
    /// Username and password are percent-decoded.
    /// - Throws: `invalidArgument` for another scheme, an empty host, a port out of 1...65535, a
    ///   database out of 0...15 (any but none for a cluster), or a query or fragment.
    public init(url text: String) throws {
        let scheme = text.prefix { $0 != ":" }.lowercased()
        switch scheme {
        case "redis": try self.init(serverURL: text)
        case "redis-cluster": try self.init(clusterURL: text)
        case "redis-sentinel": try self.init(sentinelURL: text)
        default:
            throw ImgCacheError.invalidArgument("'\(text)': the scheme must be redis://, redis-cluster:// or redis-sentinel://")
        }
    }

    /// `redis://[[username]:password@]host[:port][/db]`.
    private init(serverURL text: String) throws {
        guard let components = URLComponents(string: text) else {
            throw ImgCacheError.invalidArgument("'\(text)' is not a redis:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ImgCacheError.invalidArgument("'\(text)': the Redis URL names no host")
        }
        guard components.query == nil, components.fragment == nil else {
            throw ImgCacheError.invalidArgument("'\(text)': a Redis URL takes no query or fragment")
        }
        let path = components.percentEncodedPath.drop { $0 == "/" }
        guard path.isEmpty || (path.count <= 2 && path.allSatisfy(\.isASCII) && path.allSatisfy(\.isNumber)),
              components.percentEncodedPath.filter({ $0 == "/" }).count <= 1
        else {
            throw ImgCacheError.invalidArgument("'\(text)': the database must be a number from 0 to 15")
        }
        try self.init(host: host, port: components.port ?? 6379, database: Int(path) ?? 0)
        username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
    }

    /// `redis-cluster://[[username]:password@]host:port[,host:port...][/]`.
    private init(clusterURL text: String) throws {
        let (credentials, addresses, path) = try Self.split(text, scheme: "redis-cluster")
        guard path.isEmpty || path == "/" else {
            throw ImgCacheError.invalidArgument("'\(text)': a Redis Cluster URL takes no database, query or fragment")
        }
        try self.init(deployment: .cluster(seeds: RedisAddress.list(addresses, defaultPort: 6379, in: text)))
        (username, password) = try Self.credentials(credentials, in: text)
    }

    /// The parts of `scheme://[credentials@]addresses[rest]`: the credentials (nil without an
    /// `@`), the addresses (up to the first `/`, `?` or `#`), and the rest from there.
    static func split(_ text: String, scheme: String) throws -> (credentials: Substring?, addresses: Substring, rest: Substring) {
        let prefix = scheme + "://"
        guard text.lowercased().hasPrefix(prefix) else {
            throw ImgCacheError.invalidArgument("'\(text)': the scheme must be \(prefix)")
        }
        let afterScheme = text.dropFirst(prefix.count)
        let authorityEnd = afterScheme.firstIndex { "/?#".contains($0) } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return (nil, authority, afterScheme[authorityEnd...]) }
        return (authority[..<at], authority[authority.index(after: at)...], afterScheme[authorityEnd...])
    }

    /// The username (nil when empty) and password of `[username][:password]`, percent-decoded.
    /// - Throws: `invalidArgument` naming `url` when either is not valid percent-encoding.
    static func credentials(_ text: Substring?, in url: String) throws -> (username: String?, password: String?) {
        guard let text else { return (nil, nil) }
        let refused = ImgCacheError.invalidArgument("'\(url)': the user name or password is not valid percent-encoding")
        let colon = text.firstIndex(of: ":")
        guard let username = String(colon.map { text[..<$0] } ?? text).removingPercentEncoding else { throw refused }
        var password: String?
        if let colon {
            guard let decoded = String(text[text.index(after: colon)...]).removingPercentEncoding else { throw refused }
            password = decoded
        }
        return (username.isEmpty ? nil : username, password)
    }
}
