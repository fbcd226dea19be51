#if Sync  // built only with the Sync trait (Package.swift)
import KeychainStore

/// Why a continuously syncing engine should look at something again.
package struct SyncWake: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The server notified a write by another device: pull.
    package static let remote = SyncWake(rawValue: 1 << 0)
    /// The keychain file may have been written by another process: push if it was.
    package static let local = SyncWake(rawValue: 1 << 1)
    /// Time for the periodic check of this device's standing (which also proves the connection alive).
    package static let tick = SyncWake(rawValue: 1 << 2)
    /// The listening connection ended.
    package static let lost = SyncWake(rawValue: 1 << 3)
    /// The loop should end.
    package static let stop = SyncWake(rawValue: 1 << 4)
}

/// A mailbox of wake-up reasons for one waiting loop. Reasons raised while the loop is busy fold
/// into one, so a burst of notifications or local commits costs one round, not one each.
package final class SyncWakeups: Sendable {
    private struct Box {
        var pending: SyncWake = []
        var waiter: CheckedContinuation<SyncWake, Never>?
    }

    private let box = Locked(Box())

    package init() {}

    /// Adds `wake` to what the loop will see next, waking it if it waits.
    package func raise(_ wake: SyncWake) {
        let resume: (CheckedContinuation<SyncWake, Never>, SyncWake)? = box.withLock { box in
            box.pending.formUnion(wake)
            guard let waiter = box.waiter else { return nil }
            box.waiter = nil
            let reasons = box.pending
            box.pending = []
            return (waiter, reasons)
        }
        if let (waiter, reasons) = resume { waiter.resume(returning: reasons) }
    }

    /// Forgets `reasons` if they were raised and not yet taken.
    package func discard(_ reasons: SyncWake) {
        box.withLock { box in box.pending.subtract(reasons) }
    }

    /// Every reason raised since the last call; waits until there is one. Cancelling the waiting
    /// task makes it return `.stop`.
    package func next() async -> SyncWake {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SyncWake, Never>) in
                let ready: SyncWake? = box.withLock { box in
                    if Task.isCancelled { box.pending.insert(.stop) }
                    guard box.pending.isEmpty else {
                        let reasons = box.pending
                        box.pending = []
                        return reasons
                    }
                    box.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            raise(.stop)
        }
    }
}
#endif
