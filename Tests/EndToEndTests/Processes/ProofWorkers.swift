import Foundation
import KeychainStore
import Testing

/// The bodies of worker processes. In a normal test run these are skipped; a proof starts this
/// test binary again with `SWIFT_KEYCHAIN_PROOF_ROLE` set and a filter naming one of them.
@Suite("Worker processes for the multi-process proofs (skipped unless started by a proof)")
struct ProofWorkers {
    @Test("Concurrency worker: mixed or racing SecItem calls on a shared keychain",
          .enabled(if: WorkerProcess.role == "concurrency"))
    func concurrency() throws {
        let worker = try #require(Int(try WorkerProcess.parameter("WORKER")))
        let log = try WorkerLog(URL(fileURLWithPath: try WorkerProcess.parameter("LOG")))
        let context = try WorkerProcess.openKeychain(identity: .unconfigured)
        try ConcurrencyWorkload.waitForStart(URL(fileURLWithPath: try WorkerProcess.parameter("START")))
        let mode = try WorkerProcess.parameter("MODE")
        try KeychainContext.withContext(context) {
            switch mode {
            case "mixed": ConcurrencyWorkload.mixed(worker: worker, operations: try #require(Int(try WorkerProcess.parameter("OPERATIONS"))), log: log)
            case "race": ConcurrencyWorkload.race(worker: worker, log: log)
            default: throw ProofFailure("unknown mode \(mode)")
            }
        }
        log.write("done")
    }

    @Test("Robustness worker: malformed dictionaries sent to all four SecItem functions",
          .enabled(if: WorkerProcess.role == "robustness"))
    func robustness() throws {
        let context = try WorkerProcess.openKeychain(identity: RobustnessWorkload.fuzzIdentity)
        let progress = try WorkerLog(URL(fileURLWithPath: try WorkerProcess.parameter("LOG")))
        let seed = try #require(UInt64(try WorkerProcess.parameter("SEED")))
        let count = try #require(Int(try WorkerProcess.parameter("COUNT")))
        let summary = KeychainContext.withContext(context) {
            RobustnessWorkload.run(seed: seed, count: count, progress: progress)
        }
        progress.write(summary.line)
        progress.write("done")
    }
}
