/// One request of a streamed prefetch (`ImagePipeline.prefetch(stream:fallback:window:)`), done.
public struct PrefetchResult: Sendable {
    /// The request's place among all the requests of the stream, from 0.
    public let index: Int
    /// The request as given.
    public let request: ImageRequest
    /// The variant prepared (the fallback's, with the source's failure, when a fallback stood in),
    /// or the error: the source's when no fallback covers it, else the fallback's own.
    public let result: Result<FallbackSummary, any Error>
    /// True for the last result of its group: the group's place in the window is free once it is read.
    let endsGroup: Bool
}
