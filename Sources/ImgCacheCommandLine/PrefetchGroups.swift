import ImgCache
import Synchronization

/// The requests of a URL list, one group a line (its targets), made as the pipeline asks for
/// them. A line that makes no request (too long, not a URL) is reported as failed at once. Keeps
/// the source of each request in flight only, for its result's report.
final class PrefetchGroups: AsyncSequence, Sendable {
    typealias Element = [ImageRequest]

    let lines: URLListReader
    let reporter: PrefetchReporter
    let requests: @Sendable (String) throws -> [ImageRequest]
    private let sources = Mutex([Int: String]())
    private let nextIndex = Mutex(0)

    init(lines: URLListReader, reporter: PrefetchReporter, requests: @escaping @Sendable (String) throws -> [ImageRequest]) {
        self.lines = lines
        self.reporter = reporter
        self.requests = requests
    }

    /// The source line of the request at `index` of the stream, forgotten once asked for.
    func source(of index: Int) -> String {
        sources.withLock { $0.removeValue(forKey: index) } ?? "#\(index)"
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let groups: PrefetchGroups
        var lines: URLListReader.AsyncIterator

        mutating func next() async throws -> [ImageRequest]? {
            while let line = try await lines.next() {
                switch line {
                case .tooLong(let number):
                    try groups.reporter.refuse(
                        source: "line \(number)", message: "longer than \(groups.lines.maxLineBytes) bytes, not read")
                case .source(let source, _):
                    do {
                        let requests = try groups.requests(source)
                        guard !requests.isEmpty else { continue }
                        groups.remember(source, count: requests.count)
                        return requests
                    } catch {
                        try groups.reporter.refuse(source: source, message: ExitStatus.describing(error).message)
                    }
                }
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(groups: self, lines: lines.makeAsyncIterator()) }

    private func remember(_ source: String, count: Int) {
        let first = nextIndex.withLock { next in
            defer { next += count }
            return next
        }
        sources.withLock { for index in first..<first + count { $0[index] = source } }
    }
}
