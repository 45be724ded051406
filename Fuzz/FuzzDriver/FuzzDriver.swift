// The hand-over from a harness's main to libFuzzer, shared by every harness.

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer (compiler-rt's `LLVMFuzzerRunDriver`, linked by `-sanitize=fuzzer`) with the
/// program's arguments, calling `testOneInput` for each input; returns libFuzzer's exit status.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv, testOneInput)
}
