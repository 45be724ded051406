extension ImagePipeline.Configuration {
    /// Throws `invalidArgument` naming the first setting out of its range: memory cache 0 to 64 GiB;
    /// 0 to 10,000,000 remembered variants;
    /// 1 to 64 downloads and 1 to 64 decodes at once; decoding memory of 1 MiB to 64 GiB; 1 to
    /// 10,000 frames; a frame budget of 0 to 64 MiB; a render pass budget of 1 byte to 16 GiB; positive decoding limits; the loader's and
    /// the disk cache's own ranges; the Redis tier's settings (see `RedisConfiguration.validate()`); the key policy's query item names.
    func validate() throws {
        let gibibyte = 1 << 30
        let ranges: [(String, Int, ClosedRange<Int>)] = [
            ("memory cache limit", memoryCacheLimit, 0...(64 * gibibyte)),
            ("remembered variants", rememberedVariantLimit, 0...10_000_000),
            ("downloads at once", maxConcurrentLoads, 1...64),
            ("decodes at once", maxConcurrentDecodes, 1...64),
            ("decoding memory", decodingMemoryBytes, (1 << 20)...(64 * gibibyte)),
            ("max frames", maxFrames, DecodingOptions.frameCounts),
            ("frame budget", frameBudgetBytes, DecodingOptions.frameBudgets),
            ("render pass budget", renderPassBudgetBytes, 1...(16 * gibibyte)),
        ]
        for (name, value, range) in ranges where !range.contains(value) {
            throw ImgCacheError.invalidArgument("\(name) \(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        try limits.validate()
        if dataLoader == nil { try loading.validate() }
        try redis?.validate()
        try keyPolicy.validate()
    }
}
