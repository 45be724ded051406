import CSQLite
import Foundation

/// One connection to an SQLite database, used by one thread at a time. Every statement goes through
/// `read` or `writeTransaction`, which wait out other processes' locks (SQLite's busy time-out, then
/// retries with back-off until `lockTimeout`) so that "database is locked" never reaches a caller, and
/// which turn SQLite failures into `ImgCacheError.cacheIndex`.
///
/// In WAL mode with `synchronous = NORMAL` SQLite syncs when it checkpoints, and when it writes the
/// header of a WAL that is new or starts over after a complete checkpoint. It checkpoints on its own
/// after a commit that takes the WAL past 1000 pages, and when the last connection closes (removing
/// the WAL, so that the next write starts a new one). This connection does neither: it checkpoints
/// only in `checkpoint(_:)` and leaves the WAL in place when it closes, so that its owner decides who
/// pays for the syncs.
final class SQLiteConnection {
    /// How `checkpoint(_:)` copies the WAL into the database file.
    enum CheckpointMode {
        /// As much as no reader still needs, without waiting for any lock.
        case passive
        /// Everything, waiting (as for any lock, about a second at most) for readers of older
        /// snapshots and for the writer; then the WAL is truncated to nothing.
        case truncate
    }

    let path: String
    /// Pages in the WAL after this connection's last commit (every connection's pages, up to that
    /// commit); 0 before it commits.
    private(set) var walPages = 0
    private let handle: OpaquePointer
    private let lockTimeout: TimeInterval
    private var statements: [String: OpaquePointer] = [:]
    private var isOpen = true

    init(path: String, lockTimeout: TimeInterval) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw ImgCacheError.cacheIndex(path: path, detail: "cannot open: \(message)")
        }
        self.path = path
        self.handle = opened
        self.lockTimeout = lockTimeout
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_handler(opened, Self.waitForLock, nil)
        imgcache_sqlite3_keep_wal_on_close(opened)
        // Replaces SQLite's automatic checkpoint, which is a WAL hook too.
        sqlite3_wal_hook(opened, Self.recordWALPages, Unmanaged.passUnretained(self).toOpaque())
    }

    /// SQLite's WAL hook, called after each commit of this connection with the WAL's size in pages.
    private static let recordWALPages: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32)
        -> Int32 = { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue().walPages = Int(pages)
            return SQLITE_OK
        }

    /// Copies the WAL's pages into the database file, syncing the WAL before and the file after.
    /// Returns true when every page of the WAL is in the database file (the next write then starts
    /// the WAL over from its beginning, syncing its new header), false when readers, the writer or
    /// another checkpoint held some back.
    func checkpoint(_ mode: CheckpointMode) throws -> Bool {
        try checkOpen()
        // Set by SQLite once the checkpoint ran, even when a lock stopped it before the end.
        var pages: Int32 = -1
        var copied: Int32 = -1
        let sqliteMode = mode == .passive ? SQLITE_CHECKPOINT_PASSIVE : SQLITE_CHECKPOINT_TRUNCATE
        let status = sqlite3_wal_checkpoint_v2(handle, nil, sqliteMode, &pages, &copied)
        let error = SQLiteError(code: status, message: status == SQLITE_OK ? "" : errorMessage)
        guard status == SQLITE_OK || error.isBusy else { throw converted(error, operation: "checkpoint") }
        return pages >= 0 && pages == copied
    }

    /// SQLite's busy handler: called while another connection holds a lock, with the number of
    /// earlier calls for this wait. It sleeps briefly (growing from about 50 us to 1 ms, with jitter
    /// so that waiting processes do not wake in step) and gives up after about a second, leaving
    /// longer waits to `retrying`, which knows the deadline. SQLite's own `busy_timeout` sleeps up to
    /// 100 ms at a time, which leaves a contended lock idle.
    private static let waitForLock: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { _, calls in
        guard calls < 1200 else { return 0 }
        let pause = UInt32(min(1000, 50 << min(Int(calls), 5)))
        usleep(pause / 2 + UInt32.random(in: 0...pause))
        return 1
    }

    deinit { close() }

    /// Finalizes the statements and closes the connection; later calls fail.
    func close() {
        guard isOpen else { return }
        isOpen = false
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `body` (reads only, or statements that may safely run again), retrying it while the
    /// database is busy.
    func read<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        try retrying(operation, body)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE ... COMMIT`, waiting for the write lock first; rolls back
    /// when `body` throws. `body` runs once: it may have effects outside the database.
    func writeTransaction<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        try retrying(operation) { try execute("BEGIN IMMEDIATE") }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw converted(error, operation: operation)
        }
        do {
            try retrying(operation) { try execute("COMMIT") }
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// Runs one or more statements without parameters.
    func execute(_ sql: String) throws {
        try checkOpen()
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, message: message.map { String(cString: $0) } ?? errorMessage)
        }
    }

    /// Runs a statement that returns no rows and returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        _ = try rows(sql, values) { _ in () }
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps each row with `read`.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ read: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let status = value.bind(to: statement, at: Int32(offset + 1))
            guard status == SQLITE_OK else { throw SQLiteError(code: status, message: errorMessage) }
        }
        var results: [T] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return results }
            guard status == SQLITE_ROW else { throw SQLiteError(code: status, message: errorMessage) }
            results.append(try read(SQLiteRow(statement: statement)))
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        try checkOpen()
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw SQLiteError(code: status, message: errorMessage) }
        statements[sql] = statement
        return statement
    }

    private func checkOpen() throws {
        guard isOpen else { throw SQLiteError(code: SQLITE_MISUSE, message: "the cache was closed") }
    }

    private var errorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs `body`, again after a short sleep while it fails with SQLITE_BUSY or SQLITE_LOCKED (which
    /// SQLite's busy handler does not cover in every case, e.g. during WAL recovery), until `lockTimeout`.
    private func retrying<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        let deadline = Date().addingTimeInterval(lockTimeout)
        var pause: useconds_t = 1_000
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                usleep(pause + useconds_t.random(in: 0..<pause))
                pause = min(pause * 2, 50_000)
            } catch {
                throw converted(error, operation: operation)
            }
        }
    }

    private func converted(_ error: Error, operation: String) -> Error {
        guard let error = error as? SQLiteError else { return error }
        let waited = error.isBusy ? " after waiting \(lockTimeout) s" : ""
        return ImgCacheError.cacheIndex(path: path, detail: "\(operation): \(error.message)\(waited)")
    }
}

/// A failed SQLite call: its (extended) result code and message.
struct SQLiteError: Error {
    let code: Int32
    let message: String

    /// True for SQLITE_BUSY and SQLITE_LOCKED and their extended codes.
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}
