import Foundation
import TestSupport
import XCTest

/// A Redis Cluster of Debian's redis-server on 127.0.0.1: six nodes on free ports (their bus
/// ports free too), nothing saved to disk, made 3 masters with a replica each by
/// `redis-cli --cluster create ... --cluster-replicas 1`, with a short `cluster-node-timeout` so
/// that a replica takes a killed master's place within seconds, and
/// `cluster-require-full-coverage no` so that the other masters serve meanwhile. Every wait is
/// bounded (60 s, a bound that only ends a broken run). Tests skip, saying so, without
/// redis-server or redis-cli.
final class RedisCluster {
    static let nodeCount = 6
    /// How long a node stays unreachable before the others fail it over.
    static let nodeTimeoutMilliseconds = 1000
    let ports: [Int]
    private var servers: [Int: ServerProcess] = [:]

    /// Skips the calling test unless Debian's redis-server and redis-cli are installed.
    static func skipUnlessInstalled() throws {
        for tool in [RedisServer.executable, "/usr/bin/redis-cli"] {
            try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not installed (apt-get install redis-server)")
        }
    }

    init() throws {
        try Self.skipUnlessInstalled()
        var chosen = Set<Int>()
        while chosen.count < Self.nodeCount * 2 { chosen.insert(try NginxServer.freePort()) }
        let free = Array(chosen)
        ports = Array(free.prefix(Self.nodeCount))
        do {
            for (port, busPort) in zip(ports, free.suffix(Self.nodeCount)) { try start(port: port, busPort: busPort) }
            try Self.runCLI(["--cluster", "create"] + ports.map { "127.0.0.1:\($0)" } + ["--cluster-replicas", "1", "--cluster-yes"])
            try waitUntilServing(withReplicas: true)
        } catch {
            stop()
            throw error
        }
    }

    /// The URL a pipeline uses, naming two of the nodes as seeds.
    var url: String { "redis-cluster://127.0.0.1:\(ports[0]),127.0.0.1:\(ports[1])" }

    private func start(port: Int, busPort: Int) throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-redis-cluster")
        let arguments = [
            "--port", String(port), "--cluster-port", String(busPort), "--bind", "127.0.0.1", "--cluster-enabled", "yes",
            "--cluster-config-file", folder.appendingPathComponent("nodes.conf").path,
            "--cluster-node-timeout", String(Self.nodeTimeoutMilliseconds), "--cluster-require-full-coverage", "no",
            // A replica's first sync at once, not after the default 5 s wait for more replicas.
            "--repl-diskless-sync-delay", "0",
            "--save", "", "--appendonly", "no", "--dir", folder.path, "--daemonize", "no", "--enable-debug-command", "yes",
        ]
        let server = try ServerProcess(executable: RedisServer.executable, arguments: arguments, folder: folder)
        servers[port] = server
        try server.wait { NginxServer.accepts(port: port) }
    }

    /// Kills every node and waits for them to exit.
    func stop() {
        for server in servers.values { server.stop() }
        servers.removeAll()
    }

    /// Kills the node on `port` (SIGKILL): an outage its replica takes over from.
    func kill(port: Int) {
        servers.removeValue(forKey: port)?.stop()
    }

    /// Runs `redis-cli` against the node on `port` and returns its output (killed after 30 s).
    @discardableResult
    func cli(_ port: Int, _ arguments: String...) throws -> String {
        try cli(port, arguments)
    }

    @discardableResult
    func cli(_ port: Int, _ arguments: [String]) throws -> String {
        try Self.runCLI(["-h", "127.0.0.1", "-p", String(port)] + arguments)
    }

    @discardableResult
    private static func runCLI(_ arguments: [String]) throws -> String {
        let result = try ProductRunner.runTool("redis-cli", arguments, timeout: 30)
        guard result.status == 0, !result.killedBySignal else {
            throw ServerError("redis-cli \(arguments) exited \(result.status): \(result.output)\(result.errors)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The masters by port, each with the slot ranges it serves, as a live node sees them
    /// (`CLUSTER NODES`: failed masters left out).
    func masters() throws -> [Int: [ClosedRange<Int>]] {
        guard let live = servers.keys.sorted().first else { return [:] }
        var masters: [Int: [ClosedRange<Int>]] = [:]
        for line in try cli(live, "CLUSTER", "NODES").split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 8, fields[2].contains("master"), !fields[2].contains("fail"),
                  let port = fields[1].split(separator: ":").last?.split(separator: "@").first.flatMap({ Int($0) })
            else { continue }
            masters[port] = fields.dropFirst(8).compactMap { range in
                let bounds = range.split(separator: "-").compactMap { Int($0) }
                guard let first = bounds.first, !range.hasPrefix("[") else { return nil }
                return first...(bounds.last ?? first)
            }
        }
        return masters
    }

    /// The master serving `slot`, by port.
    func master(ofSlot slot: Int) throws -> Int? {
        try masters().first { $0.value.contains { $0.contains(slot) } }?.key
    }

    /// Keys held by each master (`DBSIZE`), by port.
    func keysPerMaster() throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for port in try masters().keys { counts[port] = Int(try cli(port, "DBSIZE")) ?? -1 }
        return counts
    }

    /// Waits until every live node says `cluster_state:ok` and 3 live masters serve all 16384
    /// slots (after a kill: a replica has taken the killed master's place), and with
    /// `withReplicas` until each master has a replica in sync (one that can take its place).
    func waitUntilServing(withReplicas: Bool = false, seconds: TimeInterval = 60) throws {
        let end = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < end {
            let states = servers.keys.compactMap { try? cli($0, "CLUSTER", "INFO") }
            let masters = (try? masters()) ?? [:]
            let covered = masters.values.joined().reduce(0) { $0 + $1.count }
            if states.count == servers.count, states.allSatisfy({ $0.contains("cluster_state:ok") }),
               masters.count == 3, covered == 16_384, masters.keys.allSatisfy({ servers[$0] != nil }),
               !withReplicas || masters.keys.allSatisfy({ (try? cli($0, "INFO", "replication"))?.contains("state=online") == true }) {
                return
            }
            last = "\(states.count) nodes answer, \(masters.count) masters, \(covered) slots"
            usleep(50_000)
        }
        throw ServerError("the cluster did not serve within \(seconds) s: \(last)")
    }
}
