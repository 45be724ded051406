/// A verb of `imgcache`: its help text and what it does with the words after it.
protocol Command {
    /// The verb, as typed.
    static var name: String { get }
    /// One line for the verb list.
    static var summary: String { get }
    /// The full `--help` text.
    static var help: String { get }
    /// Runs the verb; throws `UsageError` or `ImgCacheError` for the caller to report.
    static func run(_ arguments: inout ArgumentList) throws
}
