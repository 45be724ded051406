import CSQLite

/// A value bound to a statement parameter.
enum SQLiteValue {
    case text(String)
    case integer(Int)
    case real(Double)
    case null

    static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    static func real(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }

    /// SQLite copies bound text before this call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .text(let value):
            return sqlite3_bind_text(statement, index, value, Int32(value.utf8.count), Self.transient)
        case .integer(let value): return sqlite3_bind_int64(statement, index, Int64(value))
        case .real(let value): return sqlite3_bind_double(statement, index, value)
        case .null: return sqlite3_bind_null(statement, index)
        }
    }
}

/// The current row of a stepping statement; columns are numbered from 0.
struct SQLiteRow {
    let statement: OpaquePointer

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : text(column)
    }

    func integer(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func optionalReal(_ column: Int32) -> Double? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : real(column)
    }
}
