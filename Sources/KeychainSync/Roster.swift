#if Sync  // built only with the Sync trait (Package.swift)
import Foundation

/// A sync group's members as this device verified them from the chain of roster statements
/// (``RosterStatement``). Only statements that follow the rules below are ever appended, so the
/// devices it lists are exactly those that members decided on, whatever the server's own tables
/// say:
/// - the first statement founds the group: its subject signs it and is the only member, epoch 1;
/// - an admission is signed by a member, admits a device that never was one, keeps the epoch;
/// - a removal is signed by a member (the subject itself when it leaves), removes a member and
///   moves the epoch on by exactly one;
/// - each names its predecessor's hash and the next sequence number.
struct Roster: Sendable {
    struct Member: Sendable, Equatable {
        let identity: DeviceIdentity
        let name: String
        /// The sequence number of the statement that admitted it (or founded the group).
        let admittedBy: Int64
        /// The manifest version its admission pinned.
        let manifestPin: Int64
    }

    let groupID: String
    private(set) var statements: [RosterStatement] = []
    private(set) var members: [String: Member] = [:]
    /// Every device ever admitted, members and removed alike: the authors of older statements and shares.
    private(set) var everAdmitted: [String: Member] = [:]
    private(set) var removed: Set<String> = []

    init(groupID: String) { self.groupID = groupID }

    /// Verifies `statements` in order from the first.
    init(groupID: String, statements: [RosterStatement]) throws(SyncError) {
        self.groupID = groupID
        for statement in statements { try append(statement) }
    }

    var head: RosterStatement? { statements.last }
    var epoch: Int64 { head?.epoch ?? 0 }

    /// The group's fingerprint: of its founding statement, the same on every member for the
    /// group's whole life. A joining device is given it (`join --group`) and accepts no other group.
    var groupFingerprint: String? { statements.first.map { Roster.groupFingerprint(founding: $0) } }

    static func groupFingerprint(founding: RosterStatement) -> String {
        Fingerprint.of(Data("group".utf8) + founding.hash)
    }

    /// A fingerprint of the chain so far: two devices that show the same one hold the same
    /// history, which a server that shows different devices different chains cannot fake.
    var headFingerprint: String? { head.map { Fingerprint.of(Data("roster".utf8) + $0.hash) } }

    /// Checks `statement` against the chain so far and the rules, and appends it.
    mutating func append(_ statement: RosterStatement) throws(SyncError) {
        let place = "roster statement \(statement.sequence)"
        guard statement.groupID == groupID else { throw .untrustedRoster("\(place) names another group") }
        guard statement.sequence == Int64(statements.count) + 1 else { throw .untrustedRoster("\(place) is out of order") }
        guard statement.previousHash == (head?.hash ?? Data(count: RosterStatement.hashLength)) else {
            throw .untrustedRoster("\(place) does not follow the statements this device verified")
        }
        let authorIdentity: DeviceIdentity
        switch statement.kind {
        case .found:
            guard statements.isEmpty, statement.author == statement.subject.id, statement.epoch >= 1 else {
                throw .untrustedRoster("\(place) founds a group that already has members")
            }
            authorIdentity = statement.subject
        case .admit, .remove:
            guard let author = members[statement.author], !statements.isEmpty else {
                throw .untrustedRoster("\(place) is signed by a device that is not a member")
            }
            authorIdentity = author.identity
        }
        guard authorIdentity.verify(statement.signature, of: statement.signedBytes) else {
            throw .untrustedRoster("\(place) does not carry its author's signature")
        }
        let subject = statement.subject.id
        switch statement.kind {
        case .found, .admit:
            guard everAdmitted[subject] == nil else { throw .untrustedRoster("\(place) admits a device that was a member before") }
            guard statement.kind == .found || statement.epoch == epoch else { throw .untrustedRoster("\(place) changes the epoch") }
            let member = Member(identity: statement.subject, name: statement.subjectName, admittedBy: statement.sequence,
                                manifestPin: statement.manifestPin)
            members[subject] = member
            everAdmitted[subject] = member
        case .remove:
            guard members[subject] != nil else { throw .untrustedRoster("\(place) removes a device that is not a member") }
            guard statement.epoch == epoch + 1 else { throw .untrustedRoster("\(place) skips an epoch") }
            members[subject] = nil
            removed.insert(subject)
        }
        statements.append(statement)
    }

    /// Whether `author` may have shared epoch `epoch`'s key with `recipient`: only the author
    /// of the statement that began that epoch (founding or removal) shares it with the members
    /// it kept, and only the author of an admission shares its epoch with the device it admitted.
    /// This is the rule Apple's CKKS applies to key shares (a TLK share counts only when signed
    /// by a trusted peer), narrowed to the one peer who made the decision.
    func mayShare(epoch: Int64, from author: String, to recipient: String) -> Bool {
        guard members[recipient] != nil else { return false }
        var memberNow: Set<String> = []
        for statement in statements {
            switch statement.kind {
            case .found:
                memberNow.insert(statement.subject.id)
                if statement.epoch == epoch, statement.author == author, recipient == statement.subject.id { return true }
            case .admit:
                memberNow.insert(statement.subject.id)
                if statement.epoch == epoch, statement.author == author, statement.subject.id == recipient { return true }
            case .remove:
                memberNow.remove(statement.subject.id)
                if statement.epoch == epoch, statement.author == author, memberNow.contains(recipient) { return true }
            }
        }
        return false
    }
}
#endif
