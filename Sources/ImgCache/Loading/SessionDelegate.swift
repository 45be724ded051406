import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The delegate of a loader's URLSessions: it hands each data task's callbacks to the `Transfer`
/// registered for it. It holds no reference to the loader, so a session (which keeps its delegate
/// until invalidated) makes no cycle.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Keyed by task object: task identifiers are unique only within one session.
    private let transfers = Mutex<[ObjectIdentifier: Transfer]>([:])

    /// Routes `task`'s callbacks to `transfer` until the task completes.
    func register(_ transfer: Transfer, for task: URLSessionTask) {
        transfers.withLock { $0[ObjectIdentifier(task)] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        transfers.withLock { $0[ObjectIdentifier(task)] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let transfer = transfer(for: task) else { return completionHandler(nil) }
        transfer.redirect(to: request, by: response, answer: completionHandler)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // FoundationNetworking ignores `.cancel` here (it cannot pause libcurl), so a transfer
        // that refuses the response cancels its task itself.
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
