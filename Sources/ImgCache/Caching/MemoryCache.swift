import Synchronization

/// A process-local, thread-safe cache that keeps the most recently used values within a total cost
/// (for images: the bytes of their frames), evicting least recently used first.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Total cost kept. Default 64 MiB.
    public let costLimit: Int
    /// A value costing more than this share of `costLimit` is not kept, so that one large image does
    /// not flush everything else. Default 0.25.
    public let maxEntryShare: Double
    private let storage: Mutex<Storage>

    /// An empty cache keeping at most `costLimit` (default 64 MiB; a negative limit counts as 0)
    /// and no value over `maxEntryShare` of it (default 0.25, clamped to 0...1).
    public init(costLimit: Int = 64 * 1024 * 1024, maxEntryShare: Double = 0.25) {
        self.costLimit = max(0, costLimit)
        self.maxEntryShare = min(max(maxEntryShare, 0), 1)
        storage = Mutex(Storage())
    }

    /// The value for `key`, which becomes the most recently used; nil when absent.
    public func value(for key: Key) -> Value? {
        storage.withLock { $0.value(for: key) }
    }

    /// Keeps `value` for `key` at `cost`, evicting least recently used values to stay within the limit.
    /// Returns false (and drops any older value for `key`) when `cost` is over the entry share.
    @discardableResult
    public func set(_ value: Value, for key: Key, cost: Int) -> Bool {
        let cost = max(0, cost)
        let kept = Double(cost) <= Double(costLimit) * maxEntryShare
        storage.withLock { storage in
            storage.remove(key)
            guard kept else { return }
            storage.insert(value, for: key, cost: cost)
            while storage.totalCost > costLimit { storage.removeLeastRecentlyUsed() }
        }
        return kept
    }

    /// Drops the value for `key`, if any.
    public func removeValue(for key: Key) {
        storage.withLock { $0.remove(key) }
    }

    /// Drops every value.
    public func removeAll() {
        storage.withLock { $0 = Storage() }
    }

    /// Sum of the costs of the values kept.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// Number of values kept.
    public var count: Int { storage.withLock { $0.slots.count } }

    /// Values in a doubly linked list threaded through an array (index links, no per-node allocation),
    /// most recently used at `head`.
    struct Storage {
        struct Node {
            var key: Key?
            var value: Value?
            var cost: Int
            var previous: Int
            var next: Int
        }

        var nodes: [Node] = []
        var slots: [Key: Int] = [:]
        var free: [Int] = []
        var head = -1
        var tail = -1
        var totalCost = 0

        mutating func value(for key: Key) -> Value? {
            guard let slot = slots[key] else { return nil }
            if slot != head {
                unlink(slot)
                pushFront(slot)
            }
            return nodes[slot].value
        }

        mutating func insert(_ value: Value, for key: Key, cost: Int) {
            let node = Node(key: key, value: value, cost: cost, previous: -1, next: -1)
            let slot: Int
            if let reused = free.popLast() {
                slot = reused
                nodes[slot] = node
            } else {
                slot = nodes.count
                nodes.append(node)
            }
            slots[key] = slot
            totalCost += cost
            pushFront(slot)
        }

        mutating func remove(_ key: Key) {
            guard let slot = slots.removeValue(forKey: key) else { return }
            release(slot)
        }

        mutating func removeLeastRecentlyUsed() {
            guard tail >= 0, let key = nodes[tail].key else { return }
            slots[key] = nil
            release(tail)
        }

        private mutating func release(_ slot: Int) {
            unlink(slot)
            totalCost -= nodes[slot].cost
            nodes[slot] = Node(key: nil, value: nil, cost: 0, previous: -1, next: -1)
            free.append(slot)
        }

        private mutating func unlink(_ slot: Int) {
            let (previous, next) = (nodes[slot].previous, nodes[slot].next)
            if previous >= 0 { nodes[previous].next = next } else { head = next }
            if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        }

        private mutating func pushFront(_ slot: Int) {
            nodes[slot].previous = -1
            nodes[slot].next = head
            if head >= 0 { nodes[head].previous = slot }
            head = slot
            if tail < 0 { tail = slot }
        }
    }
}
