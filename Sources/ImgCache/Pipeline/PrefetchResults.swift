/// The results of a streamed prefetch, in the order they finish. Reading the last result of a
/// group frees its place in the window, so a reader that falls behind holds the prefetch back
/// rather than letting finished results queue up. Ends with the error of the request sequence
/// when it throws (after the groups already started have finished).
public struct PrefetchResults: AsyncSequence, Sendable {
    public typealias Element = PrefetchResult

    let results: AsyncThrowingStream<PrefetchResult, any Error>
    let freed: AsyncStream<Void>.Continuation

    public struct AsyncIterator: AsyncIteratorProtocol {
        var results: AsyncThrowingStream<PrefetchResult, any Error>.AsyncIterator
        let freed: AsyncStream<Void>.Continuation

        public mutating func next() async throws -> PrefetchResult? {
            let result = try await results.next()
            if result?.endsGroup == true { freed.yield() }
            return result
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(results: results.makeAsyncIterator(), freed: freed)
    }
}
