import Foundation
import ImgCache
import ImgCacheDrawing

/// `imgcache overlay SCREENSHOT [--device NAME] [--icons small|large] [--ios N] -o OUT.png`
enum OverlayCommand: Command {
    static let name = "overlay"
    static let summary = "draw every widget slot over a home-screen screenshot, to check alignment"
    static let usage = "imgcache overlay SCREENSHOT -o OUT.png [options]"
    static let about = """
        Draws every widget slot of the screenshot's layout (see 'imgcache layout') over it: each
        slot outlined 2 pixels wide on its outermost pixels (small yellow, medium green, large
        pink) and labelled with its name and pixel origin, e.g. "medium-top 87,261"; at the
        top-left corner, the layout's size, icons and iOS version, and whether it was measured
        (on which models) or is ESTIMATED (with its expected error).
        The output has the screenshot's size; every other pixel is the screenshot's.
        """
    static let options: [OptionHelp] = [
        OptionHelp(["-o", "--output"], "OUT", .file, "the picture: PNG, or JPEG when OUT ends in .jpg (required)"),
    ] + LayoutArguments.deviceOptions + LayoutArguments.options

    static func run(_ arguments: inout ArgumentList) throws {
        let layoutArguments = try LayoutArguments.parse(&arguments)
        let output = try arguments.value("-o", "--output")
        let path = try arguments.positionals(1, usage: "imgcache overlay SCREENSHOT -o OUT.png")[0]
        guard let output else { throw UsageError("-o OUT.png is required") }
        let format = try FetchCommand.outputFormat(forPath: output, quality: nil).format
        guard format == .png || format == .jpeg else {
            throw UsageError("the overlay is PNG or JPEG: '\(output)' names \(format.rawValue.uppercased())")
        }
        let screenshot = ImageSource.file(path: path)
        let layout = try layoutArguments.layout(screenshot: ImageDecoder.inspect(screenshot).size)
        let decoded = try ImageDecoder.decode(screenshot, options: DecodingOptions(maxFrames: 1)).frames[0].bitmap
        let picture = try SlotOverlay.draw(layout.slots, caption: LayoutReport.caption(layout), on: decoded)
        let data = format == .jpeg ? try JPEGEncoder.encode(picture) : try PNGEncoder.encode(picture)
        try DecodeCommand.write(data, to: output)
        print("\(output): \(picture.size) \(format.rawValue.uppercased()), \(layout.slots.count) slots outlined, \(data.count) bytes")
    }
}
