import Synchronization

/// A duration histogram, as `PipelineMetrics` and the server keep them: observations in seconds
/// counted into fixed buckets (1 ms to 10 s, then +Inf), with their count and sum, behind a lock
/// of its own so that histograms recorded at the same time do not wait for each other. Recording
/// takes the lock once and allocates nothing.
public final class MetricsHistogram: Sendable {
    /// The buckets' upper bounds in seconds, each inclusive, from 1 ms to 10 s. Beyond the last,
    /// the +Inf bucket takes every observation.
    static let upperBounds: Buckets<Double> = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// A value per bucket with a finite upper bound: the array literal of `upperBounds` must have
    /// exactly this many elements.
    typealias Buckets<Element> = InlineArray<13, Element>

    private struct State {
        /// Observations per finite bucket, not cumulative: at index i those over the bound before
        /// i and at most `upperBounds[i]`.
        var counts = Buckets<Int>(repeating: 0)
        /// Every observation, including those over the last bound.
        var count = 0
        var sum = 0.0
    }

    private let state = Mutex(State())

    /// An empty histogram: every bucket, the count and the sum at 0.
    public init() {}

    /// Counts `seconds` in its bucket and adds it to the sum. A negative or NaN duration (which a
    /// monotonic clock never gives) counts as 0, so that the sum stays usable.
    public func observe(seconds: Double) {
        let value = seconds.isNaN || seconds < 0 ? 0 : seconds
        var bucket: Int?
        for index in Self.upperBounds.indices where value <= Self.upperBounds[index] {
            bucket = index
            break
        }
        state.withLock { state in
            if let bucket { state.counts[bucket] += 1 }
            state.count += 1
            state.sum += value
        }
    }

    /// The count, sum and cumulative buckets, read at once (the +Inf bucket, last, always equals
    /// the count).
    public func snapshot() -> PipelineMetrics.HistogramSnapshot {
        let state = state.withLock { $0 }
        var buckets: [PipelineMetrics.HistogramSnapshot.Bucket] = []
        buckets.reserveCapacity(Self.upperBounds.count + 1)
        var cumulative = 0
        for index in Self.upperBounds.indices {
            cumulative += state.counts[index]
            buckets.append(.init(upperBound: Self.upperBounds[index], cumulativeCount: cumulative))
        }
        buckets.append(.init(upperBound: .infinity, cumulativeCount: state.count))
        return PipelineMetrics.HistogramSnapshot(count: state.count, sum: state.sum, buckets: buckets)
    }
}
