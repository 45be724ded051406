import Foundation

/// What a load reports to `DataRequest.observer` as it goes, in order, one event at a time.
///
/// An HTTP load reports `attemptStarted` for each attempt, then, when the attempt reaches a server
/// that answers with a redirect, `redirected` for each redirect followed, and `progress` as the
/// final response's body arrives. Each request sent to a server is one `attemptStarted` or one
/// `redirected`, so their count is the lines the servers' access logs gain (less any attempt whose
/// connection failed before its request was sent). A load of a `file://` URL reports one `progress`
/// with the file's size.
public enum DataLoadEvent: Sendable, Hashable {
    /// Attempt `number` (from 1; a retry is the next number) is about to send its request.
    case attemptStarted(number: Int)
    /// The attempt follows a redirect: a request for `url` is about to be sent.
    case redirected(to: URL)
    /// Body bytes arrived: `receivedBytes` of this attempt's body so far (after any
    /// `Content-Encoding` is undone; a retry starts again from 0), of `expectedBytes`, the
    /// `Content-Length` of a body without `Content-Encoding`, else nil. A 304 has no body and
    /// reports none.
    case progress(receivedBytes: Int64, expectedBytes: Int64?)
}
