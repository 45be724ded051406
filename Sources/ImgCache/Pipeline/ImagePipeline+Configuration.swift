import Foundation

extension ImagePipeline {
    /// Every setting of a pipeline, with its default. Loading limits (byte limit, time-outs,
    /// redirects, retries, default TTL) are the `DataLoader.Configuration` defaults; cache limits
    /// (256 MiB on disk trimmed to 70%, 7-day TTL) are the `DiskCache.Configuration` defaults.
    public struct Configuration: Sendable {
        /// How originals are fetched when `dataLoader` is nil. Default `DataLoader.Configuration()`:
        /// connections kept alive, 50 MiB byte limit, 10 s connect, 30 s idle and 60 s overall
        /// time-outs, 5 redirects, 3 attempts with back-off, 1 hour default TTL, no file URLs.
        public var loading: DataLoader.Configuration
        /// A loader to use instead of a `DataLoader` made from `loading` (a test double, say).
        /// Default nil.
        public var dataLoader: (any DataLoading)?
        /// Where originals and variants are stored. Default: a `DiskCache` at
        /// `DiskCache.Configuration.defaultRoot()`, opened by `ImagePipeline.init`.
        public var diskCache: DiskCache.Configuration
        /// Bytes of decoded frames the memory cache keeps. Default 64 MiB.
        public var memoryCacheLimit: Int
        /// Stored variants whose place the pipeline remembers, so that `prepare` of one costs a
        /// `stat` of its file, and `storedSummary(for:)` can answer without waiting. Under 1 KB
        /// each (about 9 MB at the default). Default 10,000; 0 to 10,000,000 (0 remembers none).
        public var rememberedVariantLimit: Int
        /// Downloads at once. Default 8. A loader opens at most 4 connections to one host (see
        /// `DataLoader.Configuration.reusesConnections`): over HTTP/1.1 the downloads beyond 4 wait
        /// for a free connection; over HTTP/2 they share one, which hides latency.
        public var maxConcurrentLoads: Int
        /// Decodes (and encodes) at once. Default: one per core.
        public var maxConcurrentDecodes: Int
        /// Bytes the decodes running at once may hold together, each estimated from its source's
        /// header (its pixels at the source's resolution, and its output frames three times over
        /// for the encoders' copies). A decode waits until its estimate fits beside those running;
        /// one estimated over the whole runs alone. Default 192 MiB, which lets a decode at the
        /// default limits (128 MiB at the source's resolution, a 64 MiB output) run alone and
        /// keeps the process under about 250 MB; 1 MiB to 64 GiB.
        public var decodingMemoryBytes: Int
        /// Frames kept when a request does not say. Default 50.
        public var maxFrames: Int
        /// Bytes kept frames may take when a request does not say. Default 15 MiB.
        public var frameBudgetBytes: Int
        /// Pixel and memory limits checked before decoding. Default `DecodingLimits()`: 100 megapixels
        /// a frame, 1 gigapixel in all, a 4096 x 4096 output, 128 MiB at the source's resolution.
        public var limits: DecodingLimits
        /// Bytes of output frames one decode holds when it renders several targets of one original
        /// at once (`prefetch` with several sizes of a URL); more targets take further passes.
        /// Default 64 MiB (`ImageDecoder.defaultPassBudgetBytes`).
        public var renderPassBudgetBytes: Int
        /// The shared Redis tier under the local caches: looked up after the disk cache and
        /// before the network, written with every download and rendered variant, and leased so
        /// that one instance of a fleet downloads each original. Default nil: no tier.
        public var redis: RedisConfiguration?
        /// How an original's cache key is made from its URL: query items left out (signatures
        /// and expiry dates of presigned URLs), or a function of the URL. Variant keys and Redis
        /// keys follow it; downloads use the full URL. Default `CacheKeyPolicy()`: the URL
        /// without its fragment. A request's `cacheKey` overrides it.
        public var keyPolicy: CacheKeyPolicy
        /// Tiers looked up after the disk cache and the Redis tier, in order, for originals and
        /// variants (an object store, say): a hit is stored on the disk, and what is downloaded
        /// or rendered is written to every tier the request's storage policy allows. Default []:
        /// none.
        public var tiers: [any DataCaching]
        /// Receives warnings the pipeline recovers from, such as the Redis tier becoming
        /// unavailable (once per outage). Default nil: not reported.
        public var log: (@Sendable (String) -> Void)?

        /// A configuration with each setting at the default its property states unless given;
        /// `ImagePipeline.init(configuration:)` refuses a value out of its range with
        /// `invalidArgument`.
        public init(
            loading: DataLoader.Configuration = DataLoader.Configuration(),
            dataLoader: (any DataLoading)? = nil,
            diskCache: DiskCache.Configuration = DiskCache.Configuration(),
            memoryCacheLimit: Int = 64 << 20,
            rememberedVariantLimit: Int = 10_000,
            maxConcurrentLoads: Int = 8,
            maxConcurrentDecodes: Int = ProcessInfo.processInfo.activeProcessorCount,
            decodingMemoryBytes: Int = 192 << 20,
            maxFrames: Int = 50,
            frameBudgetBytes: Int = 15 << 20,
            limits: DecodingLimits = DecodingLimits(),
            renderPassBudgetBytes: Int = ImageDecoder.defaultPassBudgetBytes,
            redis: RedisConfiguration? = nil,
            keyPolicy: CacheKeyPolicy = CacheKeyPolicy(),
            tiers: [any DataCaching] = [],
            log: (@Sendable (String) -> Void)? = nil
        ) {
            self.loading = loading
            self.dataLoader = dataLoader
            self.diskCache = diskCache
            self.memoryCacheLimit = memoryCacheLimit
            self.rememberedVariantLimit = rememberedVariantLimit
            self.maxConcurrentLoads = maxConcurrentLoads
            self.maxConcurrentDecodes = maxConcurrentDecodes
            self.decodingMemoryBytes = decodingMemoryBytes
            self.maxFrames = maxFrames
            self.frameBudgetBytes = frameBudgetBytes
            self.limits = limits
            self.renderPassBudgetBytes = renderPassBudgetBytes
            self.redis = redis
            self.keyPolicy = keyPolicy
            self.tiers = tiers
            self.log = log
        }
    }
}
