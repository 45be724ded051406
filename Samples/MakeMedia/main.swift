// Draws the sample media from code, so the repository holds no third-party images:
//   harbour.jpg  3000x2000 photo-like scene (sky, sea, hills, boats, film grain), JPEG quality 90
//   portrait.jpg 1500x2000 portrait-like scene (a face and shoulders in the upper third, left of
//                centre, before a soft studio backdrop, film grain), JPEG quality 90: the smart
//                crop's sample (its subject is not in the middle)
//   badge.png    640x640 translucent badge (soft shadow, alpha gradient), RGBA PNG
//   spinner.gif  480x480, 36 frames of a turning colour wheel on transparency, 40 ms each, looping
//   home-screen.png  1206x2622 synthetic iPhone 16 Pro home screen (gradient wallpaper, app icons in
//                the widget grid of the measured layout, a dock), for `imgcache slice` and `overlay`
// Run: swift run make-sample-media [OUTPUT_FOLDER]   (default Samples/media)
// The picture in docs/widgets.md is the overlay of home-screen.png at half size:
//   imgcache overlay Samples/media/home-screen.png -o overlay.png
//   imgcache decode overlay.png --size 603x1311 -o Samples/media/home-screen-overlay.png
// The output is the same on every run: the grain comes from a fixed-seed generator.
import Foundation
import ImgCache

let folder = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "Samples/media")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

/// A small reproducible pseudo-random generator (SplitMix64).
struct Grain {
    var state: UInt64
    mutating func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % 17) - 8
    }
}

func clamp(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }

func harbour(width: Int, height: Int) throws -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    var grain = Grain(state: 2026)
    let horizon = Double(height) * 0.55
    for y in 0..<height {
        let v = Double(y) / Double(height)
        for x in 0..<width {
            let u = Double(x) / Double(width)
            let hill = horizon - Double(height) * (0.08 + 0.06 * sin(u * 9) + 0.03 * sin(u * 23 + 1))
            var r: Double, g: Double, b: Double
            if Double(y) < hill {
                r = 90 + 120 * v; g = 150 + 80 * v; b = 235 - 20 * v // sky
                let sun = hypot(u - 0.72, (v - 0.18) * 1.5)
                if sun < 0.05 { r = 255; g = 236; b = 170 } else if sun < 0.12 { r += 60 * (0.12 - sun) / 0.07; g += 40 * (0.12 - sun) / 0.07 }
            } else if Double(y) < horizon {
                r = 60 + 30 * sin(u * 40); g = 110 + 20 * v; b = 70 // hills
            } else {
                let wave = sin(Double(x) / 9 + Double(y) / 3) * 10
                r = 20 + 30 * v + wave; g = 70 + 40 * v + wave; b = 120 + 50 * v + wave // sea
            }
            for boat in 0..<7 {
                let bx = 0.1 + Double(boat) * 0.12, by = 0.62 + Double(boat % 3) * 0.08
                if abs(u - bx) < 0.03 - (v - by) * 0.3 && v > by && v < by + 0.025 { r = 200; g = 40 + Double(boat) * 25; b = 30 }
                if abs(u - bx) < 0.002 && v > by - 0.08 && v <= by { r = 80; g = 60; b = 50 }
                if u > bx && u < bx + 0.025 * (by - v) / 0.08 && v > by - 0.075 && v < by - 0.005 { r = 245; g = 245; b = 240 }
            }
            let n = Double(grain.next())
            let i = (y * width + x) * 4
            pixels[i] = clamp(r + n); pixels[i + 1] = clamp(g + n); pixels[i + 2] = clamp(b + n)
        }
    }
    return try Bitmap(size: PixelSize(width: width, height: height), pixels: pixels)
}

func portrait(width: Int, height: Int) throws -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    var grain = Grain(state: 1500)
    let (faceX, faceY) = (0.38, 0.27) // the face's centre, in fractions of the width and height
    for y in 0..<height {
        let v = Double(y) / Double(height)
        for x in 0..<width {
            let u = Double(x) / Double(width)
            // A backdrop fading from slate blue to grey, lit from the top right.
            let light = 1 - 0.35 * hypot(u - 0.8, v - 0.1)
            var r = 95 * light + 20 * v, g = 110 * light + 15 * v, b = 135 * light
            let dx = (u - faceX) * Double(width) / Double(height), dy = v - faceY
            let face = hypot(dx / 0.085, dy / 0.115)
            let shoulders = v > faceY + 0.14 && abs(dx) < 0.07 + (v - faceY - 0.14) * 0.6
            if shoulders { r = 58 + 8 * light; g = 60 + 8 * light; b = 66 + 8 * light } // a charcoal jumper
            if face < 1.25 && dy < -0.04 && face > 0.9 { r = 55; g = 35; b = 25 } // hair
            if face < 1 {
                r = 224 - 40 * face; g = 172 - 35 * face; b = 140 - 30 * face // skin, shaded to the edge
                for eye in [-0.032, 0.032] {
                    if hypot(dx - eye, dy + 0.02) < 0.011 { r = 40; g = 30; b = 30 }
                    if abs(dx - eye) < 0.018 && abs(dy + 0.042) < 0.003 { r = 70; g = 45; b = 35 } // brows
                }
                if abs(dx) < 0.004 && dy > -0.01 && dy < 0.03 { r -= 30; g -= 30; b -= 25 } // the nose's shadow
                if abs(dx) < 0.035 && abs(dy - 0.055) < 0.006 { r = 170; g = 70; b = 70 } // mouth
            }
            let n = Double(grain.next())
            let i = (y * width + x) * 4
            pixels[i] = clamp(r + n); pixels[i + 1] = clamp(g + n); pixels[i + 2] = clamp(b + n)
        }
    }
    return try Bitmap(size: PixelSize(width: width, height: height), pixels: pixels)
}

func badge(side: Int) throws -> Bitmap {
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    let centre = Double(side) / 2
    for y in 0..<side {
        for x in 0..<side {
            let dx = Double(x) - centre, dy = Double(y) - centre
            let distance = hypot(dx, dy) / centre
            let i = (y * side + x) * 4
            if distance < 0.8 {
                let angle = atan2(dy, dx)
                pixels[i] = clamp(128 + 127 * cos(angle)); pixels[i + 1] = clamp(128 + 127 * sin(angle))
                pixels[i + 2] = clamp(255 * (1 - distance)); pixels[i + 3] = clamp(255 * (1 - 0.6 * distance))
            } else if distance < 0.95 {
                pixels[i + 3] = clamp(120 * (0.95 - distance) / 0.15) // soft shadow
            }
        }
    }
    return try Bitmap(size: PixelSize(width: side, height: side), pixels: pixels)
}

func spinnerFrame(side: Int, step: Int, steps: Int) throws -> Bitmap {
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    let centre = Double(side) / 2, turn = 2 * Double.pi * Double(step) / Double(steps)
    for y in 0..<side {
        for x in 0..<side {
            let dx = Double(x) - centre + 0.5, dy = Double(y) - centre + 0.5
            let radius = hypot(dx, dy) / centre
            guard radius > 0.55 && radius < 0.9 else { continue }
            var angle = atan2(dy, dx) - turn
            angle = angle.truncatingRemainder(dividingBy: 2 * .pi)
            if angle < 0 { angle += 2 * .pi }
            let fade = angle / (2 * .pi) // the arc's tail fades out
            guard fade > 0.25 else { continue }
            let i = (y * side + x) * 4
            pixels[i] = clamp(255 * fade); pixels[i + 1] = clamp(90 + 120 * (1 - fade)); pixels[i + 2] = clamp(220 - 100 * fade)
            pixels[i + 3] = 255
        }
    }
    return try Bitmap(size: PixelSize(width: side, height: side), pixels: pixels)
}

func spinner(side: Int, steps: Int) throws -> Data {
    let encoder = try GIFEncoder(size: PixelSize(width: side, height: side), loopCount: 0)
    for step in 0..<steps { try encoder.add(ImageFrame(bitmap: spinnerFrame(side: side, step: step, steps: steps), delayCentiseconds: 4)) }
    return try encoder.finish()
}

/// A synthetic home screen: a diagonal gradient wallpaper with soft light spots, four rounded app
/// icons in each small-widget cell of the measured layout (so the slots frame them as widgets
/// would), and a translucent dock of four icons.
func homeScreen() throws -> Bitmap {
    let size = PixelSize(width: 1206, height: 2622)
    let layout = try HomeScreenLayout.resolve(screenshot: size, iOS: 18)
    var pixels = [UInt8](repeating: 255, count: size.area * 4)
    for y in 0..<size.height {
        for x in 0..<size.width {
            let u = Double(x) / Double(size.width), v = Double(y) / Double(size.height)
            let t = (u + 2 * v) / 3
            let glow = exp(-(pow(u - 0.75, 2) + pow(v - 0.3, 2)) * 18) * 70 + exp(-(pow(u - 0.2, 2) + pow(v - 0.75, 2)) * 14) * 50
            let i = (y * size.width + x) * 4
            pixels[i] = clamp(40 + 190 * t + glow); pixels[i + 1] = clamp(30 + 80 * t + glow * 0.7); pixels[i + 2] = clamp(120 - 40 * t + glow * 0.4)
        }
    }
    /// Blends a rounded rectangle (antialiased edge) of `colour` at `opacity` into the pixels.
    func roundedRect(x: Double, y: Double, width: Double, height: Double, radius: Double, colour: (Double, Double, Double), opacity: Double) {
        for py in Int(y)..<Int((y + height).rounded(.up)) {
            for px in Int(x)..<Int((x + width).rounded(.up)) {
                let cx = min(max(Double(px) + 0.5, x + radius), x + width - radius)
                let cy = min(max(Double(py) + 0.5, y + radius), y + height - radius)
                let coverage = min(1, max(0, radius + 0.5 - hypot(Double(px) + 0.5 - cx, Double(py) + 0.5 - cy))) * opacity
                let i = (py * size.width + px) * 4
                pixels[i] = clamp(Double(pixels[i]) * (1 - coverage) + colour.0 * coverage)
                pixels[i + 1] = clamp(Double(pixels[i + 1]) * (1 - coverage) + colour.1 * coverage)
                pixels[i + 2] = clamp(Double(pixels[i + 2]) * (1 - coverage) + colour.2 * coverage)
            }
        }
    }
    let palette: [(Double, Double, Double)] = [
        (52, 199, 89), (0, 122, 255), (255, 149, 0), (255, 59, 48), (175, 82, 222), (90, 200, 250), (255, 204, 0), (88, 86, 214),
    ]
    func icon(_ index: Int, x: Double, y: Double, side: Double) {
        roundedRect(x: x, y: y, width: side, height: side, radius: side / 4, colour: palette[index % palette.count], opacity: 1)
        roundedRect(x: x + side * 0.3, y: y + side * 0.3, width: side * 0.4, height: side * 0.4, radius: side / 10,
                    colour: (255, 255, 255), opacity: 0.85)
    }
    var index = 0
    for slot in layout.slots where slot.family == .small {
        let cell = Double(slot.rect.width) / 2, side = cell * 0.72
        for row in 0..<2 {
            for column in 0..<2 {
                icon(index, x: Double(slot.rect.x) + cell * Double(column) + (cell - side) / 2,
                     y: Double(slot.rect.y) + cell * Double(row) + (cell - side) / 2, side: side)
                index += 1
            }
        }
    }
    let dockTop = Double(size.height) - 330, dockHeight = 288.0
    roundedRect(x: 36, y: dockTop, width: Double(size.width) - 72, height: dockHeight, radius: 96, colour: (255, 255, 255), opacity: 0.3)
    for column in 0..<4 {
        let cell = (Double(size.width) - 2 * 87) / 4, side = cell * 0.7
        icon(column * 5 + 1, x: 87 + cell * Double(column) + (cell - side) / 2, y: dockTop + (dockHeight - side) / 2, side: side)
    }
    return try Bitmap(size: size, pixels: pixels)
}

try JPEGEncoder.encode(harbour(width: 3000, height: 2000), quality: 90).write(to: folder.appendingPathComponent("harbour.jpg"))
try JPEGEncoder.encode(portrait(width: 1500, height: 2000), quality: 90).write(to: folder.appendingPathComponent("portrait.jpg"))
try PNGEncoder.encode(badge(side: 640)).write(to: folder.appendingPathComponent("badge.png"))
try spinner(side: 480, steps: 36).write(to: folder.appendingPathComponent("spinner.gif"))
try PNGEncoder.encode(homeScreen()).write(to: folder.appendingPathComponent("home-screen.png"))
print("wrote harbour.jpg, portrait.jpg, badge.png, spinner.gif and home-screen.png to \(folder.path)")
