/// Fetches the bytes of a URL: the seam between the image pipeline and the network. `DataLoader`
/// is the real one; tests put doubles here.
public protocol DataLoading: Sendable {
    /// Loads `request.url`, conditionally when `request.validators` are given.
    ///
    /// - Returns: a 2xx response with its body, or, for a conditional request, a 304 Not
    ///   Modified with no body.
    /// - Throws: `ImgCacheError` (`.invalidURL`, `.httpStatus`, `.tooLarge`, `.timeout`, `.network`,
    ///   `.io` for local files, `.invalidArgument` for headers that break `HTTPHeaderField`'s rules),
    ///   or `CancellationError` when the calling task is cancelled.
    func load(_ request: DataRequest) async throws -> DataResponse
}
