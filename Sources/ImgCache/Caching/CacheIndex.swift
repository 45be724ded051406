import Foundation

/// The SQLite index of a disk cache (`<root>/index.sqlite`, WAL mode): one row per entry with its
/// file name, kind, size, HTTP metadata and access stamp; running totals kept by triggers; and the
/// processes that have the cache open. Times are seconds since 1970.
final class CacheIndex {
    /// An entry's key, file and size: what eviction and verification need.
    struct FileRow {
        let key: String
        let file: String
        let bytes: Int
    }

    /// A process (and instance within it) that has the cache open.
    struct Session: Hashable {
        let process: ProcessIdentity
        let instance: Int
    }

    static let schemaVersion = 1

    /// WAL size in pages (of 4 KiB) from which a write that changes entries or sessions
    /// checkpoints: 1 MiB, some 50 stores. The first process to open the index reads the whole WAL
    /// (about 2 ms for 1000 pages), so it is kept short.
    static let writerCheckpointPages = 256
    /// WAL size in pages from which every write checkpoints, the access stamps of a process that
    /// only reads included: the WAL's bound when nothing else writes (4 MiB; a process that reads
    /// once adds about 3 pages). SQLite's own automatic checkpoint size.
    static let walPageLimit = 1000

    let connection: SQLiteConnection
    /// True when this open created the schema.
    private(set) var isNew = false
    private let dataFolder: URL

    /// Opens the index of `folder`, as `claim` found the folder. Before it writes anything, it makes
    /// sure the file is imgcache's: marked with `CacheFolder.applicationID`, or with the tables an
    /// earlier imgcache made (then marked now), or, in a tagged folder, an empty database (then
    /// given the schema). Another database in an untagged folder is `folder.notACache`; in a tagged
    /// one, a `cacheIndex` error.
    init(folder: CacheFolder, claim: CacheFolder.Claim, lockTimeout: TimeInterval) throws {
        let path = folder.indexPath
        connection = try SQLiteConnection(path: path, lockTimeout: lockTimeout)
        dataFolder = URL(fileURLWithPath: folder.dataPath, isDirectory: true)
        let contents: Contents
        do {
            contents = try connection.read("identify") { try Self.contents(connection) }
        } catch {
            throw claim == .tagged ? error : folder.notACache
        }
        switch (contents, claim) {
        case (.imgcache, _), (.empty, .tagged): break
        case (.empty, .untaggedIndex), (.other, .untaggedIndex): throw folder.notACache
        case (.other, .tagged):
            throw ImgCacheError.cacheIndex(
                path: path, detail: "another program's database, not an imgcache index: move it away to start the index anew")
        }
        let mode = try connection.read("enable WAL") {
            try connection.rows("PRAGMA journal_mode = WAL") { $0.text(0) }.first
        }
        guard mode?.lowercased() == "wal" else {
            throw ImgCacheError.cacheIndex(path: path, detail: "cannot use WAL journal mode (got \(mode ?? "nothing"))")
        }
        // In WAL mode, NORMAL never corrupts the index: a power cut can only roll back the most
        // recent commits, which were not flushed. The files they describe are flushed before
        // their rename (see `DiskCache.store`), so no row ever describes a partial file.
        try connection.execute("PRAGMA synchronous = NORMAL")
        if contents == .imgcache(isMarked: false) {
            try connection.writeTransaction("mark the index") {
                try connection.execute("PRAGMA application_id = \(CacheFolder.applicationID)")
            }
        }
        // Read first: an index that exists (every open but the first) takes no write lock.
        let version = try connection.read("read schema version") { try Self.schemaVersion(connection, path: path) }
        guard version < Self.schemaVersion else { return }
        isNew = try connection.writeTransaction("create schema") {
            guard try Self.schemaVersion(connection, path: path) < Self.schemaVersion else { return false }
            try connection.execute(Self.schema + """
                PRAGMA user_version = \(Self.schemaVersion);
                PRAGMA application_id = \(CacheFolder.applicationID);
                """)
            return true
        }
    }

    /// What an index file holds, read before anything is written to it.
    private enum Contents: Equatable {
        /// imgcache's tables; marked with its application id by this version, or not by an earlier one.
        case imgcache(isMarked: Bool)
        /// No table and no application id: a new file.
        case empty
        /// Another program's database.
        case other
    }

    /// Tables an earlier imgcache's index holds.
    private static let tableNames: Set<String> = ["entries", "totals", "sessions"]

    private static func contents(_ connection: SQLiteConnection) throws -> Contents {
        let applicationID = try connection.rows("PRAGMA application_id") { $0.integer(0) }.first ?? 0
        if applicationID == Int(CacheFolder.applicationID) { return .imgcache(isMarked: true) }
        guard applicationID == 0 else { return .other }
        let tables = Set(try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) })
        if tables.isEmpty { return .empty }
        return tables.isSuperset(of: tableNames) ? .imgcache(isMarked: false) : .other
    }

    /// The index's schema version (0 for a new file); throws for one newer than this code knows.
    private static func schemaVersion(_ connection: SQLiteConnection, path: String) throws -> Int {
        let version = try connection.rows("PRAGMA user_version") { $0.integer(0) }.first ?? 0
        guard version <= schemaVersion else {
            throw ImgCacheError.cacheIndex(path: path, detail: "schema version \(version) is from a newer imgcache")
        }
        return version
    }

    /// `connection.writeTransaction`; when `durable`, its commit is flushed to disk before it returns
    /// (SQLite's `synchronous = FULL` for this transaction: one sync of the WAL).
    func writeTransaction<T>(_ operation: String, durable: Bool, _ body: () throws -> T) throws -> T {
        guard durable else { return try connection.writeTransaction(operation, body) }
        try connection.execute("PRAGMA synchronous = FULL")
        defer { try? connection.execute("PRAGMA synchronous = NORMAL") }
        return try connection.writeTransaction(operation, body)
    }

    /// Checkpoints the WAL (see `SQLiteConnection.checkpoint`); when every page made it into the
    /// database file, writes one page (the schema version, unchanged), so that the WAL starts over
    /// here, syncing its new header, and not in the next write, which may be a reader's access stamps.
    /// The WAL is never removed, nor empty after this: a reader's write never starts one.
    func checkpoint(_ mode: SQLiteConnection.CheckpointMode) throws {
        guard try connection.checkpoint(mode) else { return }
        try connection.writeTransaction("start the WAL over") {
            try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    /// `checkpoint(.passive)` when the WAL holds at least `pages` pages after this connection's last
    /// commit. A checkpoint that fails leaves the WAL to the next one: the commit before it stands.
    func checkpoint(ifWALPagesAtLeast pages: Int) {
        guard connection.walPages >= pages else { return }
        try? checkpoint(.passive)
    }

    private static let schema = """
        CREATE TABLE entries (
            key TEXT PRIMARY KEY NOT NULL,
            file TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('original', 'variant')),
            original_key TEXT,
            bytes INTEGER NOT NULL,
            content_type TEXT,
            etag TEXT,
            last_modified TEXT,
            expires_at REAL,
            created_at REAL NOT NULL,
            last_access REAL NOT NULL
        );
        CREATE INDEX entries_by_access ON entries (last_access);
        CREATE INDEX entries_by_original ON entries (original_key) WHERE original_key IS NOT NULL;
        CREATE TABLE totals (id INTEGER PRIMARY KEY CHECK (id = 0), entries INTEGER NOT NULL, bytes INTEGER NOT NULL);
        INSERT INTO totals VALUES (0, 0, 0);
        CREATE TRIGGER entries_added AFTER INSERT ON entries
            BEGIN UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.bytes; END;
        CREATE TRIGGER entries_removed AFTER DELETE ON entries
            BEGIN UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.bytes; END;
        CREATE TRIGGER entries_resized AFTER UPDATE OF bytes ON entries
            BEGIN UPDATE totals SET bytes = bytes - OLD.bytes + NEW.bytes; END;
        CREATE TABLE sessions (
            pid INTEGER NOT NULL,
            start_ticks INTEGER NOT NULL,
            instance INTEGER NOT NULL,
            opened_at REAL NOT NULL,
            PRIMARY KEY (pid, start_ticks, instance)
        );

        """

    private static let entryColumns = """
        key, file, kind, original_key, bytes, content_type, etag, last_modified, expires_at, created_at, last_access
        """

    // MARK: Entries

    func entry(for key: String) throws -> CacheEntry? {
        try connection.rows("SELECT \(Self.entryColumns) FROM entries WHERE key = ?", [.text(key)], entry).first
    }

    /// Every entry, most recently accessed first.
    func allEntries() throws -> [CacheEntry] {
        try connection.rows("SELECT \(Self.entryColumns) FROM entries ORDER BY last_access DESC", [], entry)
    }

    /// The variants stored from the original `key`.
    func variants(of key: String) throws -> [CacheEntry] {
        try connection.rows("SELECT \(Self.entryColumns) FROM entries WHERE original_key = ?", [.text(key)], entry)
    }

    /// Inserts `entry`, or replaces the row with its key.
    func upsert(_ entry: CacheEntry) throws {
        let originalKey: String?
        switch entry.kind {
        case .original: originalKey = nil
        case .variant(let key): originalKey = key
        }
        try connection.run("""
            INSERT INTO entries (\(Self.entryColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET file = excluded.file, kind = excluded.kind,
                original_key = excluded.original_key, bytes = excluded.bytes, content_type = excluded.content_type,
                etag = excluded.etag, last_modified = excluded.last_modified, expires_at = excluded.expires_at,
                created_at = excluded.created_at, last_access = excluded.last_access
            """, [
                .text(entry.key), .text(entry.fileName), .text(originalKey == nil ? "original" : "variant"),
                .text(originalKey), .integer(entry.byteCount), .text(entry.contentType), .text(entry.etag),
                .text(entry.lastModified), .real(entry.expiresAt?.timeIntervalSince1970),
                .real(entry.createdAt.timeIntervalSince1970), .real(entry.lastAccessAt.timeIntervalSince1970),
            ])
    }

    /// Sets the validators and expiry of `key` and stamps it accessed at `now`; false when there is no row.
    func refresh(key: String, etag: String?, lastModified: String?, expiresAt: Date?, now: Date) throws -> Bool {
        try connection.run("""
            UPDATE entries SET etag = ?, last_modified = ?, expires_at = ?, last_access = max(last_access, ?)
            WHERE key = ?
            """, [
                .text(etag), .text(lastModified), .real(expiresAt?.timeIntervalSince1970),
                .real(now.timeIntervalSince1970), .text(key),
            ]) > 0
    }

    func delete(key: String) throws {
        try connection.run("DELETE FROM entries WHERE key = ?", [.text(key)])
    }

    func deleteAll() throws {
        try connection.run("DELETE FROM entries")
    }

    /// Records reads in one transaction: each key's last access becomes the later of its stamp and the
    /// stored one.
    func stampAccesses(_ stamps: [String: Double]) throws {
        try connection.writeTransaction("record accesses") {
            for (key, time) in stamps {
                try connection.run(
                    "UPDATE entries SET last_access = ?1 WHERE key = ?2 AND last_access < ?1", [.real(time), .text(key)])
            }
        }
    }

    /// Up to `limit` entries, least recently accessed first, optionally only those accessed before `cutoff`.
    func leastRecentlyAccessed(limit: Int, before cutoff: Double = .infinity) throws -> [FileRow] {
        try connection.rows(
            "SELECT key, file, bytes FROM entries WHERE last_access < ? ORDER BY last_access LIMIT ?",
            [.real(cutoff), .integer(limit)]
        ) { FileRow(key: $0.text(0), file: $0.text(1), bytes: $0.integer(2)) }
    }

    /// Key, file and size of every entry.
    func allFiles() throws -> [FileRow] {
        try connection.rows("SELECT key, file, bytes FROM entries") {
            FileRow(key: $0.text(0), file: $0.text(1), bytes: $0.integer(2))
        }
    }

    /// Number of entries and their total size, from the trigger-kept totals.
    func totals() throws -> (entries: Int, bytes: Int) {
        try connection.rows("SELECT entries, bytes FROM totals") { ($0.integer(0), $0.integer(1)) }.first ?? (0, 0)
    }

    /// The figures of `CacheStats` (but the size limit), read in one statement so they agree.
    func summary(now: Date, sizeLimit: Int) throws -> CacheStats {
        try connection.rows("""
            SELECT totals.entries, totals.bytes, count(original_key), count(CASE WHEN expires_at <= ? THEN 1 END),
                min(last_access), max(last_access)
            FROM totals LEFT JOIN entries
            """, [.real(now.timeIntervalSince1970)]
        ) { row in
            CacheStats(
                entryCount: row.integer(0), totalBytes: row.integer(1), originalCount: row.integer(0) - row.integer(2),
                variantCount: row.integer(2), expiredCount: row.integer(3), sizeLimit: sizeLimit,
                oldestAccess: row.optionalReal(4).map(Date.init(timeIntervalSince1970:)),
                newestAccess: row.optionalReal(5).map(Date.init(timeIntervalSince1970:)))
        }[0]
    }

    private func entry(_ row: SQLiteRow) -> CacheEntry {
        let file = row.text(1)
        return CacheEntry(
            key: row.text(0), fileName: file, fileURL: dataFolder.appendingPathComponent(file),
            kind: row.text(2) == "variant" ? .variant(of: row.optionalText(3) ?? "") : .original,
            byteCount: row.integer(4), contentType: row.optionalText(5), etag: row.optionalText(6),
            lastModified: row.optionalText(7), expiresAt: row.optionalReal(8).map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: row.real(9)), lastAccessAt: Date(timeIntervalSince1970: row.real(10)))
    }

    // MARK: Sessions

    func sessions() throws -> [Session] {
        try connection.rows("SELECT pid, start_ticks, instance FROM sessions") {
            Session(process: ProcessIdentity(pid: Int32($0.integer(0)), startTicks: $0.integer(1)), instance: $0.integer(2))
        }
    }

    func insert(_ session: Session, now: Date) throws {
        try connection.run("INSERT OR REPLACE INTO sessions VALUES (?, ?, ?, ?)", [
            .integer(Int(session.process.pid)), .integer(session.process.startTicks), .integer(session.instance),
            .real(now.timeIntervalSince1970),
        ])
    }

    func delete(_ session: Session) throws {
        try connection.run("DELETE FROM sessions WHERE pid = ? AND start_ticks = ? AND instance = ?", [
            .integer(Int(session.process.pid)), .integer(session.process.startTicks), .integer(session.instance),
        ])
    }
}
