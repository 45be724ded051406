import Foundation

extension ImagePipeline {
    /// Ends the pipeline, in order: calls made from now on fail with `ImgCacheError.shutDown`
    /// (`prefetch` fails each request so, `storedSummary(for:)` is nil); the calls in flight
    /// finish; the Redis tier's counters are sent and its connections closed; the work queued on
    /// the pipeline's threads runs and the threads end (this call blocks one of the caller's
    /// threads until they have); the disk cache's index is closed; and the loader the pipeline
    /// made (not one of `Configuration.dataLoader`) ends its sessions and threads.
    ///
    /// Call it before the process exits: a process that exits with threads still ending can
    /// crash in a library's exit-time clean-up. Later and concurrent calls wait for the first to
    /// finish. Cancelling the calling task does not stop it.
    public func shutdown() async {
        let work = ending.withLock { ending in
            if let ending { return ending }
            let work = Task { await end() }
            ending = work
            return work
        }
        await work.value
    }

    private func end() async {
        await lifecycle.closeAndWait()
        if let redis {
            try? await shared.io.run { redis.close() }
        }
        shared.io.shutdown()
        blocking.shutdown()
        diskCache.close()
        ownLoader?.shutdown()
    }
}
