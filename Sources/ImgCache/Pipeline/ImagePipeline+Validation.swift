extension ImagePipeline.Configuration {
    /// Throws `invalidArgument` naming the first setting out of its range: memory cache 0 to 64 GiB;
    /// 1 to 64 downloads and 1 to 64 decodes at once; 1 to 10,000 frames; a frame budget and a
    /// render pass budget of 0 to 16 GiB (a pass needs at least 1 byte); the loader's and the disk
    /// cache's own ranges.
    func validate() throws {
        let gibibyte = 1 << 30
        let ranges: [(String, Int, ClosedRange<Int>)] = [
            ("memory cache limit", memoryCacheLimit, 0...(64 * gibibyte)),
            ("downloads at once", maxConcurrentLoads, 1...64),
            ("decodes at once", maxConcurrentDecodes, 1...64),
            ("max frames", maxFrames, 1...10_000),
            ("frame budget", frameBudgetBytes, 0...(16 * gibibyte)),
            ("render pass budget", renderPassBudgetBytes, 1...(16 * gibibyte)),
        ]
        for (name, value, range) in ranges where !range.contains(value) {
            throw ImgCacheError.invalidArgument("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        if dataLoader == nil { try loading.validate() }
    }
}
