import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// Samples/serve/imgcache-serve.service and its environment file: the unit passes
/// `systemd-analyze verify` (where systemd-analyze is installed) and sets what operations
/// need, and its ExecStart command line runs: it serves, logs to the journal's standard output,
/// and stops on SIGTERM within TimeoutStopSec. (nginx-front.conf is run by ServeFleetTests.)
final class ServeSampleTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/serve")
    static let unit = folder.appendingPathComponent("imgcache-serve.service")
    static let environmentFile = folder.appendingPathComponent("imgcache-serve.env")

    /// The unit's settings: each section's keys with their values in order (a key may repeat),
    /// continuation lines joined.
    static func settings() throws -> [String: [String: [String]]] {
        let text = try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "\\\n", with: " ")
        var sections: [String: [String: [String]]] = [:], section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw ServerError("not a setting: \(line)") }
            let key = String(line[..<equals]), value = String(line[line.index(after: equals)...])
            sections[section, default: [:]][key, default: []].append(value)
        }
        return sections
    }

    /// ExecStart's words after the executable (the unit's flags), multiple spaces as one.
    static func execStart() throws -> (executable: String, arguments: [String]) {
        let words = try XCTUnwrap(settings()["Service"]?["ExecStart"]?.first).split(separator: " ").map(String.init)
        return (words[0], Array(words.dropFirst()))
    }

    /// The value after `flag` among `arguments`.
    static func value(of flag: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func testTheUnitVerifiesAndSetsUserSecretsRestartStopAndHardening() throws {
        let settings = try Self.settings()
        let service = try XCTUnwrap(settings["Service"])
        let (executable, arguments) = try Self.execStart()
        XCTAssertEqual(arguments.first, "serve")
        XCTAssertEqual(service["User"], ["imgcache"])
        XCTAssertEqual(service["EnvironmentFile"], ["/etc/imgcache/serve.env"])
        XCTAssertEqual(service["Restart"], ["on-failure"])
        XCTAssertEqual(service["KillSignal"], ["SIGTERM"])
        let drain = try XCTUnwrap(Self.value(of: "--drain-seconds", in: arguments).flatMap(Double.init))
        let stop = try XCTUnwrap(service["TimeoutStopSec"]?.first.flatMap(Double.init))
        XCTAssertGreaterThan(stop, drain + 1, "systemd waits for the drain (and the 1 s after it) before SIGKILL")
        let cache = try XCTUnwrap(Self.value(of: "--cache-dir", in: arguments))
        XCTAssertEqual(service["ReadWritePaths"], [cache], "the cache folder is the one writable path")
        XCTAssertEqual(service["CacheDirectory"].map { ["/var/cache/" + $0[0]] }, [cache])
        for (key, value) in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("PrivateTmp", "yes"), ("ProtectHome", "yes")] {
            XCTAssertEqual(service[key], [value], key)
        }
        XCTAssertEqual(settings["Install"]?["WantedBy"], ["multi-user.target"])
        XCTAssertFalse(try String(contentsOf: Self.unit, encoding: .utf8).contains("IMGCACHE_KEY="), "no secret in the unit")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            print("systemd-analyze is not installed: the unit was checked by its keys only")
            return
        }
        // verify checks that ExecStart's executable exists: the built one stands in for /usr/local/bin/imgcache.
        let copy = try ServerProcess.temporaryFolder("imgcache-unit")
        defer { try? FileManager.default.removeItem(at: copy) }
        let unit = copy.appendingPathComponent("imgcache-serve.service")
        try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(of: executable, with: ServeProcess.executable.path)
            .write(to: unit, atomically: true, encoding: .utf8)
        let verify = try ProductRunner.runTool("systemd-analyze", ["verify", unit.path])
        XCTAssertEqual(verify.status, 0, verify.output + verify.errors)
        let complaints = (verify.output + verify.errors).split(separator: "\n").filter { $0.contains("imgcache-serve") }
        XCTAssertEqual(complaints, [], "systemd-analyze verify")
        // Exposure 2.0 or less of systemd's 10 ("OK" is up to 4.9).
        let security = try ProductRunner.runTool(
            "systemd-analyze", ["security", "--offline=yes", "--threshold=20", unit.path])
        XCTAssertEqual(security.status, 0, security.output.split(separator: "\n").suffix(1).joined() + security.errors)
    }

    /// The unit's command line, with a free port and a temporary cache folder for its own, and
    /// the environment file's variables with the tests' key: /health and a signed image answer,
    /// the access log is JSON lines on standard output (the journal), and SIGTERM ends it with
    /// exit 0 well within TimeoutStopSec.
    func testTheUnitsCommandLineServesLogsAndStopsOnSIGTERM() async throws {
        let (_, words) = try Self.execStart()
        var arguments = Array(words.dropFirst())
        for flag in ["--listen", "--cache-dir"] {
            let index = try XCTUnwrap(arguments.firstIndex(of: flag), flag)
            arguments.removeSubrange(index...index + 1)
        }
        let variables = try String(contentsOf: Self.environmentFile, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && $0.contains("=") }.map { String($0.split(separator: "=", maxSplits: 1)[0]) }
        XCTAssertEqual(variables, ["IMGCACHE_KEY", "IMGCACHE_SALT"], "the environment file's settings")
        let stopSeconds = try XCTUnwrap(Self.settings()["Service"]?["TimeoutStopSec"]?.first.flatMap(Double.init))

        let nginx = try NginxServer()
        defer { nginx.stop() }
        try TestImage.jpeg(width: 120, height: 90).write(to: nginx.root.appendingPathComponent("unit.jpg"))
        let serve = try ServeProcess(arguments)
        defer { serve.stop() }
        let client = ServeClient()
        _ = try await client.body(serve.url("/health"))
        let path = try ServeURLs.path(.init(nginx.url("/unit.jpg"), type: "fit", width: 60, height: 60))
        _ = try await client.body(serve.url(path))
        let lines = serve.waitForOutputLines(2, seconds: 60)
        XCTAssertEqual(lines.count, 2, serve.standardOutput)
        XCTAssertEqual(try lines.map { try CommandRunner.json($0)["status"] as? Int }, [200, 200])

        let start = Date()
        serve.terminate()
        XCTAssertEqual(serve.waitForExit(seconds: stopSeconds), 0, serve.standardError)
        XCTAssertLessThan(Date().timeIntervalSince(start), stopSeconds)
    }

    /// `imgcache serve --help` lists every option the unit passes, and the Redis option.
    func testServeHelpListsTheUnitsOptionsAndRedis() throws {
        let help = try ProductRunner.run("imgcache", ["serve", "--help"])
        let text = help.output + help.errors
        for flag in try Self.execStart().arguments where flag.hasPrefix("--") {
            XCTAssertTrue(text.contains(flag + " "), "serve --help does not list \(flag)")
        }
        XCTAssertTrue(text.contains("--redis"), "serve --help does not list --redis")
        XCTAssertFalse(text.contains("\\("), "serve --help shows an uninterpolated string: \(text.split(separator: "\n").last ?? "")")
    }
}
