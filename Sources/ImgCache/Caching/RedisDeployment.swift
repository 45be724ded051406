/// How the shared tier's Redis is deployed: which servers the tier talks to, and how it finds
/// the one that holds a key.
public enum RedisDeployment: Sendable, Hashable {
    /// One server (`redis://`): every key on it.
    case server(RedisAddress)
    /// A Redis Cluster (`redis-cluster://`): the slot map is read from the first of `seeds` that
    /// answers `CLUSTER SLOTS`, and every command goes to the master of its key's hash slot.
    case cluster(seeds: [RedisAddress])
    /// A master and its replicas watched by Redis Sentinel (`redis-sentinel://`): the master is
    /// the one the first of `sentinels` that answers names for `masterName` (see
    /// `RedisSentinelClient`), found again after it fails or answers `-READONLY`.
    case sentinel(sentinels: [RedisAddress], masterName: String)

    /// Every address named, for `validate()`.
    var addresses: [RedisAddress] {
        switch self {
        case .server(let address): [address]
        case .cluster(let seeds): seeds
        case .sentinel(let sentinels, _): sentinels
        }
    }
}
