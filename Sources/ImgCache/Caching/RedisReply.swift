import Foundation

/// One reply of a Redis server, copied out of hiredis's reply object.
enum RedisReply: Sendable, Equatable {
    /// A bulk string: a value's bytes.
    case bytes(Data)
    case integer(Int)
    /// A simple status such as OK.
    case status(String)
    /// A nil bulk string or array: no such key (or SET NX not done).
    case null
    /// An error reply such as `-OOM ...` or `-READONLY ...`.
    case error(String)
    case array([RedisReply])
}
