/// Which master of a Redis Cluster serves each hash slot, as `CLUSTER SLOTS` tells it. Slots
/// that no range names have no master (a cluster being set up, or a part of it down).
struct RedisSlotMap: Sendable {
    /// The masters named, each once.
    private(set) var masters: [RedisAddress] = []
    /// For each slot, its master's index in `masters`, or `unowned`.
    private var owners = [UInt16](repeating: unowned, count: RedisHashSlot.count)

    private static let unowned = UInt16.max

    /// The map in a `CLUSTER SLOTS` reply: an array of ranges `[first, last, [host, port, ...],
    /// replicas...]`. A master whose host is empty is `node` (the one that answered, as Redis
    /// means it); one whose host is unknown (null or `?`) leaves its range without a master.
    /// Nil for a reply of another shape, a slot out of 0...16383, a range backwards, ranges that
    /// together cover more slots than there are, or a port out of 1...65535.
    init?(slotsReply reply: RedisReply, from node: RedisAddress) {
        guard case .array(let ranges) = reply else { return nil }
        var covered = 0
        for range in ranges {
            guard case .array(let fields) = range, fields.count >= 3,
                  case .integer(let first) = fields[0], case .integer(let last) = fields[1],
                  0 <= first, first <= last, last < RedisHashSlot.count,
                  case .array(let master) = fields[2], master.count >= 2, case .integer(let port) = master[1],
                  (1...65_535).contains(port)
            else { return nil }
            covered += last - first + 1
            guard covered <= RedisHashSlot.count else { return nil }
            let host: String
            switch master[0] {
            case .bytes(let bytes): host = String(decoding: bytes, as: UTF8.self)
            case .null: continue
            default: return nil
            }
            if host == "?" { continue }
            let address = host.isEmpty ? RedisAddress(host: node.host, port: port) : RedisAddress(host: host, port: port)
            for slot in first...last { assign(slot, to: address) }
        }
    }

    /// The master serving `slot`, nil when none does.
    func master(of slot: Int) -> RedisAddress? {
        let owner = owners[slot]
        return owner == Self.unowned ? nil : masters[Int(owner)]
    }

    /// True when no slot has a master.
    var isEmpty: Bool { masters.isEmpty }

    /// Makes `address` the master of `slot` (a `MOVED` redirect's news).
    mutating func assign(_ slot: Int, to address: RedisAddress) {
        if let index = masters.firstIndex(of: address) {
            owners[slot] = UInt16(index)
        } else if masters.count < Int(Self.unowned) {
            owners[slot] = UInt16(masters.count)
            masters.append(address)
        }
    }
}
