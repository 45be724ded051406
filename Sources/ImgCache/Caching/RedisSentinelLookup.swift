import Foundation
import Synchronization

/// Finds a Sentinel-managed master: asks the sentinels in turn `SENTINEL get-master-addr-by-name`
/// (each on a connection of its own, within the connect and command time-outs; no AUTH, database
/// 0), and the first address named that answers `ROLE` with `master` (on a connection with the
/// master's password and database) wins. A sentinel that does not answer, does not know the name
/// or names a node that is down or a replica (a sentinel that has not seen a failover yet) is
/// passed over for the next. The sentinel that named the master last is asked first next time, so
/// that a sentinel that is down costs a lookup its time-outs only until another one answers.
final class RedisSentinelLookup: Sendable {
    let masterName: String
    private let sentinels: [(address: RedisAddress, resolver: RedisHostResolver)]
    /// The master's configuration: its password and database for the `ROLE` check.
    private let configuration: RedisConfiguration
    /// The sentinels': no credentials, database 0.
    private let sentinelConfiguration: RedisConfiguration
    /// The index in `sentinels` of the one asked first.
    private let firstAsked = Mutex(0)

    /// The longest host name a sentinel may name.
    static let maximumHostBytes = 255

    /// A lookup through `sentinels`, whose names start resolving now, in the background.
    init(sentinels: [RedisAddress], masterName: String, configuration: RedisConfiguration) {
        self.masterName = masterName
        self.sentinels = sentinels.map { ($0, RedisHostResolver(host: $0.host, port: $0.port)) }
        self.configuration = configuration
        var sentinelConfiguration = configuration
        sentinelConfiguration.username = nil
        sentinelConfiguration.password = nil
        sentinelConfiguration.database = 0
        self.sentinelConfiguration = sentinelConfiguration
    }

    /// The master's address. Takes at most, for each sentinel asked, a name resolution, a connect
    /// and a command time-out, and the same again for each distinct node it names.
    /// - Throws: `RedisFailure` listing why each sentinel was passed over.
    func master() throws(RedisFailure) -> RedisAddress {
        var failures: [String] = []
        var failedNodes: [RedisAddress: RedisFailure] = [:]
        let first = firstAsked.withLock { $0 }
        for index in Array(first..<sentinels.count) + Array(0..<first) {
            let sentinel = sentinels[index]
            let address: RedisAddress
            do throws(RedisFailure) {
                address = try ask(sentinel.address, resolver: sentinel.resolver)
            } catch {
                failures.append("sentinel \(sentinel.address): \(error.description)")
                continue
            }
            if failedNodes[address] == nil {
                do throws(RedisFailure) {
                    try checkRole(address)
                    firstAsked.withLock { $0 = index }
                    return address
                } catch {
                    failedNodes[address] = error
                }
            }
            failures.append("sentinel \(sentinel.address) names \(address): \(failedNodes[address]?.description ?? "")")
        }
        throw RedisFailure("no sentinel names a master '\(masterName)' that answers (" + failures.joined(separator: "; ") + ")")
    }

    /// The address one sentinel names for the master.
    private func ask(_ sentinel: RedisAddress, resolver: RedisHostResolver) throws(RedisFailure) -> RedisAddress {
        let connection = try connect(sentinel, resolver: resolver, configuration: sentinelConfiguration)
        let reply = try connection.run([Data("SENTINEL".utf8), Data("get-master-addr-by-name".utf8), Data(masterName.utf8)])
        switch reply {
        case .array(let items):
            guard items.count == 2, case .bytes(let host) = items[0], case .bytes(let port) = items[1],
                  let address = Self.address(host: host, port: port)
            else { throw RedisFailure("not an address: \(Self.describe(reply))") }
            return address
        case .null: throw RedisFailure("knows no master '\(masterName)'")
        case .error(let message): throw RedisFailure("refused: \(message)")
        default: throw RedisFailure("not an address: \(Self.describe(reply))")
        }
    }

    /// Throws unless the node at `address` answers `ROLE` with `master`.
    private func checkRole(_ address: RedisAddress) throws(RedisFailure) {
        let resolver = RedisHostResolver(host: address.host, port: address.port)
        let connection = try connect(address, resolver: resolver, configuration: configuration)
        let reply = try connection.run([Data("ROLE".utf8)])
        guard case .array(let items) = reply, case .bytes(let role)? = items.first else {
            throw RedisFailure("does not answer ROLE: \(Self.describe(reply))")
        }
        guard role == Data("master".utf8) else {
            throw RedisFailure("is a \(String(decoding: role.prefix(16), as: UTF8.self)), not a master")
        }
    }

    private func connect(
        _ address: RedisAddress, resolver: RedisHostResolver, configuration: RedisConfiguration
    ) throws(RedisFailure) -> RedisConnection {
        try RedisConnection(
            addresses: resolver.addresses(timeout: configuration.resolveTimeout), displayURL: address.description,
            configuration: configuration)
    }

    /// The address in a sentinel's reply: a host of printable ASCII without spaces (at most
    /// `maximumHostBytes`) and a port from 1 to 65535; nil for anything else.
    static func address(host: Data, port: Data) -> RedisAddress? {
        guard (1...maximumHostBytes).contains(host.count), host.allSatisfy({ (0x21...0x7E).contains($0) }),
              (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = Int(String(decoding: port, as: UTF8.self)), (1...65_535).contains(number)
        else { return nil }
        return RedisAddress(host: String(decoding: host, as: UTF8.self), port: number)
    }

    /// A reply shortened for a message.
    private static func describe(_ reply: RedisReply) -> String {
        String(String(describing: reply).prefix(120))
    }
}
