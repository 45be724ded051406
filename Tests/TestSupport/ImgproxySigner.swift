import Foundation

/// URLs built and signed by the imgproxy PyPI package (`Tests/Scripts/imgproxy_urls.py`), as a
/// Python service's own code makes them.
public enum ImgproxySigner {
    /// One URL to build: `ImgProxy(source, **params)(*advanced)`; a plain source is
    /// percent-encoded whole and an extension follows it after "@" (a base64 one after ".").
    public struct Case: Encodable, Sendable {
        public struct Params: Encodable, Sendable {
            public var resizing_type: String?
            public var width: Int?
            public var height: Int?
            public var gravity: String?
            public var enlarge: Bool?

            public init(
                resizing_type: String? = nil, width: Int? = nil, height: Int? = nil, gravity: String? = nil,
                enlarge: Bool? = nil
            ) {
                self.resizing_type = resizing_type
                self.width = width
                self.height = height
                self.gravity = gravity
                self.enlarge = enlarge
            }
        }

        public var source: String
        public var plain: Bool
        public var `extension`: String
        public var params: Params
        public var advanced: [String]

        public init(source: String, plain: Bool = true, extension: String = "", params: Params = Params(), advanced: [String] = []) {
            self.source = source
            self.plain = plain
            self.extension = `extension`
            self.params = params
            self.advanced = advanced
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private struct Request: Encodable {
        let key: String?
        let salt: String?
        let cases: [Case]
    }

    private struct Answer: Decodable {
        let version: String
        let paths: [String]
    }

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/imgproxy_urls.py")

    /// The path of each case, signed with `keyHex` and `saltHex` (unsigned, `/insecure/...`, when
    /// nil), in one run of the script, and the package's version; says how to install the package
    /// when python3 lacks it.
    public static func paths(_ cases: [Case], keyHex: String?, saltHex: String?) throws -> (version: String, paths: [String]) {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-imgproxy-\(UUID().uuidString).json")
        try JSONEncoder().encode(Request(key: keyHex, salt: saltHex, cases: cases)).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let result = try ProductRunner.runTool("sh", ["-c", "python3 \"$0\" < \"$1\"", script.path, input.path])
        if result.errors.contains("No module named 'imgproxy'") {
            throw Failure(description: """
                python3 cannot import imgproxy, which signs these tests' URLs: run `make setup`, or \
                `python3 -m pip install imgproxy`
                """)
        }
        guard result.status == 0, !result.killedBySignal else { throw Failure(description: "imgproxy_urls.py failed: \(result.errors)") }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(result.output.utf8))
        guard answer.paths.count == cases.count else { throw Failure(description: "\(answer.paths.count) paths for \(cases.count) cases") }
        return (answer.version, answer.paths)
    }
}
