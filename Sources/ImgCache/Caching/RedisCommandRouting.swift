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

    /// The hash tag to put the keys of one image under, given the image's own `tag`: `tag`
    /// itself, except on a cluster while the master of its slot is down (see
    /// `RedisClusterRouter.hashTag(for:)`).
    func hashTag(for tag: String) -> String

    /// The stand-in tag `hashTag(for:)` gave `tag` during an outage that ended within
    /// `RedisClusterRouter.standInLookupPeriod`, nil when it gave `tag` itself or no outage ended
    /// that recently: where the values stored meanwhile are.
    func recentStandInTag(for tag: String) -> String?

    /// Closes the connections; every later `run` returns nil at once.
    func close()
}

extension RedisCommandRouting {
    /// `tag` itself: one server holds every slot.
    func hashTag(for tag: String) -> String { tag }

    /// Nil: one server holds every slot.
    func recentStandInTag(for tag: String) -> String? { nil }
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
