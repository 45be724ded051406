import Foundation

/// The sanitizer the tests run under, as `Tests/Sanitizers/run.sh` sets `IMGCACHE_SANITIZER`
/// ("address" or "thread"; unset in a normal run). The few tests that cannot work under one (they
/// preload a library of their own, or tune glibc's malloc, which a sanitizer replaces) skip, or
/// leave that part out, and say why.
public enum Sanitizer {
    /// The sanitizer's name, nil when none is active.
    public static var name: String? {
        ProcessInfo.processInfo.environment["IMGCACHE_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// True under any sanitizer.
    public static var isActive: Bool { name != nil }
}
