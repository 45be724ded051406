import Synchronization

/// A request being prepared, made by `ImagePipeline.task(for:)`: its priority can change while it
/// waits, it can be cancelled, and it reports its download progress and its events.
///
/// Cancelling a task that shares its work with others (the same image requested elsewhere) leaves
/// the work running for them; the work is cancelled when every request waiting on it is.
public final class ImageTask: Sendable {
    /// Bytes of the original received so far, and the total when the server said it.
    public struct Progress: Sendable, Hashable {
        /// Bytes of the original received so far.
        public let receivedBytes: Int64
        /// From `Content-Length`; nil when the server did not send one.
        public let expectedBytes: Int64?

        /// Received over expected, from 0 to 1; nil when the total is not known.
        public var fraction: Double? {
            guard let expectedBytes, expectedBytes > 0 else { return nil }
            return min(1, Double(receivedBytes) / Double(expectedBytes))
        }
    }

    /// What happens to a task, in order: `started`, any number of `progress` while the original
    /// downloads (none when it came from a cache), then `cacheOutcome` and `finished`, or `failed`.
    public enum Event: Sendable {
        /// The task began (its first event).
        case started
        /// More of the original arrived.
        case progress(Progress)
        /// Where the image came from.
        case cacheOutcome(CacheOutcome)
        /// The image is prepared (the last event).
        case finished(ImageResponse)
        /// The request failed, with the error `image(for:)` would throw (the last event).
        case failed(any Error)
    }

    /// The request being prepared.
    public let request: ImageRequest
    /// The events, as they happen; the stream ends after `finished` or `failed`. It keeps the
    /// newest 100 events for a reader that falls behind (so the last ones always), and is meant
    /// for one reader.
    public let events: AsyncStream<Event>

    /// The latest progress, written on the loader's threads.
    private final class LatestProgress: Sendable {
        let value = Mutex(Progress(receivedBytes: 0, expectedBytes: nil))
    }

    private let context: WorkContext
    private let received = LatestProgress()
    private let work: Task<ImageResponse, any Error>

    /// Starts `run` with this task's context at once.
    init(request: ImageRequest, run: @escaping @Sendable (WorkContext) async throws -> ImageResponse) {
        self.request = request
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(100))
        self.events = events
        let received = self.received
        context = WorkContext(priority: request.priority) { bytes, expected in
            let progress = Progress(receivedBytes: bytes, expectedBytes: expected)
            received.value.withLock { $0 = progress }
            continuation.yield(.progress(progress))
        }
        let context = self.context
        continuation.yield(.started)
        work = Task {
            do {
                let response = try await run(context)
                continuation.yield(.cacheOutcome(response.cacheOutcome))
                continuation.yield(.finished(response))
                continuation.finish()
                return response
            } catch {
                continuation.yield(.failed(error))
                continuation.finish()
                throw error
            }
        }
    }

    /// How soon the task's download and decode start among those waiting; raising it while the
    /// task waits moves it (and any work it shares) ahead of lower ones. Default: the request's.
    public var priority: ImageRequest.Priority {
        get { context.priority }
        set { context.setPriority(newValue) }
    }

    /// The original's bytes received so far.
    public var progress: Progress { received.value.withLock { $0 } }

    /// The prepared image, once it is ready; throws what preparing it threw (`CancellationError`
    /// after `cancel()`).
    public var response: ImageResponse {
        get async throws { try await work.value }
    }

    /// Stops waiting for the image: the task fails with `CancellationError`.
    public func cancel() {
        work.cancel()
    }
}
