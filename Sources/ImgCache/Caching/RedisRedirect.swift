/// A cluster node's answer that a slot is served elsewhere: `-MOVED <slot> <host>:<port>` (for
/// good: the slot map is out of date) or `-ASK <slot> <host>:<port>` (this once, while the slot
/// migrates: the command goes to that node after `ASKING`).
struct RedisRedirect: Equatable {
    enum Kind: Equatable {
        case moved
        case ask
    }

    let kind: Kind
    let slot: Int
    let address: RedisAddress

    /// The redirect in an error reply's text, nil when it is none (or malformed). An empty host
    /// means the node that answered, `node`.
    init?(error text: String, from node: RedisAddress) {
        let words = text.split(separator: " ")
        guard words.count == 3, let slot = Int(words[1]), (0..<RedisHashSlot.count).contains(slot),
              let colon = words[2].lastIndex(of: ":"), let port = Int(words[2][words[2].index(after: colon)...]),
              (1...65_535).contains(port)
        else { return nil }
        switch words[0] {
        case "MOVED": kind = .moved
        case "ASK": kind = .ask
        default: return nil
        }
        var host = words[2][..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        self.slot = slot
        address = RedisAddress(host: host.isEmpty ? node.host : String(host), port: port)
    }

    /// The first redirect among `replies` (a command in a transaction is redirected in its own
    /// reply, and EXEC then fails), nil when none is.
    init?(in replies: [RedisReply], from node: RedisAddress) {
        for reply in replies {
            if case .error(let text) = reply, let redirect = RedisRedirect(error: text, from: node) {
                self = redirect
                return
            }
        }
        return nil
    }
}
