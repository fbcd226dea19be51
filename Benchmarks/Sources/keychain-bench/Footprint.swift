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
    enum Operation: String { case add, update, lookup }

    static func child(system: any KeyValueSystem, operation: Operation, items: Int, calls: Int) throws {
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

        var generator = SplitMix64(seed: 13)
        for n in 0..<calls {
            // The store that opens call n's window: the analyser recognises its address.
            marker.pointee &+= 1
            let i = Int(generator.next() % UInt64(items))
            switch operation {
            // Fresh accounts in a range of their own (the other benchmarks use 70–85 and 90 million).
            case .add: try system.add(account: WorkloadKeys.fresh(86_000_000 + n), secret: WorkloadKeys.secret(n))
            case .update: try system.update(account: WorkloadKeys.filler(i), secret: WorkloadKeys.secret(i, version: 1 + n % 9))
            case .lookup: try system.lookup(account: WorkloadKeys.filler(i))
            }
        }
        marker.pointee &+= 1  // closes the last call's window
    }

    /// All of a file under /proc. Its size reads as 0, and a reader that trusts the size, or
    /// stops at the first short read, gets the first page at most.
    static func procFile(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchFailure("cannot open \(path)") }
        defer { close(descriptor) }
        var contents: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count > 0 else { break }
            contents += chunk[0..<count]
        }
        return contents
    }
}
