import CMicroHTTPD
import Foundation
import Glibc
import Synchronization

/// A connection MHD suspended while its handler runs. Resuming it is the one MHD call made off
/// MHD's threads (libmicrohttpd allows it from any thread); it is made once per suspension.
struct MHDConnection: @unchecked Sendable {
    fileprivate let pointer: OpaquePointer

    func resume() {
        MHD_resume_connection(pointer)
    }
}

/// libmicrohttpd's daemon: internal threads (`Configuration.threads`, each with its own epoll and
/// its share of the connections) poll the sockets and call `ServerCore` back; a request that
/// reaches its handler is suspended there and its response queued when the connection is resumed.
///
/// This file and `NetworkAddress.swift` hold the module's pointer work against C. Unchecked
/// Sendable: the daemon and log pointers are only used by `stopListening()` and `stop()`, which
/// `HTTPServer` calls once each, in that order.
final class MHDDaemon: @unchecked Sendable {
    /// Why a daemon did not start: MHD's last message (which names the system's error).
    struct StartFailure: Error {
        let message: String
    }

    /// The port the daemon listens on.
    let port: UInt16
    private let daemon: OpaquePointer
    private let log: UnsafeMutablePointer<imgcache_mhd_log>
    private let core: ServerCore
    /// The listening socket once MHD let go of it; closed after the daemon stops.
    private let quiescedSocket = Mutex<Int32?>(nil)

    init(address: NetworkAddress, configuration: HTTPServer.Configuration, core: ServerCore) throws(StartFailure) {
        self.core = core
        let log = UnsafeMutablePointer<imgcache_mhd_log>.allocate(capacity: 1)
        imgcache_mhd_log_init(log)
        let context = Unmanaged.passUnretained(core).toOpaque()
        let started: OpaquePointer? = address.withSocketAddress { socketAddress in
            var settings = imgcache_mhd_settings(
                address: socketAddress,
                port: address.port,
                // libmicrohttpd shares the connection limit among its threads: each needs one.
                threads: UInt32(clamping: min(max(1, configuration.threads), max(1, configuration.maxConnections))),
                connection_limit: UInt32(clamping: max(1, configuration.maxConnections)),
                connection_timeout: wholeSeconds(configuration.idleTimeout),
                connection_memory_limit: max(configuration.connectionMemoryBytes, 4096),
                access_handler: accessHandler,
                request_completed: requestCompleted,
                connection_notified: connectionNotified,
                uri_received: uriReceived,
                context: context,
                log: log)
            return imgcache_mhd_start(&settings)
        }
        guard let started else {
            let message = withUnsafeBytes(of: log.pointee.last) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            imgcache_mhd_log_destroy(log)
            log.deallocate()
            throw StartFailure(message: message.isEmpty ? "libmicrohttpd did not start" : message)
        }
        self.daemon = started
        self.log = log
        self.port = imgcache_mhd_bound_port(started)
    }

    /// Stops accepting: MHD stops polling the listening socket, which is shut down so that new
    /// connections are refused from now on (closed once the daemon has stopped, as MHD requires).
    func stopListening() {
        let socket = MHD_quiesce_daemon(daemon)
        guard socket >= 0 else { return }
        Glibc.shutdown(socket, Int32(SHUT_RDWR))
        quiescedSocket.withLock { $0 = socket }
    }

    /// Stops MHD's threads and closes every connection. Every suspended connection must have been
    /// resumed (`ServerCore.beginStopping()` sees to it).
    func stop() {
        MHD_stop_daemon(daemon)
        if let socket = quiescedSocket.withLock({ $0 }) {
            close(socket)
        }
        imgcache_mhd_log_destroy(log)
        log.deallocate()
    }
}

/// Seconds rounded up, within 0...UInt32.max (NaN: 0).
private func wholeSeconds(_ seconds: Double) -> UInt32 {
    let rounded = seconds.rounded(.up)
    guard rounded > 0 else { return 0 }
    return rounded < Double(UInt32.max) ? UInt32(rounded) : UInt32.max
}

private func core(_ context: UnsafeMutableRawPointer?) -> ServerCore? {
    context.map { Unmanaged<ServerCore>.fromOpaque($0).takeUnretainedValue() }
}

/// The request line is in: the exchange (retained here, released in `requestCompleted`) becomes
/// the request's context, holding the target before MHD decodes any of it.
private let uriReceived: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
    context, uri, _ in
    guard let core = core(context) else { return nil }
    let exchange = core.requestLine(target: uri.map { String(cString: $0) } ?? "")
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// The response is sent (or the connection failed): a corked socket lets its last bytes go.
private let requestCompleted: MHD_RequestCompletedCallback = { context, connection, requestContext, _ in
    guard let core = core(context), let requestContext, let opaque = requestContext.pointee else { return }
    requestContext.pointee = nil
    let exchange = Unmanaged<Exchange>.fromOpaque(opaque).takeRetainedValue()
    if let connection, exchange.corked { imgcache_mhd_cork(connection, 0) }
    core.completed(exchange)
}

private let connectionNotified: MHD_NotifyConnectionCallback = { context, _, _, code in
    guard let core = core(context) else { return }
    if code == .CONNECTION_NOTIFY_STARTED {
        core.connectionOpened()
    } else {
        core.connectionClosed()
    }
}

/// Called once the headers are in (the request is answered at once, or accepted), again once the
/// whole request is in (answered, or suspended while its handler runs: a response queued at the
/// first call makes MHD close the connection after it), and after the connection resumed (its
/// response is queued).
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, _, method, _, _, uploadSize, requestContext in
    guard let core = core(context), let connection, let opaque = requestContext?.pointee else { return .NO }
    let exchange = Unmanaged<Exchange>.fromOpaque(opaque).takeUnretainedValue()
    if let response = exchange.takeResponse() {
        core.responded(exchange, response)
        return queue(response, for: exchange, on: connection, closing: core.closesConnections)
    }
    switch exchange.stage {
    case .requestLine:
        let peer = imgcache_mhd_client_address(connection).flatMap { NetworkAddress(socketAddress: $0) }
        let method = method.map { String(cString: $0) } ?? ""
        exchange.method = method
        let headerBytes = imgcache_mhd_request_header_size(connection)
        switch core.screen(exchange, method: method, headers: headers(of: connection), headerBytes: headerBytes, peer: peer) {
        case .answer(let response):
            exchange.stage = .begun
            core.responded(exchange, response)
            return queue(response, for: exchange, on: connection, closing: core.closesConnections)
        case .accept(let request):
            exchange.stage = .screened(request)
            return .YES
        }
    case .screened(let request):
        // Screening refused every request that announces a body.
        guard (uploadSize?.pointee ?? 0) == 0 else { return .NO }
        exchange.stage = .begun
        switch core.begin(request) {
        case .answer(let response):
            core.responded(exchange, response)
            return queue(response, for: exchange, on: connection, closing: core.closesConnections)
        case .run(let admitted):
            MHD_suspend_connection(connection)
            core.start(exchange, admitted, on: MHDConnection(pointer: connection))
            return .YES
        }
    case .begun:
        // Called again without a response: cannot happen while the connection is suspended;
        // closing is better than being called again at once, forever.
        return .NO
    }
}

/// `value` without the spaces and tabs around it (libmicrohttpd leaves trailing tabs).
private func trimmingWhitespace(_ value: String) -> String {
    let scalars = value.unicodeScalars
    let isWhitespace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = scalars.firstIndex(where: { !isWhitespace($0) }), let last = scalars.lastIndex(where: { !isWhitespace($0) }) else {
        return ""
    }
    return String(scalars[first...last])
}

/// The request's header fields in order, names lower-cased, values trimmed.
private func headers(of connection: OpaquePointer) -> HTTPHeaders {
    var fields: [HTTPHeaders.Field] = []
    withUnsafeMutablePointer(to: &fields) { pointer in
        _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
            guard let fields = context?.assumingMemoryBound(to: [HTTPHeaders.Field].self), let key else { return .YES }
            let value = value.map { String(cString: $0) } ?? ""
            fields.pointee.append(HTTPHeaders.Field(name: String(cString: key).lowercased(), value: trimmingWhitespace(value)))
            return .YES
        }, pointer)
    }
    return HTTPHeaders(fields)
}

/// Hands `prepared` to MHD, adding `Connection: close` while the server drains. A header MHD
/// refuses (a control character in it) turns the response into a 500. A file's socket is corked
/// until the response is sent (`requestCompleted`), so that its header and the file's start share
/// a packet.
private func queue(_ prepared: PreparedResponse, for exchange: Exchange, on connection: OpaquePointer, closing: Bool) -> MHD_Result {
    let response: OpaquePointer?
    switch prepared.body {
    case .bytes(let bytes):
        response = bytes.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let file):
        guard let descriptor = file.take() else { return .NO }
        response = MHD_create_response_from_fd64(file.size, descriptor)
        if response == nil { close(descriptor) }
    }
    guard let response else { return .NO }
    defer { MHD_destroy_response(response) }
    var fields = prepared.headers.fields
    if closing { fields.append(HTTPHeaders.Field(name: "Connection", value: "close")) }
    for field in fields where MHD_add_response_header(response, field.name, field.value) != .YES {
        return queue(
            PreparedResponse(text: 500, "the handler's response has a header that cannot be sent"), for: exchange, on: connection,
            closing: closing)
    }
    if case .file = prepared.body, !exchange.corked {
        imgcache_mhd_cork(connection, 1)
        exchange.corked = true
    }
    return MHD_queue_response(connection, UInt32(prepared.status), response)
}
