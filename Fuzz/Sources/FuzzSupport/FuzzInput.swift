/// Reads a fuzzer's input as a stream of choices: every byte string is a valid program, and
/// running out of bytes reads zeros, so the fuzzer's mutations map onto small changes of the
/// structure built from them.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ pointer: UnsafePointer<UInt8>, _ count: Int) {
        bytes = Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A choice among `count` options.
    public mutating func choose(_ count: Int) -> Int { count <= 1 ? 0 : Int(byte()) % count }

    public mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in byte() } }

    public mutating func uint64() -> UInt64 { bytes(8).reduce(0) { $0 << 8 | UInt64($1) } }

    /// The rest of the input.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}

/// libFuzzer's entry point for programs that have their own `main` (LLVM 11 and later).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// Runs libFuzzer with `callback` as the target. SwiftPM links an executable's `main` to a symbol
/// named after its module (`<Module>_main`), which each target defines by calling this, so that
/// the same sources build with `-sanitize=fuzzer` under SwiftPM.
public func runFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                      _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
