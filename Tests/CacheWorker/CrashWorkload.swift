import Foundation
import ImgCache

/// Stores, replaces, refreshes, removes and sweeps without end, for a test to kill at random moments.
struct CrashWorkload {
    let cache: DiskCache
    var random: SplitMix

    init(cache: DiskCache, seed: UInt64) {
        self.cache = cache
        random = SplitMix(seed: seed)
    }

    mutating func run() throws -> Never {
        var stored = 0
        while true {
            let key = "crash-\(Int.random(in: 0..<48, using: &random))"
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<75:
                stored += 1
                let payload = Payload(
                    key: key, version: "\(getpid()).\(stored)", size: Int.random(in: 1_000...64_000, using: &random))
                try cache.store(payload.bytes, for: key, etag: "\"\(payload.version)\"")
            case 75..<85: try cache.remove(key: key)
            case 85..<92: try cache.refresh(for: key, expiresAt: Date().addingTimeInterval(60))
            default: try cache.sweep()
            }
        }
    }
}
