import Foundation
import Synchronization

/// A disk cache that several processes can share: files named `md5(key).ext` under `<root>/data/`,
/// indexed by SQLite in WAL mode at `<root>/index.sqlite`.
///
/// - A store writes into `<root>/tmp/`, renames the file into `data/` and commits its index row in one
///   write transaction, so no reader ever sees a partial file, and of two processes storing one key
///   the last rename is the one the row describes.
/// - A row whose file is missing or of the wrong size is a miss, and is removed.
/// - Reads are stamped in memory and written in batches; `sweep()` evicts least recently accessed
///   first, down to a low-water mark, when the total is over `sizeLimit`.
/// - Opening removes files left in tmp/ by writers that have ended, and, when a process that changed
///   the cache ended without closing it (or the index is new), reconciles the index with data/.
/// - A cache is made only in a folder that is missing or empty, and is marked (`<root>/CACHEDIR.TAG`
///   and the index's SQLite application id); any other folder that holds something is refused
///   untouched. Inside the cache, only files named as it names them are ever removed (see
///   `CacheFolder`); a cache of an earlier version, known by its index, is marked and kept.
/// - Only writes sync: a lookup, a read and the access stamps it leads to flush nothing to disk. The
///   index's WAL is checkpointed (what syncs in SQLite's WAL mode) by writes once it reaches
///   `CacheIndex.writerCheckpointPages`, by `sweep()` and by `close()` of an instance that wrote; by
///   any write, access stamps included, once it reaches `CacheIndex.walPageLimit`.
///
/// Every method is synchronous and thread-safe; one instance serialises its own calls. Index locks
/// held by other processes are waited for (up to `lockTimeout`), never reported as "database is locked".
/// Processes sharing a folder must see each other's process ids (one host or container): liveness
/// checks decide which temporary files are leftovers and whether a process ended without closing.
public final class DiskCache: Sendable {
    /// The configuration the cache was opened with.
    public let configuration: Configuration
    let folder: CacheFolder
    let state: Mutex<State>

    /// What the lock guards: the index connection (nil once closed), the pending access stamps, and
    /// whether this instance is in the index's sessions, which it is from its first write on.
    struct State {
        var index: CacheIndex?
        var stamps: AccessStamps
        let session: CacheIndex.Session
        var isRegistered = false
    }

    private static let instances = Atomic<Int>(0)

    /// Opens the cache at `configuration.root`, making it when the folder is missing or empty.
    /// - Throws: `ImgCacheError.io` naming the folder when it holds something and is not an imgcache
    ///   cache (nothing in it is changed), or cannot be made; `cacheIndex` when the index fails.
    public init(configuration: Configuration = Configuration()) throws {
        try configuration.validate()
        self.configuration = configuration
        let folder = CacheFolder(root: configuration.root)
        let claim = try folder.claim()
        try folder.checkIndexFiles()
        let index = try CacheIndex(folder: folder, claim: claim, lockTimeout: configuration.lockTimeout)
        if claim == .untaggedIndex { try folder.tag() }
        try folder.makeDataFolders()
        let session = CacheIndex.Session(
            process: .current, instance: Self.instances.wrappingAdd(1, ordering: .relaxed).newValue)
        var state = State(
            index: index, stamps: AccessStamps(
                flushCount: configuration.accessStampFlushCount, flushInterval: configuration.accessStampFlushInterval),
            session: session)
        let someoneEnded = try index.connection.read("open") { try index.sessions().contains { !$0.process.isAlive } }
        if someoneEnded || index.isNew {
            // Registered before it repairs, so that if this process ends mid-way the next open repairs again.
            let someoneCrashed = try Self.register(&state, index, removingEnded: true, durable: configuration.syncWrites)
            if someoneCrashed || index.isNew { _ = try Self.verify(index: index, folder: folder, repair: true) }
        } else {
            for path in folder.staleTemporaries() { folder.removeTemporary(path) }
        }
        self.folder = folder
        self.state = Mutex(state)
    }

    deinit { close() }

    /// Writes pending access stamps and closes the index; an instance that wrote first checkpoints
    /// the WAL into the database (without waiting for other processes) and unregisters. Later calls
    /// throw `ImgCacheError.cacheIndex`. Also done when the cache is deallocated.
    public func close() {
        state.withLock { state in
            guard let index = state.index else { return }
            try? Self.flush(&state, index)
            if state.isRegistered {
                try? index.checkpoint(.passive)
                try? index.connection.writeTransaction("close") { try index.delete(state.session) }
            }
            index.connection.close()
            state.index = nil
        }
    }

    /// The cache folder.
    public var root: URL { folder.root }

    // MARK: Reading

    /// The entry stored for `key`, with its file checked to exist at the recorded size; nil on a miss.
    /// A row whose file is missing or of another size is removed (with the file) and is a miss. The
    /// file stays complete, but another process may evict or replace it after this returns.
    public func entry(for key: String) throws -> CacheEntry? {
        try locked { state, index in
            guard let entry = try index.connection.read("look up", { try index.entry(for: key) }) else { return nil }
            guard folder.state(ofDataFile: entry.fileName) == .regular(size: entry.byteCount) else {
                return try repair(key, &state, index)
            }
            try recordAccess(key, &state, index)
            return entry
        }
    }

    /// The bytes stored for `key`, or nil on a miss (as for `entry(for:)`).
    public func data(for key: String) throws -> Data? {
        guard let entry = try locked({ _, index in try index.connection.read("look up", { try index.entry(for: key) }) })
        else { return nil }
        var found = try folder.readDataFile(entry.fileName, expectedSize: entry.byteCount)
        if found == nil, let current = try locked({ state, index in try repair(key, &state, index) }) {
            found = try folder.readDataFile(current.fileName, expectedSize: current.byteCount)
        }
        guard let found else { return nil }
        try locked { state, index in try recordAccess(key, &state, index) }
        return found
    }

    /// Stamps `keys` as read at `time` (seconds since 1970), as their lookups would have: for
    /// reads answered without a lookup (see `RememberedVariants`).
    func recordAccesses(to keys: [String], at time: Double) throws {
        try locked { state, index in
            for key in keys where state.stamps.record(key, at: time) {
                try Self.flush(&state, index)
            }
        }
    }

    // MARK: Writing

    /// Stores `data` for `key`, replacing what was stored, and returns the new entry once the file is
    /// in place and its row committed. With `syncWrites` the file is flushed to disk before its
    /// rename (and the folder after the rename when it replaces a file of the same name), so that a
    /// power cut can lose the entry but never leave its row describing other bytes. When the total
    /// goes over the limit it sweeps, sparing the new entry.
    ///
    /// - Parameters:
    ///   - data: the bytes to store.
    ///   - key: the entry's key (an original's URL key, or a variant's).
    ///   - kind: `.original` (default) names the file after the URL path's extension of `key`;
    ///     `.variant(of:)` links the entry to its original and names the file after `format`.
    ///   - format: the variant's output format; ignored for originals. Default nil (no extension).
    ///   - contentType: the response's Content-Type, stored as given. Default nil.
    ///   - etag: the response's ETag, stored as given for revalidation. Default nil.
    ///   - lastModified: the response's Last-Modified, stored as given for revalidation. Default nil.
    ///   - expiresAt: when the stored response stops being fresh. Default nil (never).
    ///   - durable: false skips the file's fsync even under `syncWrites`, for data that is cheap to
    ///     make again and checked when read (image facts). Default true.
    /// - Throws: `invalidArgument` when `data` alone is over `sizeLimit`; `io` or `cacheIndex` when the
    ///   file or its row cannot be written (the key then holds its previous bytes, or is a miss).
    @discardableResult
    public func store(
        _ data: Data, for key: String, kind: CacheEntry.Kind = .original, format: ImageFormat? = nil,
        contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, expiresAt: Date? = nil,
        durable: Bool = true
    ) throws -> CacheEntry {
        try checkSize(data.count, for: key)
        let temporary = try folder.writeTemporary(data, sync: configuration.syncWrites && durable)
        return try commit(
            temporary, byteCount: data.count, for: key, kind: kind, format: format, contentType: contentType, etag: etag,
            lastModified: lastModified, expiresAt: expiresAt)
    }

    /// Stores the file at `path` (a new file in this cache's tmp/ folder, `byteCount` bytes long)
    /// for `key` by moving it into place, as `store(_:for:...)` stores bytes; the file is gone
    /// afterwards, stored or, on failure, removed. For downloads written to a file as they arrived.
    /// - Throws: `invalidArgument` when the file is not in tmp/ or is over `sizeLimit`; as
    ///   `store(_:for:...)` otherwise.
    @discardableResult
    func store(
        movingFileAt path: String, byteCount: Int, for key: String, kind: CacheEntry.Kind = .original,
        contentType: String? = nil, etag: String? = nil, lastModified: String? = nil, expiresAt: Date? = nil
    ) throws -> CacheEntry {
        guard (path as NSString).deletingLastPathComponent == folder.temporaryPath else {
            throw ImgCacheError.invalidArgument("\(path) is not in the cache's tmp/ folder")
        }
        try checkSize(byteCount, for: key)
        if configuration.syncWrites { try folder.syncTemporary(path) }
        return try commit(
            path, byteCount: byteCount, for: key, kind: kind, format: nil, contentType: contentType, etag: etag,
            lastModified: lastModified, expiresAt: expiresAt)
    }

    /// The folder files are moved from by `store(movingFileAt:...)`: this cache's tmp/.
    var temporaryFolder: URL { URL(fileURLWithPath: folder.temporaryPath, isDirectory: true) }

    private func checkSize(_ byteCount: Int, for key: String) throws {
        guard byteCount <= configuration.sizeLimit else {
            throw ImgCacheError.invalidArgument(
                "\(byteCount) bytes for \(key) is over the cache size limit of \(configuration.sizeLimit) bytes")
        }
    }

    /// Moves the finished `temporary` file into place for `key` and commits its row; sweeps when
    /// the total goes over the limit.
    private func commit(
        _ temporary: String, byteCount: Int, for key: String, kind: CacheEntry.Kind, format: ImageFormat?,
        contentType: String?, etag: String?, lastModified: String?, expiresAt: Date?
    ) throws -> CacheEntry {
        let name: String
        switch kind {
        case .original: name = CacheKey.fileName(forOriginal: key)
        case .variant: name = CacheKey.fileName(for: key, fileExtension: format?.fileExtension)
        }
        let (entry, total) = try locked { state, index in
            var renamed = false
            let committed: (CacheEntry, Int)
            do {
                committed = try write("store", &state, index) { _ in
                    // Stamped once the write lock is held, so that stamps follow commit order.
                    let now = Date()
                    let entry = CacheEntry(
                        key: key, fileName: name, fileURL: URL(fileURLWithPath: folder.dataFilePath(name)), kind: kind,
                        byteCount: byteCount, contentType: contentType, etag: etag, lastModified: lastModified,
                        expiresAt: expiresAt, createdAt: now, lastAccessAt: now)
                    if let previous = try index.entry(for: key), previous.fileName != name {
                        folder.removeDataFile(previous.fileName)
                    }
                    let replaces = folder.state(ofDataFile: name) != .missing
                    try folder.moveIntoPlace(temporary, name: name)
                    renamed = true
                    // The rename must reach the disk before a row that could describe the old file.
                    if replaces && configuration.syncWrites { try folder.syncData() }
                    try index.upsert(entry)
                    return (entry, try index.totals().bytes)
                }
            } catch {
                // Not committed: the renamed file (ours, as the write lock is still ours) goes too.
                if renamed { folder.removeDataFile(name) } else { folder.removeTemporary(temporary) }
                throw error
            }
            state.stamps.forget(key)
            if state.stamps.isDue(at: committed.0.createdAt.timeIntervalSince1970) { try Self.flush(&state, index) }
            return committed
        }
        if total > configuration.sizeLimit && configuration.sweepsWhenOverLimit {
            try sweep(sparingFrom: entry.lastAccessAt)
        }
        return entry
    }

    /// Records a revalidation (an HTTP 304) without rewriting the bytes: sets the expiry, replaces the
    /// validators that are given (nil keeps the stored one) and stamps the entry accessed. Returns the
    /// updated entry, or nil when `key` is not stored.
    @discardableResult
    public func refresh(
        for key: String, expiresAt: Date?, etag: String? = nil, lastModified: String? = nil
    ) throws -> CacheEntry? {
        try locked { state, index in
            try write("refresh", &state, index) { state in
                guard let stored = try index.entry(for: key) else { return nil }
                _ = try index.refresh(
                    key: key, etag: etag ?? stored.etag, lastModified: lastModified ?? stored.lastModified,
                    expiresAt: expiresAt, now: Date())
                state.stamps.forget(key)
                return try index.entry(for: key)
            }
        }
    }

    /// Removes the entry for `key` and its file; with `cascadeVariants`, also every variant stored from
    /// it. Default false. Returns the number of entries removed.
    @discardableResult
    public func remove(key: String, cascadeVariants: Bool = false) throws -> Int {
        try locked { state, index in
            try write("remove", &state, index) { state in
                var removed = try index.entry(for: key).map { [$0] } ?? []
                if cascadeVariants { removed += try index.variants(of: key) }
                for entry in removed {
                    try index.delete(key: entry.key)
                    folder.removeDataFile(entry.fileName)
                    state.stamps.forget(entry.key)
                }
                return removed.count
            }
        }
    }

    // MARK: Internals

    /// Runs `body` under the lock with the open index.
    func locked<T: Sendable>(_ body: (inout State, CacheIndex) throws -> T) throws -> T {
        try state.withLock { state in
            guard let index = state.index else {
                throw ImgCacheError.cacheIndex(path: folder.indexPath, detail: "the cache is closed")
            }
            return try body(&state, index)
        }
    }

    /// Runs `body` in a write transaction that changes entries or data/, registered first, then
    /// checkpoints when the WAL has reached `CacheIndex.writerCheckpointPages`.
    func write<T>(
        _ operation: String, _ state: inout State, _ index: CacheIndex, _ body: (inout State) throws -> T
    ) throws -> T {
        try Self.register(&state, index, removingEnded: false, durable: configuration.syncWrites)
        let result = try index.connection.writeTransaction(operation) { try body(&state) }
        index.checkpoint(ifWALPagesAtLeast: CacheIndex.writerCheckpointPages)
        return result
    }

    /// Adds this instance to the index's sessions unless it is there, so that if it ends without
    /// closing, the next open reconciles the index with data/; with `removingEnded`, removes the
    /// sessions of processes that have ended, and returns whether there were any. With `durable` the
    /// row is flushed to disk (one sync, once an instance), so that a power cut cannot lose it yet
    /// keep a file renamed into data/ after it.
    @discardableResult
    static func register(_ state: inout State, _ index: CacheIndex, removingEnded: Bool, durable: Bool) throws -> Bool {
        guard !state.isRegistered else { return false }
        let session = state.session
        let someoneEnded = try index.writeTransaction("register", durable: durable) {
            let ended = removingEnded ? try index.sessions().filter { !$0.process.isAlive } : []
            for old in ended { try index.delete(old) }
            try index.insert(session, now: Date())
            return !ended.isEmpty
        }
        state.isRegistered = true
        return someoneEnded
    }

    /// Under the write lock, where no other process is between a rename and its commit: returns the
    /// entry for `key` when its file is as recorded, else removes the row (and a wrong file) and returns nil.
    private func repair(_ key: String, _ state: inout State, _ index: CacheIndex) throws -> CacheEntry? {
        try write("repair", &state, index) { _ in
            guard let entry = try index.entry(for: key) else { return nil }
            switch folder.state(ofDataFile: entry.fileName) {
            case .regular(let size) where size == entry.byteCount:
                return entry
            case .missing:
                try index.delete(key: key)
            case .regular, .other:
                try index.delete(key: key)
                folder.removeDataFile(entry.fileName)
            }
            return nil
        }
    }

    private func recordAccess(_ key: String, _ state: inout State, _ index: CacheIndex) throws {
        if state.stamps.record(key, at: Date().timeIntervalSince1970) { try Self.flush(&state, index) }
    }

    /// Writes the pending access stamps in one transaction, which syncs nothing: it checkpoints only
    /// once the WAL has reached `CacheIndex.walPageLimit`.
    static func flush(_ state: inout State, _ index: CacheIndex) throws {
        guard !state.stamps.pending.isEmpty else { return }
        let stamps = state.stamps.take()
        try index.stampAccesses(stamps)
        index.checkpoint(ifWALPagesAtLeast: CacheIndex.walPageLimit)
    }
}
