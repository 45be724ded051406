import CMalloc
import Foundation

/// How many malloc arenas the `imgcache` process uses. glibc gives a thread that allocates while
/// another holds the arena an arena of its own, up to 8 per core, and each keeps the memory freed
/// in it for its next allocations: a long `prefetch` or `serve`, whose work hops between pool
/// threads, spread its small allocations over more and more arenas, and its resident memory grew
/// by about 25 bytes a URL with no live data behind it. One arena per core keeps threads from
/// waiting on each other and the freed memory reused.
public enum MallocArenas {
    /// The arenas for a process on `cores` cores, unless `environment` sets `MALLOC_ARENA_MAX`
    /// (glibc's own knob, which then wins): one per core, at least 1. Nil when the environment decides.
    static func limit(cores: Int, environment: [String: String]) -> Int32? {
        guard environment["MALLOC_ARENA_MAX"] == nil else { return nil }
        return Int32(clamping: max(1, cores))
    }

    /// Sets the limit of `limit(cores:environment:)` for this process (the online cores, its
    /// environment); call it first thing, before any thread starts. Returns the limit set, nil
    /// when `MALLOC_ARENA_MAX` decides or glibc refused.
    @discardableResult
    public static func limitToCores() -> Int32? {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard let arenas = limit(cores: cores, environment: ProcessInfo.processInfo.environment),
              mallopt(M_ARENA_MAX, arenas) == 1 else { return nil }
        return arenas
    }
}
