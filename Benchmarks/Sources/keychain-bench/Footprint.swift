import Foundation

/// The child that `Benchmarks/footprint.sh` runs under valgrind's lackey, which traces every
/// instruction fetch and data access. It makes `calls` calls of one kind (add, update or lookup)
/// on a filled store, ours or the floor's, and before each call increments a marker of its own:
/// the trace is cut into calls at those increments (`footprint.py`), and each call's distinct
/// cache lines and pages are counted. So a call's window is one turn of the loop: the caller's
/// side (its dictionaries, for ours) and the call itself.
///
/// Why count that: on this machine the kernel's `fdatasync` of the same two pages took longer
/// after our update than after the floor's, and longer after C code that ran through much code or
/// many pages (BENCHMARKS.md, "An update's extra time, located"), so a call's reach, not only its
/// instruction count, is a lead on its time on disk.
enum Footprint {
    static func child(system: any KeyValueSystem, kind: CallKind, items: Int, calls: Int) throws {
        // 4 KiB of its own, never freed: the allocator's bookkeeping writes into a freed block,
        // and a store at the marker's address after the last call would open one more window.
        let marker = UnsafeMutablePointer<UInt64>.allocate(capacity: 512)
        marker.initialize(repeating: 0, count: 512)
        // The analyser needs the marker's address and where each library is mapped, before the
        // first call; written unbuffered so that they come before the trace's lines that follow.
        var header = "marker \(UInt(bitPattern: marker))\n"
        for line in String(decoding: try procFile("/proc/self/maps"), as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let range = fields[0].split(separator: "-")
            guard range.count == 2 else { continue }
            // The path is the sixth field and may itself hold spaces.
            let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : "[anon]"
            header += "map \(range[0]) \(range[1]) \(path)\n"
        }
        FileHandle.standardOutput.write(Data(header.utf8))

        // The increment that opens each call's window: the analyser recognises its address.
        try runCalls(kind, on: system, items: items, count: calls, seed: 13) { marker.pointee &+= 1 }
        marker.pointee &+= 1  // closes the last call's window
    }
}
