import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The delegate of a loader's URLSessions: it hands each data task's callbacks to the `Transfer`
/// registered for it, and remembers which servers have answered on each session until it is
/// invalidated (`hasAnswered(_:on:)`). It holds no reference to the loader, so a session (which
/// keeps its delegate until invalidated) makes no cycle.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// The servers that have answered on one session.
    private struct Answered {
        var origins: Set<HTTPOrigin> = []
        /// More than `maxRememberedOrigins` have: every server counts as one that has.
        var isOverflowing = false
    }

    /// The most servers remembered for one session (1024), so that a long-lived session that
    /// fetches from ever more hosts keeps bounded memory; past it, every server counts as one
    /// that has answered.
    static let maxRememberedOrigins = 1024

    /// Keyed by task object: task identifiers are unique only within one session.
    private let transfers = Mutex<[ObjectIdentifier: Transfer]>([:])
    /// Keyed by session object, removed when the session becomes invalid.
    private let answered = Mutex<[ObjectIdentifier: Answered]>([:])

    /// Routes `task`'s callbacks to `transfer` until the task completes.
    func register(_ transfer: Transfer, for task: URLSessionTask) {
        transfers.withLock { $0[ObjectIdentifier(task)] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[ObjectIdentifier(task)] }
    }

    /// Whether the headers of a response (a redirect's included) from `origin` have come on
    /// `session`: only then can the session hold a connection to it that carried a response
    /// and was kept alive for the next request. An answer is recorded when its headers' callback
    /// runs on the session's one delegate queue, so ahead of every callback of a request that
    /// libcurl gave that connection to next.
    func hasAnswered(_ origin: HTTPOrigin, on session: URLSession) -> Bool {
        answered.withLock { answered in
            guard let record = answered[ObjectIdentifier(session)] else { return false }
            return record.isOverflowing || record.origins.contains(origin)
        }
    }

    private func recordAnswer(_ response: URLResponse, on session: URLSession) {
        guard let url = response.url else { return }
        let origin = HTTPOrigin(url)
        answered.withLock { answered in
            var record = answered[ObjectIdentifier(session)] ?? Answered()
            guard !record.isOverflowing, !record.origins.contains(origin) else { return }
            if record.origins.count < Self.maxRememberedOrigins {
                record.origins.insert(origin)
            } else {
                record = Answered(isOverflowing: true)
            }
            answered[ObjectIdentifier(session)] = record
        }
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: Error?) {
        answered.withLock { $0[ObjectIdentifier(session)] = nil }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        recordAnswer(response, on: session)
        guard let transfer = transfer(for: task) else { return completionHandler(nil) }
        transfer.redirect(to: request, by: response, answer: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // FoundationNetworking ignores `.cancel` here (it cannot pause libcurl), so a transfer
        // that refuses the response cancels its task itself.
        recordAnswer(response, on: session)
        transfer(for: dataTask)?.receive(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.receive(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }
        transfer?.complete(error)
    }
}
