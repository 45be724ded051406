import Foundation

/// `Tests/Servers/fake_redis.py` on 127.0.0.1 at a port it picks: a Redis that trickles or floods
/// its GETRANGE replies, closes every connection, or sends replies to no command, and writes what
/// happened to an events file.
final class FakeRedisServer {
    enum Mode: String {
        /// A GETRANGE's whole reply (`bulkBytes` long) one byte every `interval` seconds, for 10 s.
        case trickle
        /// A GETRANGE's reply of `bulkBytes` sent as fast as the client reads.
        case flood
        /// Every connection closed as soon as it is accepted.
        case close
        /// Every reply followed by `+FORGED`, a reply to no command.
        case forge
    }

    let server: ServerProcess
    let port: Int
    private let eventsFile: URL

    init(mode: Mode, bulkBytes: Int = 4096, interval: TimeInterval = 0.05) throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-fake-redis")
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/fake_redis.py")
        let portFile = folder.appendingPathComponent("port")
        eventsFile = folder.appendingPathComponent("events")
        server = try ServerProcess(
            executable: "/usr/bin/env",
            arguments: [
                "python3", script.path, "--port-file", portFile.path, "--events", eventsFile.path, "--mode", mode.rawValue,
                "--bulk-bytes", String(bulkBytes), "--interval", String(interval),
            ],
            folder: folder)
        var port: Int?
        try? server.wait {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            return port != nil
        }
        guard let port else {
            server.stop()
            throw ServerError("fake_redis.py wrote no port within 60 s")
        }
        self.port = port
    }

    /// The URL a tier uses for this server.
    var url: String { "redis://127.0.0.1:\(port)/0" }

    /// The events so far ("connect 1", "command 1 GETRANGE", "hangup 1 3"...), in order.
    func events() -> [String] {
        ((try? String(contentsOf: eventsFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The events once one of them satisfies `condition`, waiting up to 60 s for it (a bound that
    /// only ends a broken run); fails with every event when none does.
    func events(until condition: (String) -> Bool) throws -> [String] {
        let end = Date().addingTimeInterval(60)
        var events = self.events()
        while !events.contains(where: condition) {
            guard Date() < end else { throw ServerError("fake Redis never logged the event awaited: \(events)") }
            usleep(10_000)
            events = self.events()
        }
        return events
    }

    func stop() {
        server.stop()
    }
}
