// imgcache-bench: named scenarios over the benchmark corpus (Benchmarks/make-corpus.py).
//
//   imgcache-bench [--corpus DIR] [--runs N] [NAME-SUBSTRING...]
//   imgcache-bench --webp-sizes [--corpus DIR]
//   imgcache-bench --avif-sizes [--corpus DIR]
//
// --webp-sizes prints WebP's size against JPEG and GIF at the same SSIM instead (WebPSizeReport),
// --avif-sizes AVIF's against JPEG and WebP, with encode times (AVIFSizeReport).
// Each scenario runs in a child process of its own (so its peak RSS is its own): one warm-up run,
// then N measured runs (default 9). Prints a markdown table: median and p95 wall time, and the
// child's peak resident set size. Build with `swift build -c release` for meaningful figures.
import Foundation
import ImgCache

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let corpus = option("--corpus") ?? ProcessInfo.processInfo.environment["IMGCACHE_BENCH_DIR"]
    ?? ((ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/imgcache-bench")
let runs = max(1, Int(option("--runs") ?? "") ?? 9)

for (flag, report) in [("--webp-sizes", WebPSizeReport.run), ("--avif-sizes", AVIFSizeReport.run)] where arguments.contains(flag) {
    do {
        exit(try report(corpus) ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("\(flag.dropFirst(2)): \(error)\n".utf8))
        exit(1)
    }
}

if let childName = option("--child") {
    // In the child: run one scenario and print "median p95 peakKB".
    guard let scenario = Scenario.all.first(where: { $0.name == childName }) else { exit(2) }
    let path = corpus + "/" + scenario.input
    do {
        try scenario.run(path)
        var times: [Double] = []
        for _ in 0..<runs {
            _ = Untimed.take()
            let start = DispatchTime.now().uptimeNanoseconds
            try scenario.run(path)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start - Untimed.take()) / 1e6)
        }
        times.sort()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let p95 = times[min(times.count - 1, Int((Double(times.count) * 0.95).rounded(.up)) - 1)]
        print(times[times.count / 2], p95, usage.ru_maxrss)
    } catch {
        FileHandle.standardError.write(Data("\(scenario.name): \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

/// Milliseconds with three decimals below 10 ms (the per-key scenarios take well under one).
func milliseconds(_ value: Double) -> String {
    String(format: value < 10 ? "%.3f" : "%.1f", value)
}

let filters = arguments.enumerated().filter { index, word in
    !word.hasPrefix("--") && (index == 0 || !arguments[index - 1].hasPrefix("--"))
}.map(\.element)
let selected = Scenario.all.filter { scenario in filters.isEmpty || filters.contains { scenario.name.contains($0) } }

/// The 1-, 5- and 15-minute load averages, from /proc/loadavg.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "? ? ?"
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

print("corpus: \(corpus), \(runs) runs each after a warm-up")
print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average (1, 5, 15 min) \(loadAverage()) before\n")
print("| scenario | median ms | p95 ms | peak RSS MB |")
print("|---|---:|---:|---:|")
var failed = false
for scenario in selected {
    guard scenario.input.isEmpty || FileManager.default.fileExists(atPath: corpus + "/" + scenario.input) else {
        print("| \(scenario.name) | missing \(scenario.input): run Benchmarks/make-corpus.py | | |")
        failed = true
        continue
    }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--child", scenario.name, "--corpus", corpus, "--runs", "\(runs)"]
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    let fields = text.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard child.terminationStatus == 0, fields.count == 3 else {
        print("| \(scenario.name) | failed | | |")
        failed = true
        continue
    }
    print("| \(scenario.name) | \(milliseconds(fields[0])) | \(milliseconds(fields[1])) | \(String(format: "%.1f", fields[2] / 1024)) |")
}
print("\nload average (1, 5, 15 min) after: \(loadAverage())")
exit(failed ? 1 : 0)
