import CHiredis
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a Redis server: a non-blocking TCP socket of its own, waited on with poll()
/// against each round trip's deadline, and hiredis for the protocol only (commands formatted by
/// `redisFormatCommandArgv`, replies parsed by a `redisReader` fed as bytes arrive). So a round
/// trip is bounded as a whole: its deadline is `commandTimeout` after its start, plus 100 ms for
/// every MiB sent or received so far, and its replies may not pass `maxValueBytes` plus 64 KiB.
/// A reply that trickles in, or a server that sends more than that, fails it.
///
/// Not thread-safe: a `RedisClient` lends it to one caller at a time (hence unchecked Sendable).
/// All of the tier's socket and hiredis calls live here.
final class RedisConnection: @unchecked Sendable {
    private let socket: Int32
    private let reader: UnsafeMutablePointer<redisReader>
    private let commandTimeout: TimeInterval
    private let replyByteLimit: Int
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Seconds a round trip's deadline moves for each byte sent or received (100 ms a MiB).
    static let secondsPerByte = 0.1 / Double(1 << 20)
    /// Bytes of replies a round trip may receive beyond `maxValueBytes`.
    static let replySlack = 64 << 10

    /// Connects to the first of `addresses` that accepts within the connect time-out (shared by
    /// them all), then authenticates and selects the database in one round trip. `displayURL`
    /// names the server in messages.
    /// - Throws: `RedisFailure` when no address accepts in time, or the server rejects AUTH or
    ///   SELECT, or does not answer them in time.
    init(addresses: [RedisHostResolver.Address], displayURL: String, configuration: RedisConfiguration) throws(RedisFailure) {
        let deadline = Self.deadline(after: configuration.connectTimeout)
        var socket: Int32?
        var failures: [String] = []
        for address in addresses where socket == nil {
            do {
                socket = try Self.connect(address, deadline: deadline)
            } catch {
                failures.append(error.description)
            }
        }
        guard let socket else {
            throw RedisFailure("cannot connect to \(displayURL): " + failures.joined(separator: "; "))
        }
        guard let reader = redisReaderCreate() else {
            close(socket)
            throw RedisFailure("cannot allocate a hiredis reader")
        }
        // From here `deinit` closes the socket and frees the reader, also when AUTH or SELECT fails.
        self.socket = socket
        self.reader = reader
        commandTimeout = configuration.commandTimeout
        replyByteLimit = configuration.maxValueBytes + Self.replySlack
        var setup: [[Data]] = []
        if let password = configuration.password {
            setup.append([Data("AUTH".utf8)] + (configuration.username.map { [Data($0.utf8)] } ?? []) + [Data(password.utf8)])
        }
        if configuration.database != 0 { setup.append([Data("SELECT".utf8), Data(String(configuration.database).utf8)]) }
        guard !setup.isEmpty else { return }
        for (command, reply) in zip(setup, try run(pipelined: setup)) {
            if case .error(let message) = reply {
                throw RedisFailure("\(String(decoding: command[0], as: UTF8.self)) refused: \(message)")
            }
        }
    }

    deinit {
        close(socket)
        redisReaderFree(reader)
    }

    /// Sends `commands` in one write and reads their replies in order (one round trip), within
    /// the round trip's deadline and byte limit (see the type).
    /// - Throws: `RedisFailure` when the connection breaks, the deadline passes or the replies
    ///   pass the limit, or a reply is no Redis protocol: the connection is then unusable.
    func run(pipelined commands: [[Data]]) throws(RedisFailure) -> [RedisReply] {
        try checkIdle()
        let start = DispatchTime.now().uptimeNanoseconds
        var transferred = 0
        func deadline() -> UInt64 {
            start + Self.nanoseconds(commandTimeout + Double(transferred) * Self.secondsPerByte)
        }
        var request = [UInt8]()
        for command in commands { try Self.format(command, into: &request) }
        var sent = 0
        while sent < request.count {
            let count = request.withUnsafeBytes { bytes in
                send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                sent += count
                transferred += count
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLOUT), until: deadline())
            } else if errno != EINTR {
                throw Self.socketFailure("cannot send", code: errno)
            }
        }
        var replies: [RedisReply] = []
        var received = 0
        while replies.count < commands.count {
            var raw: UnsafeMutableRawPointer?
            guard redisReaderGetReply(reader, &raw) == REDIS_OK else {
                let detail = withUnsafeBytes(of: reader.pointee.errstr) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                throw RedisFailure("not a Redis reply: \(detail)")
            }
            if let raw {
                replies.append(Self.reply(raw.assumingMemoryBound(to: redisReply.self).pointee))
                freeReplyObject(raw)
                continue
            }
            let count = buffer.withUnsafeMutableBytes { bytes in
                recv(socket, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received += count
                transferred += count
                guard received <= replyByteLimit else {
                    throw RedisFailure("replies over \(replyByteLimit) bytes")
                }
                let status = buffer.withUnsafeBytes { bytes in
                    redisReaderFeed(reader, bytes.baseAddress!.assumingMemoryBound(to: CChar.self), count)
                }
                guard status == REDIS_OK else { throw RedisFailure("cannot buffer a reply") }
            } else if count == 0 {
                throw RedisFailure("the server closed the connection", isClosedConnection: true)
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try wait(for: Int16(POLLIN), until: deadline())
            } else if errno != EINTR {
                throw Self.socketFailure("cannot receive", code: errno)
            }
        }
        return replies
    }

    /// Throws unless the connection is as a round trip left it: no reply bytes unread, none
    /// waiting on the socket, not closed by the server. Bytes nobody asked for would be read as
    /// the replies to the next commands; a server that closed the connection (a restart) is
    /// noticed before anything is sent.
    private func checkIdle() throws(RedisFailure) {
        guard reader.pointee.len == reader.pointee.pos else {
            throw RedisFailure("bytes past the last reply", isClosedConnection: true)
        }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if count > 0 { throw RedisFailure("bytes from the server before a command", isClosedConnection: true) }
        if count == 0 { throw RedisFailure("the server closed the connection", isClosedConnection: true) }
        guard errno == EAGAIN || errno == EWOULDBLOCK else { throw Self.socketFailure("cannot receive", code: errno) }
    }

    /// Sends one command and reads its reply, as `run(pipelined:)` does.
    func run(_ command: [Data]) throws(RedisFailure) -> RedisReply {
        try run(pipelined: [command])[0]
    }

    /// Waits until the socket is ready for `events` or `deadline` (uptime nanoseconds) passes.
    /// - Throws: `RedisFailure` once the deadline has passed, or when poll fails.
    private func wait(for events: Int16, until deadline: UInt64) throws(RedisFailure) {
        try Self.poll(socket, for: events, until: deadline) {
            "no reply within \(Int((self.commandTimeout * 1000).rounded())) ms"
        }
    }

    /// A non-blocking TCP socket connected to `address` before `deadline` (uptime nanoseconds).
    static func connect(_ address: RedisHostResolver.Address, deadline: UInt64) throws(RedisFailure) -> Int32 {
        let socket = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw socketFailure("cannot open a socket", code: errno) }
        do throws(RedisFailure) {
            let status = address.bytes.withUnsafeBytes { bytes in
                Glibc.connect(socket, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
            }
            if status != 0 {
                guard errno == EINPROGRESS else { throw socketFailure("refused", code: errno) }
                while try poll(socket, for: Int16(POLLOUT), until: deadline, timedOut: { "no connection within the connect time-out" }) == 0 {}
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
                    throw socketFailure("cannot connect", code: errno)
                }
                guard error == 0 else { throw socketFailure("refused", code: error) }
            }
            var noDelay: Int32 = 1
            setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            return socket
        } catch {
            close(socket)
            throw error
        }
    }

    /// Polls `socket` for `events` once, with the time left to `deadline` (none when it has
    /// passed: a socket that is already ready still counts, however late this thread runs), and
    /// returns the events that came (0 for none: a signal interrupted the wait).
    /// - Throws: `RedisFailure(timedOut())` when no event came by the deadline; `RedisFailure`
    ///   when poll fails (not when it is interrupted).
    @discardableResult
    static func poll(
        _ socket: Int32, for events: Int16, until deadline: UInt64, timedOut: () -> String
    ) throws(RedisFailure) -> Int16 {
        let now = DispatchTime.now().uptimeNanoseconds
        let milliseconds = now < deadline ? Int32(clamping: (deadline - now + 999_999) / 1_000_000) : 0
        var descriptor = pollfd(fd: socket, events: events, revents: 0)
        if Glibc.poll(&descriptor, 1, milliseconds) < 0 && errno != EINTR {
            throw socketFailure("cannot poll", code: errno)
        }
        if descriptor.revents == 0 && DispatchTime.now().uptimeNanoseconds >= deadline {
            throw RedisFailure(timedOut())
        }
        return descriptor.revents
    }

    /// Appends the protocol form of `command` to `request` (binary-safe: values may hold NUL bytes).
    private static func format(_ command: [Data], into request: inout [UInt8]) throws(RedisFailure) {
        var buffer = [UInt8]()
        buffer.reserveCapacity(command.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        for argument in command {
            offsets.append(buffer.count)
            buffer.append(contentsOf: argument)
        }
        // A trailing byte keeps the buffer non-empty, so that it always has a base address.
        buffer.append(0)
        let lengths = command.map(\.count)
        var formatted: UnsafeMutablePointer<CChar>?
        let length = buffer.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = offsets.map { base + $0 }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    redisFormatCommandArgv(&formatted, Int32(command.count), argv.baseAddress, argvlen.baseAddress)
                }
            }
        }
        guard length > 0, let formatted else { throw RedisFailure("cannot format a command") }
        defer { redisFreeCommand(formatted) }
        request.append(contentsOf: UnsafeRawBufferPointer(start: formatted, count: Int(length)))
    }

    private static func reply(_ reply: redisReply) -> RedisReply {
        switch reply.type {
        case REDIS_REPLY_STRING: return .bytes(bytes(reply))
        case REDIS_REPLY_INTEGER: return .integer(Int(reply.integer))
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ARRAY:
            return .array((0..<reply.elements).compactMap { reply.element[$0].map { Self.reply($0.pointee) } })
        default: return .null
        }
    }

    private static func bytes(_ reply: redisReply) -> Data {
        reply.str.map { Data(bytes: $0, count: reply.len) } ?? Data()
    }

    /// A failure with `errno`'s text; a reset or a broken pipe means the server closed the connection.
    private static func socketFailure(_ what: String, code: Int32) -> RedisFailure {
        RedisFailure("\(what): \(String(cString: strerror(code)))", isClosedConnection: code == ECONNRESET || code == EPIPE)
    }

    private static func deadline(after seconds: TimeInterval) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + nanoseconds(seconds)
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64((seconds * 1e9).rounded())
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
