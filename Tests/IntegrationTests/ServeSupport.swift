import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImgCache
import TestSupport
import XCTest

/// Serve paths built and signed by the imgproxy PyPI package with the tests' key and salt (see
/// `ImgproxySigner`), as a Python service makes them.
enum ServeURLs {
    typealias Case = ImgproxySigner.Case

    /// The path of each case, signed with the tests' key and salt (`/insecure/...` when `signed`
    /// is false), in one run of the script.
    static func paths(_ cases: [Case], signed: Bool = true) throws -> [String] {
        try ImgproxySigner.paths(
            cases, keyHex: signed ? ServeProcess.keyHex : nil, saltHex: signed ? ServeProcess.saltHex : nil).paths
    }

    static func path(_ single: Case, signed: Bool = true) throws -> String {
        try paths([single], signed: signed)[0]
    }
}

extension ImgproxySigner.Case {
    /// `ImgProxy(source, resizing_type=type, width=..., height=..., gravity=..., enlarge=...)(*advanced)`,
    /// which the package writes `/SIG/ADVANCED.../g:GRAVITY/rs:TYPE:W:H:ENLARGE/SOURCE` (gravity
    /// `ce` unless given); a plain source is percent-encoded and followed by `@EXT`, a base64 one
    /// by `.EXT`.
    init(
        _ source: URL, plain: Bool = true, extension: String = "", type: String = "fit", width: Int = 0, height: Int = 0,
        gravity: String? = nil, enlarge: Bool = false, advanced: [String] = []
    ) {
        self.init(
            source: source.absoluteString, plain: plain, extension: `extension`,
            params: Params(resizing_type: type, width: width, height: height, gravity: gravity, enlarge: enlarge),
            advanced: advanced)
    }
}

/// A URLSession of its own with no cache (so a 304 reaches the test as a 304) and a bounded
/// request time.
final class ServeClient: Sendable {
    let session: URLSession

    init(maxConnectionsPerHost: Int = 32, timeout: TimeInterval = 180) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The body and response of `method` on `url` with `headers`.
    func send(_ url: URL, method: String = "GET", headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ServerError("not an HTTP response: \(response)") }
        return (data, http)
    }

    /// The body of a GET of `url`, which must answer 200.
    func body(_ url: URL, file: StaticString = #filePath, line: UInt = #line) async throws -> Data {
        let (data, response) = try await send(url)
        XCTAssertEqual(response.statusCode, 200, "\(url.path): \(String(decoding: data.prefix(300), as: UTF8.self))", file: file, line: line)
        return data
    }
}

extension HTTPURLResponse {
    /// The value of the header `name`, any case.
    func header(_ name: String) -> String? {
        value(forHTTPHeaderField: name)
    }
}

/// Checks of what serve answers.
enum ServeAssert {
    /// An error answer: `status`, `Cache-Control: no-store` (unless `noStore` is false: the HTTP
    /// server's own 503 and 504 carry none), plain text of exactly one line (non-empty, ending
    /// in its one newline), that line containing `containing` when given.
    static func error(
        _ answer: (Data, HTTPURLResponse), _ status: Int, containing: String? = nil, noStore: Bool = true, _ what: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let (data, response) = answer
        let body = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(response.statusCode, status, "\(what): \(body)", file: file, line: line)
        if noStore {
            XCTAssertEqual(response.header("Cache-Control"), "no-store", "\(what): \(status)", file: file, line: line)
        }
        XCTAssertTrue(response.header("Content-Type")?.hasPrefix("text/plain") ?? false,
                      "\(what): Content-Type \(response.header("Content-Type") ?? "none")", file: file, line: line)
        XCTAssertTrue(isOneLine(body), "\(what): the body is not one line: \(body.debugDescription)", file: file, line: line)
        if let containing {
            XCTAssertTrue(body.contains(containing), "\(what): '\(body)' does not say '\(containing)'", file: file, line: line)
        }
    }

    /// `imgcache serve --allow-unsigned` with each case's arguments exits 2 at start, its
    /// standard error holding the case's message.
    static func refusesToStart(_ cases: [([String], String)], file: StaticString = #filePath, line: UInt = #line) throws {
        let cache = try ServerProcess.temporaryFolder("imgcache-serve-refused-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        for (arguments, message) in cases {
            let result = try CommandRunner.run(
                "imgcache", try ServeProcess.commandLine(["--allow-unsigned"] + arguments, cacheFolder: cache), timeout: 60,
                file: file, line: line)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.errors)", file: file, line: line)
            XCTAssertTrue(result.errors.contains(message), "\(arguments): \(result.errors)", file: file, line: line)
        }
    }

    /// True for one non-empty line of text ending in a newline (or without one), and no other.
    static func isOneLine(_ body: String) -> Bool {
        let line = body.hasSuffix("\n") ? String(body.dropLast()) : body
        return !line.isEmpty && !line.contains("\n") && !line.contains("\r")
    }
}

/// curl, the tests' HTTP/2 and keep-alive client (Debian's curl package).
enum Curl {
    static func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> ProductRunner.Result {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            throw ServerError("curl is not installed: apt-get install curl")
        }
        return try ProductRunner.runTool("curl", arguments, timeout: timeout)
    }
}

/// Files for an origin to serve, made by the tests.
enum ServeMedia {
    /// A JPEG whose scan stops halfway and is closed with EOI: the file ends where it should,
    /// the entropy-coded data does not (a broken scan), which the decoder refuses as corrupt.
    static func brokenJPEG() throws -> Data {
        let jpeg = try TestImage.jpeg(width: 256, height: 192)
        return jpeg.prefix(jpeg.count / 2) + Data([0xFF, 0xD9])
    }

    /// A GIF whose screen and one frame are `side` x `side` pixels (over the 100-megapixel limit
    /// for 10,001 and more), with a few bytes of image data: refused from its header.
    static func hugeGIF(side: Int = 20_000) -> Data {
        var bytes = Array("GIF89a".utf8)
        let low = UInt8(side & 0xFF), high = UInt8(side >> 8)
        bytes += [low, high, low, high, 0x80, 0, 0]       // screen, global table of 2 colours
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x2C, 0, 0, 0, 0, low, high, low, high, 0] // image descriptor
        bytes += [2, 2, 0x4C, 0x01, 0, 0x3B]               // LZW data (clear, a pixel, end), trailer
        return Data(bytes)
    }

    /// The pixels of an encoded image and its format.
    static func decoded(_ data: Data) throws -> (format: ImageFormat, bitmap: Bitmap) {
        let image = try ImageDecoder.decode(.data(data))
        return (image.info.format, image.frames[0].bitmap)
    }
}

/// `/metrics` of a serve process: checked and parsed with prometheus_client (`families`), or
/// read sample by sample (`samples`), so that the counts can be checked apart from the format.
enum ServeMetrics {
    static func text(of serve: ServeProcess, client: ServeClient) async throws -> String {
        let (data, response) = try await client.send(serve.url("/metrics"))
        guard response.statusCode == 200 else { throw ServerError("/metrics answered \(response.statusCode)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The families, once `Tests/Scripts/parse_metrics.py` has checked the text against the format.
    static func families(of serve: ServeProcess, client: ServeClient) async throws -> [PrometheusParser.Family] {
        try PrometheusParser.families(try await text(of: serve, client: client))
    }

    /// Every sample line of the text (`name{label="value",...} number`), whatever its family's
    /// header lines say.
    static func samples(of serve: ServeProcess, client: ServeClient) async throws -> [PrometheusParser.Sample] {
        try samples(try await text(of: serve, client: client))
    }

    static func samples(_ text: String) throws -> [PrometheusParser.Sample] {
        try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Double(parts[1].replacingOccurrences(of: "+Inf", with: "inf")) else {
                throw ServerError("not a sample line: \(line)")
            }
            var name = String(parts[0]), labels: [String: String] = [:]
            if let brace = name.firstIndex(of: "{") {
                let list = name[name.index(after: brace)..<name.index(before: name.endIndex)]
                for pair in list.split(separator: ",") {
                    let halves = pair.split(separator: "=", maxSplits: 1)
                    guard halves.count == 2 else { throw ServerError("bad label in \(line)") }
                    labels[String(halves[0])] = String(halves[1].dropFirst().dropLast())
                }
                name = String(name[..<brace])
            }
            return PrometheusParser.Sample(name: name, labels: labels, value: value)
        }
    }

    /// The value of the sample `name` with exactly `labels`; nil when there is none.
    static func value(_ name: String, _ labels: [String: String] = [:], in samples: [PrometheusParser.Sample]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }
}
