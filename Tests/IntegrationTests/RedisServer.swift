import Foundation
import TestSupport

/// Debian's redis-server in the foreground on 127.0.0.1 and a free port, with nothing saved to
/// disk (`--save '' --appendonly no`, a temporary `--dir`); killed and started again on the same
/// port to simulate an outage; DEBUG SLEEP stalls it. Every wait is bounded (10 s to start).
final class RedisServer {
    static let executable = "/usr/bin/redis-server"
    let port: Int
    let password: String?
    private var server: ServerProcess?

    init(password: String? = nil) throws {
        port = try NginxServer.freePort()
        self.password = password
        try start()
    }

    /// The URL a pipeline uses for this server, with its password.
    var url: String { "redis://" + (password.map { ":\($0)@" } ?? "") + "127.0.0.1:\(port)/0" }

    /// Starts the server (again) on its port and waits until it accepts connections.
    func start() throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-redis")
        var arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--dir", folder.path, "--daemonize", "no", "--enable-debug-command", "yes"]
        if let password { arguments += ["--requirepass", password] }
        let server = try ServerProcess(executable: Self.executable, arguments: arguments, folder: folder)
        do {
            try server.wait { NginxServer.accepts(port: port) }
        } catch {
            server.stop()
            throw error
        }
        self.server = server
    }

    /// Kills the server (SIGKILL) and waits for it to exit: an outage.
    func stop() {
        server?.stop()
        server = nil
    }

    /// Runs `redis-cli` against the server and returns its output (killed after 30 s).
    @discardableResult
    func cli(_ arguments: String...) throws -> String {
        let result = try ProductRunner.runTool(
            "redis-cli",
            ["-h", "127.0.0.1", "-p", String(port)] + (password.map { ["--no-auth-warning", "-a", $0] } ?? []) + arguments,
            timeout: 30)
        guard result.status == 0, !result.killedBySignal else {
            throw ServerError("redis-cli \(arguments) exited \(result.status): \(result.output)\(result.errors)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
