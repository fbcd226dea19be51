import Foundation
import KeychainServices
import KeychainStore
@testable import KeychainKit

/// Wraps the real SecItem functions and records each call: which function, its dictionaries,
/// and whether it ran on the keychain executor. Optional overrides answer instead of the real
/// function, to stage races.
final class SecItemRecorder: Sendable {
    struct Call: @unchecked Sendable {
        // @unchecked: the dictionaries are copies owned by the recorder and only read in tests.
        let function: String
        let query: [String: Any]
        let attributes: [String: Any]?
        let onKeychainExecutor: Bool
    }

    private let calls = Locked<[Call]>([])
    /// Answers for `add`, consumed one per call; nil entries and exhausted lists call the real one.
    let scriptedAdds: Locked<[OSStatus?]>
    /// Answers for `update`, consumed one per call.
    let scriptedUpdates: Locked<[OSStatus?]>

    init(adds: [OSStatus?] = [], updates: [OSStatus?] = []) {
        scriptedAdds = Locked(adds)
        scriptedUpdates = Locked(updates)
    }

    var recorded: [Call] { calls.withLock { $0 } }

    func calls(to function: String) -> [Call] { recorded.filter { $0.function == function } }

    private func record(_ function: String, _ query: [String: Any], _ attributes: [String: Any]? = nil) {
        let call = Call(function: function, query: query, attributes: attributes, onKeychainExecutor: KeychainExecutor.shared.isCurrent)
        calls.withLock { $0.append(call) }
    }

    private static func next(_ script: Locked<[OSStatus?]>) -> OSStatus?? {
        script.withLock { list in list.isEmpty ? nil : list.removeFirst() }
    }

    var functions: SecItemFunctions {
        let real = SecItemFunctions.system
        return SecItemFunctions(
            add: { attributes in
                self.record("add", attributes)
                if let scripted = Self.next(self.scriptedAdds), let status = scripted { return status }
                return real.add(attributes)
            },
            copyMatching: { query in
                self.record("copyMatching", query)
                return real.copyMatching(query)
            },
            update: { query, attributes in
                self.record("update", query, attributes)
                if let scripted = Self.next(self.scriptedUpdates), let status = scripted { return status }
                return real.update(query, attributes)
            },
            delete: { query in
                self.record("delete", query)
                return real.delete(query)
            }
        )
    }
}

extension Keychain {
    /// This keychain with its SecItem calls going through `recorder`.
    func recording(_ recorder: SecItemRecorder) -> Keychain {
        var copy = self
        copy.secItem = recorder.functions
        return copy
    }
}
