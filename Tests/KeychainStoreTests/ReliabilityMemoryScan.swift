import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Counts where given byte strings occur in another process's writable private memory (heap,
/// stack, anonymous mappings), read through `/proc/PID/mem` as a debugger or a core dump would
/// see it. Mapped files (libraries, the keychain's own mappings) are skipped: secrets are never
/// there, and they are large.
enum MemoryScan {
    struct Region {
        let start: UInt64
        let end: UInt64
        /// The mapping's name: empty for anonymous memory, "[heap]", "[stack]".
        var name = ""
    }

    /// The regions of `pid` worth scanning.
    static func regions(_ pid: Int32) throws -> [Region] {
        let maps = try String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1].hasPrefix("r") else { return nil }
            let name = fields.count > 5 ? String(fields[5]) : ""
            guard name.isEmpty || name == "[heap]" || name == "[stack]" || name.hasPrefix("[anon") else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16) else { return nil }
            // Reservations of many gigabytes (a sanitizer's shadow memory) are not a heap.
            guard end - start <= 1 << 32 else { return nil }
            return Region(start: start, end: end, name: name)
        }
    }

    /// How many times each needle occurs in `pid`'s private memory.
    static func count(_ needles: [String: Data], in pid: Int32) throws -> [String: Int] {
        let fd = open("/proc/\(pid)/mem", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ScanError("cannot open /proc/\(pid)/mem: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var counts = needles.mapValues { _ in 0 }
        let overlap = (needles.values.map(\.count).max() ?? 1) - 1
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk + overlap)
        for region in try regions(pid) {
            var offset = region.start
            var carried = 0
            while offset < region.end {
                let wanted = Int(min(UInt64(chunk), region.end - offset))
                let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + carried, wanted, off_t(offset)) }
                guard got > 0 else { break }
                let window = Data(buffer[0..<(carried + got)])
                for (name, needle) in needles where !needle.isEmpty {
                    var searchStart = window.startIndex
                    while let found = window.range(of: needle, in: searchStart..<window.endIndex) {
                        counts[name, default: 0] += 1
                        searchStart = found.upperBound
                    }
                }
                // Keep the tail so a needle straddling two chunks is still found (and not twice:
                // the tail is shorter than any needle).
                let keep = min(overlap, carried + got)
                if keep > 0 {
                    let tail = Array(buffer[(carried + got - keep)..<(carried + got)])
                    buffer.replaceSubrange(0..<keep, with: tail)
                }
                carried = keep
                offset += UInt64(got)
            }
        }
        return counts
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer, whose allocators
    /// keep freed blocks in quarantine and whose shadow memory dwarfs the heap: a scan then says
    /// nothing about the keychain.
    static let underSanitizer: Bool = {
        let me = dlopen(nil, RTLD_NOW)
        return dlsym(me, "__asan_init") != nil || dlsym(me, "__tsan_init") != nil
    }()

    struct ScanError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
