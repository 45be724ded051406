import Foundation
import ImgCache

/// `imgcache cache stats|ls|prune|clear|verify|path URL [--cache-dir DIR] [--json]`
enum CacheCommand: Command {
    static let name = "cache"
    static let summary = "inspect, prune, clear or verify the disk cache"
    static var operands: OptionHelp.Value? { .words(subverbs.flatMap(\.names)) }
    static let usage = "imgcache cache stats|ls|prune|clear|verify|path URL [options]"
    static let about = """
        Works on the disk cache that imgcache processes share: <dir>/data/ holds the files, named
        md5(key).ext, and <dir>/index.sqlite indexes them. A folder that holds anything else and is
        no imgcache cache is refused (exit 6), untouched.
        """
    static let subverbs: [OptionHelp] = [
        OptionHelp("stats", "entries, bytes against the size limit, originals and variants, expired entries"),
        OptionHelp("ls", "every entry, most recently used first: bytes, kind, last access, key"),
        OptionHelp("prune", """
            removes entries unused for 7 days, then, when over the size limit, the least
            recently used down to 70% of it
            """),
        OptionHelp("clear", "removes every entry"),
        OptionHelp("verify", """
            compares the index with data/: rows without files, files without rows, size
            mismatches; exits 7 when it finds any (unless --repair fixed them)
            """),
        OptionHelp("path", "URL", .text, "prints the file holding URL's entry (where its original goes when not stored)"),
    ]
    static let helpColumn = 18
    static let options: [OptionHelp] = [
        OptionHelp("--cache-dir", "DIR", .directory, """
            the cache folder (default $IMGCACHE_DIR, else $XDG_CACHE_HOME/imgcache,
            else ~/.cache/imgcache)
            """),
        OptionHelp("--json", "print JSON instead of text"),
        OptionHelp("--size-limit", "SIZE", .text, "prune: the limit to trim to, e.g. 100MB (default 256MB; 1 MB = 2^20 B)"),
        OptionHelp("--repair", "verify: remove what is inconsistent"),
        OptionHelp("--ignore-query", "L", .text, """
            path: query items left out of the key, as fetch takes them (default
            $IMGCACHE_IGNORE_QUERY)
            """),
        OptionHelp("--redis", "URL", .text, """
            stats: also the shared Redis tier's counters, added up over every instance
            (default $IMGCACHE_REDIS): hits, misses, stores, errors
            """),
    ]

    static func run(_ arguments: inout ArgumentList) throws {
        let folder = try CacheDirectoryOption.value(&arguments)
        let json = arguments.flag("--json")
        let repair = arguments.flag("--repair")
        let sizeLimit = try arguments.value("--size-limit", expected: "a byte count such as 100MB", parse: parseByteCount)
        let redisOption = try arguments.value("--redis")
        let ignored = try arguments.value("--ignore-query") ?? ProcessInfo.processInfo.environment["IMGCACHE_IGNORE_QUERY"]
        let words = try (try? arguments.positionals(2, usage: usage)) ?? arguments.positionals(1, usage: usage)
        let verb = words[0]
        guard ["stats", "ls", "prune", "clear", "verify", "path"].contains(verb) else {
            throw UsageError("unknown cache verb '\(verb)'; usage: \(usage)")
        }
        if verb == "path" && words.count < 2 { throw UsageError("missing URL; usage: imgcache cache path URL") }
        if verb != "path" && words.count > 1 { throw UsageError("unexpected argument '\(words[1])'") }
        if repair && verb != "verify" { throw UsageError("--repair applies to 'verify' only") }
        if sizeLimit != nil && verb != "prune" { throw UsageError("--size-limit applies to 'prune' only") }
        if redisOption != nil && verb != "stats" { throw UsageError("--redis applies to 'stats' only") }

        var configuration = DiskCache.Configuration()
        if let folder { configuration.root = folder }
        if let sizeLimit { configuration.sizeLimit = sizeLimit }
        let cache = try DiskCache(configuration: configuration)
        let output = CacheOutput(json: json)
        switch verb {
        case "stats":
            let redis = try RedisOption.configuration(redisOption).map { configuration in
                (configuration, RedisTier(configuration: configuration, log: RedisOption.log).sharedCounters())
            }
            try output.print(stats: try cache.stats(), root: cache.root, redis: redis)
        case "ls": try output.print(entries: try cache.entries())
        case "prune": try output.print(removal: try cache.sweep())
        case "clear": try output.print(removal: try cache.clear())
        case "verify":
            let report = try cache.verify(repair: repair)
            try output.print(report: report)
            if !report.isConsistent && !repair {
                throw ImgCacheError.cacheIndex(
                    path: cache.root.appendingPathComponent("index.sqlite").path,
                    detail: "\(report.issueCount) inconsistencies with data/; run 'imgcache cache verify --repair'")
            }
        default:
            // A URL's original is stored under its key (no fragment, no ignored query items); a
            // variant's key is taken as it is.
            let policy = CacheKeyPolicy(ignoredQueryItems: RequestArguments.queryItems(ignored))
            try policy.validate()
            var key = CacheKey.isVariantKey(words[1]) ? words[1] : String(words[1].prefix { $0 != "#" })
            if !policy.ignoredQueryItems.isEmpty, !CacheKey.isVariantKey(key), let url = URL(string: key) {
                key = policy.key(for: url)
            }
            let entry = try cache.entry(for: key)
            let path = entry?.fileURL.path
                ?? cache.root.appendingPathComponent("data").appendingPathComponent(CacheKey.fileName(forOriginal: key)).path
            try output.print(path: path, key: key, entry: entry)
        }
    }
}
