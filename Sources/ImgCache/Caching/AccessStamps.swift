/// Reads recorded in memory until they are written to the index in one transaction, so that a
/// read does not cost a write transaction.
struct AccessStamps {
    private(set) var pending: [String: Double] = [:]
    private var oldest: Double?
    let flushCount: Int
    let flushInterval: Double

    init(flushCount: Int, flushInterval: Double) {
        self.flushCount = flushCount
        self.flushInterval = flushInterval
    }

    /// Records a read of `key` at `time`; true when the pending stamps are due to be written.
    mutating func record(_ key: String, at time: Double) -> Bool {
        pending[key] = time
        if oldest == nil { oldest = time }
        return isDue(at: time)
    }

    /// True when `flushCount` stamps are pending or the oldest is `flushInterval` old.
    func isDue(at time: Double) -> Bool {
        pending.count >= flushCount || oldest.map { time - $0 >= flushInterval } ?? false
    }

    /// Drops a stamp that a write made moot.
    mutating func forget(_ key: String) {
        pending[key] = nil
    }

    /// The pending stamps, leaving none.
    mutating func take() -> [String: Double] {
        defer {
            pending = [:]
            oldest = nil
        }
        return pending
    }
}
