import Foundation
import ImgCache
import XCTest

/// Tests/Scripts/color_reference.py: files with ICC profiles and their sRGB conversions made by
/// Pillow's ImageCms (Little CMS), the reference the colour tests compare with.
public enum ColorReferenceScript {
    /// Runs the script with `arguments` (see its usage); skips the test when Pillow is missing.
    /// - Throws: `XCTSkip` without Pillow; `invalidArgument` with the script's message when it fails.
    public static func run(_ arguments: [String]) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/color_reference.py")
        let result = try ProductRunner.runTool("python3", [script.path] + arguments)
        if result.errors.contains("No module named 'PIL'") { throw XCTSkip("Pillow is not installed (make setup installs it)") }
        guard result.status == 0, !result.killedBySignal else {
            throw ImgCacheError.invalidArgument("color_reference.py failed: \(result.errors)")
        }
    }
}
