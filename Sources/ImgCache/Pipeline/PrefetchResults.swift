/// The results of a streamed prefetch, in the order they finish; to be read once. Reading the
/// last result of a group frees its place in the window, so a reader that falls behind holds the
/// prefetch back rather than letting finished results queue up; a reader that stops (its iterator
/// released) cancels the work left. Ends with the error of the request sequence when it throws
/// (after the groups already started have finished).
public struct PrefetchResults: AsyncSequence, Sendable {
    public typealias Element = PrefetchResult

    let results: AsyncThrowingStream<PrefetchResult, any Error>
    let freed: AsyncStream<Void>.Continuation
    let work: Task<Void, Never>

    public struct AsyncIterator: AsyncIteratorProtocol {
        var results: AsyncThrowingStream<PrefetchResult, any Error>.AsyncIterator
        let reading: Reading

        public mutating func next() async throws -> PrefetchResult? {
            let result = try await results.next()
            if result?.endsGroup == true { reading.freed.yield() }
            return result
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(results: results.makeAsyncIterator(), reading: Reading(freed: freed, work: work))
    }

    /// A reader of the results: once it is gone, nothing frees a place again, so the work ends.
    final class Reading: Sendable {
        let freed: AsyncStream<Void>.Continuation
        let work: Task<Void, Never>

        init(freed: AsyncStream<Void>.Continuation, work: Task<Void, Never>) {
            self.freed = freed
            self.work = work
        }

        deinit {
            work.cancel()
            freed.finish()
        }
    }
}
