import CHiredis
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One blocking connection to a Redis server through hiredis: connected with a time-out, AUTH
/// and SELECT done, every command bounded by the command time-out. Not thread-safe: a
/// `RedisClient` lends it to one caller at a time (hence unchecked Sendable). All of the tier's
/// unsafe C lives here.
final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>

    /// Connects to `configuration`'s server within its connect time-out, sets the command
    /// time-out, then authenticates and selects the database.
    /// - Throws: `RedisFailure` when the server refuses, does not answer in time, or rejects AUTH
    ///   or SELECT.
    init(_ configuration: RedisConfiguration) throws {
        guard let context = redisConnectWithTimeout(configuration.host, Int32(configuration.port),
                                                     Self.timeval(configuration.connectTimeout)) else {
            throw RedisFailure("cannot allocate a hiredis context")
        }
        if context.pointee.err != 0 {
            let detail = Self.errorText(context)
            redisFree(context)
            throw RedisFailure("cannot connect to \(configuration.displayURL): \(detail)")
        }
        guard redisSetTimeout(context, Self.timeval(configuration.commandTimeout)) == REDIS_OK else {
            redisFree(context)
            throw RedisFailure("cannot set the command time-out")
        }
        // From here `deinit` frees the context, also when AUTH or SELECT fails.
        self.context = context
        var setup: [[Data]] = []
        if let password = configuration.password {
            setup.append([Data("AUTH".utf8)] + (configuration.username.map { [Data($0.utf8)] } ?? []) + [Data(password.utf8)])
        }
        if configuration.database != 0 { setup.append([Data("SELECT".utf8), Data(String(configuration.database).utf8)]) }
        for command in setup {
            let reply = try run(command)
            if case .error(let message) = reply {
                throw RedisFailure("\(String(decoding: command[0], as: UTF8.self)) refused: \(message)")
            }
        }
    }

    deinit { redisFree(context) }

    /// Sends `commands` in one write and reads their replies in order (one round trip).
    /// - Throws: `RedisFailure` when the connection breaks or a reply does not come within the
    ///   command time-out: the connection is then unusable.
    func run(pipelined commands: [[Data]]) throws -> [RedisReply] {
        for command in commands {
            let status = Self.withArguments(command) { count, pointers, lengths in
                redisAppendCommandArgv(context, count, pointers, lengths)
            }
            guard status == REDIS_OK else { throw failure() }
        }
        return try commands.map { _ in
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw failure() }
            defer { freeReplyObject(raw) }
            return Self.reply(raw.assumingMemoryBound(to: redisReply.self).pointee)
        }
    }

    /// Sends one command and reads its reply, as `run(pipelined:)` does.
    func run(_ command: [Data]) throws -> RedisReply {
        try run(pipelined: [command])[0]
    }

    /// Calls `body` with argc, argv and the byte length of every argument (binary-safe: values may
    /// hold NUL bytes), all pointing into one buffer that lives for the call.
    private static func withArguments<Result>(
        _ arguments: [Data], _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> Result
    ) -> Result {
        var buffer = [UInt8]()
        buffer.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in arguments {
            offsets.append(buffer.count)
            buffer.append(contentsOf: argument)
        }
        // A trailing byte keeps the buffer non-empty, so that it always has a base address.
        buffer.append(0)
        let lengths = arguments.map(\.count)
        return buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    body(Int32(arguments.count), argv.baseAddress!, argvlen.baseAddress!)
                }
            }
        }
    }

    private static func reply(_ reply: redisReply) -> RedisReply {
        switch reply.type {
        case REDIS_REPLY_STRING: return .bytes(bytes(reply))
        case REDIS_REPLY_INTEGER: return .integer(Int(reply.integer))
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            return .array((0..<reply.elements).map { Self.reply(reply.element[$0]!.pointee) })
        default: return .null
        }
    }

    /// The failure hiredis recorded on the context, noting whether the server closed the
    /// connection (end of file, reset, broken pipe) rather than failed to answer in time.
    private func failure() -> RedisFailure {
        let code = errno
        let closed = context.pointee.err == REDIS_ERR_EOF
            || (context.pointee.err == REDIS_ERR_IO && (code == ECONNRESET || code == EPIPE))
        return RedisFailure(Self.errorText(context), isClosedConnection: closed)
    }

    private static func bytes(_ reply: redisReply) -> Data {
        reply.str.map { Data(bytes: $0, count: reply.len) } ?? Data()
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "error \(context.pointee.err)" : text
    }

    private static func timeval(_ seconds: TimeInterval) -> Glibc.timeval {
        let microseconds = Int((seconds * 1_000_000).rounded())
        return Glibc.timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
    }
}

/// Why a Redis connection or command failed: the connection is dropped and Redis is skipped for
/// a while (see `RedisConfiguration.retryAfterFailure`).
struct RedisFailure: Error, CustomStringConvertible {
    let description: String
    /// True when the server closed the connection: a reused connection may just be older than a
    /// restart of the server, so a new one is worth one try.
    let isClosedConnection: Bool

    init(_ description: String, isClosedConnection: Bool = false) {
        self.description = description
        self.isClosedConnection = isClosedConnection
    }
}
