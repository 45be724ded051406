import Foundation

extension RedisConfiguration {
    /// The sentinels' port when a `redis-sentinel://` URL names none.
    public static let defaultSentinelPort = 26379
    /// The longest master name a `redis-sentinel://` URL may give, in bytes.
    static let maximumMasterNameBytes = 255

    /// Parses `redis-sentinel://[[username]:password@]host[:port][,host[:port]...]/MASTER_NAME[/db]`:
    /// up to 64 sentinels (port 26379 by default), asked in turn for the master named
    /// MASTER_NAME (percent-decoded). The username and password are the master's (sent with AUTH
    /// on every connection to it); the sentinels are asked without them.
    /// - Throws: `invalidArgument` for a malformed sentinel list, a missing or malformed master
    ///   name, a database out of 0...15, or a query or fragment.
    init(sentinelURL text: String) throws {
        let (credentials, addresses, rest) = try Self.split(text, scheme: "redis-sentinel")
        guard !rest.contains("?"), !rest.contains("#") else {
            throw ImgCacheError.invalidArgument("'\(text)': a Redis Sentinel URL takes no query or fragment")
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        // `rest` starts with its "/": parts are "", the name and the database when there is one.
        guard parts.count == 2 || parts.count == 3, parts[0].isEmpty, !parts[1].isEmpty else {
            throw ImgCacheError.invalidArgument(
                "'\(text)': a Redis Sentinel URL ends with /MASTER_NAME or /MASTER_NAME/db")
        }
        guard let masterName = String(parts[1]).removingPercentEncoding, Self.isMasterName(masterName) else {
            throw ImgCacheError.invalidArgument(
                "'\(text)': the master name must be 1 to \(Self.maximumMasterNameBytes) bytes without spaces or control characters")
        }
        var database = 0
        if parts.count == 3 {
            guard (1...2).contains(parts[2].count), parts[2].allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(parts[2]), (0...15).contains(number)
            else { throw ImgCacheError.invalidArgument("'\(text)': the database must be a number from 0 to 15") }
            database = number
        }
        let sentinels = try RedisAddress.list(addresses, defaultPort: Self.defaultSentinelPort, in: text)
        try self.init(deployment: .sentinel(sentinels: sentinels, masterName: masterName), database: database)
        (username, password) = try Self.credentials(credentials, in: text)
    }

    /// True for a master name of 1 to `maximumMasterNameBytes` bytes without white space or
    /// control characters (Sentinel's own configuration splits at spaces).
    static func isMasterName(_ name: String) -> Bool {
        (1...maximumMasterNameBytes).contains(name.utf8.count)
            && !name.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }
    }
}
