import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import XCTest

/// `Tests/Servers/fault_server.py` on 127.0.0.1 at a port it picks, serving `ok.jpg`.
final class FaultServer {
    let server: ServerProcess
    let port: Int
    /// The JPEG served at /ok.jpg and by every path that ends in success.
    let image: Data

    /// - Parameter seed: tells the served image apart from another server's. Default 0.
    init(seed: UInt8 = 0) throws {
        let folder = try ServerProcess.temporaryFolder("imgcache-fault-server")
        image = try TestImage.jpeg(seed: seed)
        try image.write(to: folder.appendingPathComponent("ok.jpg"))
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/fault_server.py")
        let portFile = folder.appendingPathComponent("port")
        server = try ServerProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", script.path, "--root", folder.path, "--port-file", portFile.path], folder: folder)
        var port: Int?
        do {
            try server.wait {
                port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
                return port != nil
            }
        } catch {
            server.stop()
            throw error
        }
        self.port = port!
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// How many requests the server has seen for `path` (the query left out).
    func count(_ path: String) async throws -> Int {
        try await connections(path).count
    }

    /// The serial numbers (from 1, in the order the server accepted them) of the connections the
    /// requests for `path` (the query left out) came over, one per request, in order.
    func connections(_ path: String) async throws -> [Int] {
        let (data, _) = try await URLSession.shared.data(from: url("/_connections" + path))
        return String(decoding: data, as: UTF8.self).split(separator: " ").map { Int($0)! }
    }

    /// How the last /endless ended: the body bytes the server wrote and when the client closed
    /// the connection; nil while it is still being written to.
    func endlessEnd() async throws -> (bytes: Int, closed: Date)? {
        let (data, _) = try await URLSession.shared.data(from: url("/_endless"))
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count == 2, let bytes = Int(fields[0]), let closed = Double(fields[1]) else { return nil }
        return (bytes, Date(timeIntervalSince1970: closed))
    }

    /// When the client of the last /stall hung up; nil while it has not.
    func stallEnd() async throws -> Date? {
        let (data, _) = try await URLSession.shared.data(from: url("/_stall"))
        return Double(String(decoding: data, as: UTF8.self)).map(Date.init(timeIntervalSince1970:))
    }

    func stop() {
        server.stop()
    }
}

extension FaultServer {
    /// The names of the /hold/NAME requests the server has seen, in arrival order.
    func arrivals() async throws -> [String] {
        let (data, _) = try await URLSession.shared.data(from: url("/_arrivals"))
        return String(decoding: data, as: UTF8.self).split(separator: " ").map(String.init)
    }

    /// Lets `count` held /hold/ answers go, or every one, now and later, when `count` is nil.
    func release(_ count: Int? = 1) async throws {
        _ = try await URLSession.shared.data(from: url(count.map { "/_release?count=\($0)" } ?? "/_release?all=1"))
    }
}

extension FaultServer {
    /// The requests the server has seen for each path that starts with `prefix` (queries left out).
    func counts(prefix: String) async throws -> [String: Int] {
        var components = URLComponents(url: url("/_counts"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "prefix", value: prefix)]
        let (data, _) = try await URLSession.shared.data(from: try XCTUnwrap(components?.url))
        var counts: [String: Int] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let count = Int(fields[1]) { counts[String(fields[0])] = count }
        }
        return counts
    }
}
