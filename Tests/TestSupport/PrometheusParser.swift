import Foundation

/// Prometheus text as Python's prometheus_client parses it, after `Tests/Scripts/parse_metrics.py`
/// has checked it line by line against the exposition format.
public enum PrometheusParser {
    /// A sample as parse_metrics.py prints it.
    public struct Sample: Hashable, Decodable, CustomStringConvertible, Sendable {
        public let name: String
        public let labels: [String: String]
        public let value: Double

        public init(name: String, labels: [String: String], value: Double) {
            self.name = name
            self.labels = labels
            self.value = value
        }

        public var description: String { "\(name)\(labels.sorted { $0.key < $1.key }) \(value)" }
    }

    /// A metric family as parse_metrics.py prints it (prometheus_client names a counter's family
    /// without `_total`).
    public struct Family: Decodable, Sendable {
        public let name: String
        public let type: String
        public let help: String
        public let samples: [Sample]
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/parse_metrics.py")

    /// The families of `text`; throws the script's faults when the text breaks the format, and
    /// says how to install prometheus_client when python3 lacks it.
    public static func families(_ text: String) throws -> [Family] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imgcache-metrics-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ProductRunner.runTool("python3", [script.path, file.path])
        if result.errors.contains("No module named 'prometheus_client'") {
            throw Failure(description: """
                python3 cannot import prometheus_client, which these tests parse the metrics with: \
                run `make setup`, or `python3 -m pip install prometheus_client`
                """)
        }
        guard result.status == 0, !result.killedBySignal else {
            throw Failure(description: "parse_metrics.py rejected the text:\n\(result.errors)\nThe text:\n\(text)")
        }
        return try JSONDecoder().decode([Family].self, from: Data(result.output.utf8))
    }

    /// The value of the sample named `name` with `labels` (default none) in `families`; nil when
    /// there is none.
    public static func value(_ name: String, labels: [String: String] = [:], in families: [Family]) -> Double? {
        families.flatMap(\.samples).first { $0.name == name && $0.labels == labels }?.value
    }
}
