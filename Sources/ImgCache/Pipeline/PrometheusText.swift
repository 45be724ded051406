/// Text in the Prometheus text exposition format, version 0.0.4 (HTTP content type
/// `text/plain; version=0.0.4`), written one metric family at a time: `family` writes its
/// `# HELP` and `# TYPE` lines, then `sample` and `histogram` its samples. Every line ends with a
/// newline, the last one included. Names are written as given: the caller passes valid ones.
public struct PrometheusText: Sendable {
    /// The metric types a `# TYPE` line names.
    public enum MetricType: String, Sendable {
        /// A value that only goes up (`_total`).
        case counter
        /// A value that goes up and down.
        case gauge
        /// Observations counted into buckets, with their count and sum.
        case histogram
    }

    /// A sample's labels, in the order written.
    public typealias Labels = [(name: String, value: String)]

    /// The text written so far.
    public private(set) var text = ""

    /// Empty text, to which families and samples are written.
    public init() {}

    /// Starts the family `name`: its help (escaped) and its type. Write each family once, with all
    /// its samples after it.
    public mutating func family(_ name: String, type: MetricType, help: String) {
        text += "# HELP \(name) \(Self.escaped(help: help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    /// The sample line `name{labels} value`, without braces when there are no labels.
    public mutating func sample(_ name: String, labels: Labels = [], value: Int) {
        line(name, labels: labels, value: String(value))
    }

    /// The sample line `name{labels} value`, with `value` as `number(_:)` writes it.
    public mutating func sample(_ name: String, labels: Labels = [], value: Double) {
        line(name, labels: labels, value: Self.number(value))
    }

    /// The samples of one histogram of the family `name`: a `name_bucket` line per bucket with its
    /// cumulative count and its upper bound as the label `le` (after `labels`), then `name_sum` and
    /// `name_count`.
    public mutating func histogram(_ name: String, labels: Labels = [], _ histogram: PipelineMetrics.HistogramSnapshot) {
        for bucket in histogram.buckets {
            sample(name + "_bucket", labels: labels + [("le", Self.number(bucket.upperBound))], value: bucket.cumulativeCount)
        }
        sample(name + "_sum", labels: labels, value: histogram.sum)
        sample(name + "_count", labels: labels, value: histogram.count)
    }

    private mutating func line(_ name: String, labels: Labels, value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.name)=\"\(Self.escaped(labelValue: $0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " " + value + "\n"
    }

    /// `value` as Go's `strconv.ParseFloat` and Python's `float` read it, in the shortest form that
    /// reads back as the same `Double`: whole numbers without a fraction (`1`, `10`, as Go's client
    /// writes bucket bounds), others as Swift prints them (`0.005`, `2.5`, `1e-05`), and `+Inf`,
    /// `-Inf` and `NaN`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `help` with backslashes and line feeds escaped, as a `# HELP` line needs.
    static func escaped(help: String) -> String {
        escaped(help, quotes: false)
    }

    /// `labelValue` with backslashes, double quotes and line feeds escaped, as a label value needs.
    static func escaped(labelValue: String) -> String {
        escaped(labelValue, quotes: true)
    }

    /// Escapes by Unicode scalar, so that the line feed of a "\r\n" (one `Character`) is escaped too.
    private static func escaped(_ string: String, quotes: Bool) -> String {
        var result = ""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\"" where quotes: result += "\\\""
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
