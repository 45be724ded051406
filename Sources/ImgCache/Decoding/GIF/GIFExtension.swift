/// A GIF extension block as read: its label and first data sub-blocks.
struct GIFExtension: Equatable {
    static let graphicControlLabel = 0xF9
    static let applicationLabel = 0xFF

    var code: Int
    /// The first (at most two) data sub-blocks, without their length bytes.
    var blocks: [[UInt8]]

    /// The graphic control block (GCB) this extension carries, if it is one with at least 4 bytes.
    var graphicControl: GIFGraphicControl? {
        guard code == Self.graphicControlLabel, let data = blocks.first, data.count >= 4 else { return nil }
        let flags = data[0]
        return GIFGraphicControl(
            disposal: GIFDisposal(code: Int(flags >> 2) & 0x07),
            delayCentiseconds: Int(data[1]) | Int(data[2]) << 8,
            transparentIndex: flags & 0x01 != 0 ? Int(data[3]) : nil)
    }

    /// The loop count of a NETSCAPE2.0 (or ANIMEXTS1.0) application extension: its sub-block
    /// `01 lo hi`; 0 means forever.
    var loopCount: Int? {
        guard code == Self.applicationLabel, blocks.count == 2 else { return nil }
        let identifier = blocks[0], data = blocks[1]
        guard identifier == Array("NETSCAPE2.0".utf8) || identifier == Array("ANIMEXTS1.0".utf8),
              data.count >= 3, data[0] == 1 else { return nil }
        return Int(data[1]) | Int(data[2]) << 8
    }
}

/// What a graphic control block says about the image that follows it.
struct GIFGraphicControl: Equatable {
    /// Default for an image without a GCB: no disposal, no delay, no transparency.
    static let none = GIFGraphicControl(disposal: .none, delayCentiseconds: 0, transparentIndex: nil)

    var disposal: GIFDisposal
    var delayCentiseconds: Int
    var transparentIndex: Int?
}

/// What happens to a frame's rectangle once the frame has been shown.
enum GIFDisposal: Equatable {
    /// Left in place (codes 0 "unspecified", 1 "do not dispose", and the undefined 4-7).
    case none
    /// Cleared to transparent (code 2). Browsers clear rather than fill with the background colour.
    case background
    /// Restored to what it was before the frame was drawn (code 3).
    case previous

    init(code: Int) {
        switch code {
        case 2: self = .background
        case 3: self = .previous
        default: self = .none
        }
    }
}
