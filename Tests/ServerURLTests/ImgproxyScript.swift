import Foundation
import TestSupport

/// Scripts/imgproxy_urls.py: URLs built and signed by the imgproxy PyPI package, as a Python
/// service's own code makes them.
enum ImgproxyScript {
    /// One URL to build: `ImgProxy(source, **params)(*advanced)`; a plain source is
    /// percent-encoded whole and an extension follows it after "@" (a base64 one after ".").
    struct Case: Encodable {
        struct Params: Encodable {
            var resizing_type: String?
            var width: Int?
            var height: Int?
            var gravity: String?
            var enlarge: Bool?
        }

        var source: String
        var plain: Bool
        var `extension` = ""
        var params = Params()
        var advanced: [String] = []
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

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Scripts/imgproxy_urls.py")

    /// The path of each case, signed with `keyHex` and `saltHex` (unsigned, `/insecure/...`, when
    /// nil), and the package's version; says how to install the package when python3 lacks it.
    static func paths(_ cases: [Case], keyHex: String?, saltHex: String?) throws -> (version: String, paths: [String]) {
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
