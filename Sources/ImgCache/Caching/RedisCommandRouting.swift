import Foundation

/// What the shared tier sends its round trips through: one server's connection pool
/// (`RedisClient`) or a cluster's slot router (`RedisClusterRouter`). An implementation never
/// fails its caller: a round trip that cannot be run returns nil within the configured time-outs.
protocol RedisCommandRouting: Sendable {
    /// True when every key lives on one server, so that one round trip may touch keys of any
    /// hash slot (the tier then sends its counters with other commands).
    var isSingleServer: Bool { get }

    /// Runs `commands` in one round trip on the server that holds `slotKey` (every key of the
    /// commands must share its hash slot; nil for commands without a key, such as PING) and
    /// returns their replies; nil when they could not be run.
    func run(_ commands: [[Data]], slotKey: String?) -> [RedisReply]?

    /// Closes the connections; every later `run` returns nil at once.
    func close()
}

extension RedisConfiguration {
    /// The router for this configuration's deployment; `log` receives one warning per outage.
    /// The configuration must be valid.
    func makeRouting(log: (@Sendable (String) -> Void)?) -> any RedisCommandRouting {
        switch deployment {
        case .server(let address): RedisClient(address: address, configuration: self, log: log)
        case .cluster(let seeds): RedisClusterRouter(seeds: seeds, configuration: self, log: log)
        case .sentinel(let sentinels, let masterName):
            RedisSentinelClient(sentinels: sentinels, masterName: masterName, configuration: self, log: log)
        }
    }
}
