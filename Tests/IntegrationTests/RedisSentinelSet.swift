import Foundation
import TestSupport

/// A Redis Sentinel set on 127.0.0.1 at free ports: a master, a replica of it, and three
/// sentinels (`redis-server sentinel.conf --sentinel`) watching it as `masterName` with a quorum
/// of 2, a master down after 1 s without an answer and a failover timeout of 5 s, so that a
/// killed master is replaced within a few seconds. Nothing is saved to disk; each process has a
/// temporary folder. Every wait polls the set's state against a deadline (30 s, a bound that only
/// ends a broken run). `stop()` kills them all.
final class RedisSentinelSet {
    static let masterName = "imgcache-test"

    /// The data nodes by port: the master and the replica at first, their roles swapped by a failover.
    private(set) var nodes: [Int: ServerProcess] = [:]
    /// The ports of the data nodes in the order started: the first master, then its replica.
    let nodePorts: [Int]
    let sentinelPorts: [Int]
    private var sentinels: [ServerProcess] = []

    /// Starts the master, the replica (waiting until it is in sync) and the sentinels (waiting
    /// until each knows the replica and the two other sentinels).
    init() throws {
        nodePorts = [try NginxServer.freePort(), try NginxServer.freePort()]
        sentinelPorts = try (0..<3).map { _ in try NginxServer.freePort() }
        do {
            try startNode(nodePorts[0])
            try startNode(nodePorts[1], replicaOf: nodePorts[0])
            try wait("the replica in sync") { try self.cli(self.nodePorts[0], "INFO", "replication").contains("state=online") }
            for port in sentinelPorts { sentinels.append(try Self.startSentinel(port, masterPort: nodePorts[0])) }
            try wait("every sentinel to know the replica and the other sentinels") {
                try self.sentinelPorts.allSatisfy { port in
                    let fields = try self.masterFields(askingSentinel: port)
                    return fields["num-slaves"] == "1" && fields["num-other-sentinels"] == "2"
                }
            }
        } catch {
            stop()
            throw error
        }
    }

    /// The URL a pipeline uses for this set.
    var url: String {
        "redis-sentinel://" + sentinelPorts.map { "127.0.0.1:\($0)" }.joined(separator: ",") + "/\(Self.masterName)"
    }

    /// The port of the master as the first sentinel that answers names it.
    func masterPort() throws -> Int {
        for port in sentinelPorts {
            let lines = (try? cli(port, "SENTINEL", "get-master-addr-by-name", Self.masterName))?.split(separator: "\n")
            if let lines, lines.count == 2, let masterPort = Int(lines[1]) { return masterPort }
        }
        throw ServerError("no sentinel names the master")
    }

    /// The replication role a data node reports (`master` or `slave`), nil when it does not answer.
    func role(_ port: Int) -> String? {
        (try? cli(port, "ROLE"))?.split(separator: "\n").first.map(String.init)
    }

    /// Kills a data node (SIGKILL): it stops answering at once, as when its machine dies.
    func kill(_ port: Int) {
        nodes.removeValue(forKey: port)?.stop()
    }

    /// Starts a killed data node again on its port, empty (nothing was saved), as a master: the
    /// sentinels then turn it into a replica of the current master.
    func restart(_ port: Int) throws {
        try startNode(port)
    }

    /// Waits until every sentinel names `port` as the master and that node reports the role:
    /// a failover done.
    func waitForMaster(_ port: Int) throws {
        try wait("the sentinels to name 127.0.0.1:\(port) the master") {
            try self.sentinelPorts.allSatisfy { sentinel in
                try self.cli(sentinel, "SENTINEL", "get-master-addr-by-name", Self.masterName).hasSuffix("\n\(port)")
            } && self.role(port) == "master"
        }
    }

    /// Waits until the node at `port` is a replica in sync with the master at `masterPort`.
    func waitForReplica(_ port: Int, of masterPort: Int) throws {
        try wait("127.0.0.1:\(port) to be a replica of 127.0.0.1:\(masterPort)") {
            let info = try self.cli(port, "INFO", "replication")
            return info.contains("role:slave") && info.contains("master_port:\(masterPort)")
                && info.contains("master_link_status:up")
        }
    }

    /// Waits until the data node at `port` holds `key` (written to the master, then replicated).
    func waitForKey(_ key: String, on port: Int) throws {
        try wait("\(key) on 127.0.0.1:\(port)") { try self.cli(port, "EXISTS", key) == "1" }
    }

    /// Kills every process of the set.
    func stop() {
        for node in nodes.values { node.stop() }
        nodes.removeAll()
        for sentinel in sentinels { sentinel.stop() }
        sentinels.removeAll()
    }

    /// Runs `redis-cli` against 127.0.0.1:`port` and returns its output (killed after 30 s).
    @discardableResult
    func cli(_ port: Int, _ arguments: String...) throws -> String {
        let result = try ProductRunner.runTool("redis-cli", ["-h", "127.0.0.1", "-p", String(port)] + arguments, timeout: 30)
        guard result.status == 0, !result.killedBySignal else {
            throw ServerError("redis-cli -p \(port) \(arguments) exited \(result.status): \(result.output)\(result.errors)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `SENTINEL master` of one sentinel as a dictionary (`num-slaves`, `flags`...).
    private func masterFields(askingSentinel port: Int) throws -> [String: String] {
        let lines = try cli(port, "SENTINEL", "master", Self.masterName).split(separator: "\n").map(String.init)
        return Dictionary(stride(from: 0, to: lines.count - 1, by: 2).map { (lines[$0], lines[$0 + 1]) }) { $1 }
    }

    private func startNode(_ port: Int, replicaOf masterPort: Int? = nil) throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-sentinel-node")
        var arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--dir", folder.path, "--daemonize", "no", "--enable-debug-command", "yes"]
        if let masterPort { arguments += ["--replicaof", "127.0.0.1", String(masterPort)] }
        let node = try ServerProcess(executable: RedisServer.executable, arguments: arguments, folder: folder)
        nodes[port] = node
        try node.wait(seconds: 30) { NginxServer.accepts(port: port) }
    }

    /// A sentinel on `port` watching the master at `masterPort`, its configuration (which it
    /// rewrites) in a folder of its own.
    private static func startSentinel(_ port: Int, masterPort: Int) throws -> ServerProcess {
        let folder = try ServerProcess.temporaryFolder("imgcache-sentinel")
        let configuration = folder.appendingPathComponent("sentinel.conf")
        try """
            port \(port)
            bind 127.0.0.1
            daemonize no
            dir \(folder.path)
            sentinel monitor \(masterName) 127.0.0.1 \(masterPort) 2
            sentinel down-after-milliseconds \(masterName) 1000
            sentinel failover-timeout \(masterName) 5000
            sentinel parallel-syncs \(masterName) 1

            """.write(to: configuration, atomically: true, encoding: .utf8)
        let sentinel = try ServerProcess(
            executable: RedisServer.executable, arguments: [configuration.path, "--sentinel"], folder: folder)
        do {
            try sentinel.wait(seconds: 30) { NginxServer.accepts(port: port) }
        } catch {
            sentinel.stop()
            throw error
        }
        return sentinel
    }

    /// Polls `condition` every 50 ms (a failing redis-cli counts as not yet) until it holds, for
    /// up to 30 s.
    private func wait(_ what: String, until condition: () throws -> Bool) throws {
        let end = Date().addingTimeInterval(30)
        while Date() < end {
            if (try? condition()) == true { return }
            usleep(50_000)
        }
        throw ServerError("gave up waiting 30 s for \(what)")
    }
}
