/// How the shared tier's Redis is deployed: which servers the tier talks to, and how it finds
/// the one that holds a key.
public enum RedisDeployment: Sendable, Hashable {
    /// One server (`redis://`): every key on it.
    case server(RedisAddress)

    /// Every address named, for `validate()`.
    var addresses: [RedisAddress] {
        switch self {
        case .server(let address): [address]
        }
    }
}
