import Testing
import KeychainServices
@testable import KeychainKit

// The statics, their names and the KeychainServices constants are all generated from one table,
// scripts/status-codes.tsv, and so are the tables these tests walk (StatusCatalogueTable.swift).
// What the tests check is that the generated pieces agree with each other and with the table's
// numbers: every static has its number and name, one name per number, and each constant equals
// the static of the same name. StatusCodeGenerationTests checks that nothing generated was edited.

@Suite("KeychainError catalogue")
struct KeychainErrorCatalogueTests {
    /// Every public errSec code of SecBase.h (and the private ones SecBasePriv.h names): the
    /// KeychainServices constant, Apple's name, Apple's number.
    static let apple = statusCatalogue
    /// Every KeychainError static of a code a call of this package can return.
    static let statics = staticCatalogue

    @Test("Every errSec code Apple defines has Apple's number and name in KeychainError")
    func codesHaveApplesNumbersAndNames() {
        for (constant, name, status) in Self.apple {
            let error = KeychainError(status: constant)
            #expect(error.status == status, "\(name)")
            #expect(error.name == name)
        }
    }

    @Test("Every static has Apple's number and name")
    func staticsHaveApplesNumbersAndNames() {
        #expect(Self.statics.count > 50, "the generated table holds only \(Self.statics.count) statics")
        for (error, name, status) in Self.statics {
            #expect(error.status == status, "\(name)")
            #expect(error.name == name)
        }
    }

    @Test("The catalogue has one name per number, and no number twice")
    func oneNamePerNumber() {
        let numbers = Self.apple.map(\.2)
        #expect(Set(numbers).count == numbers.count)
        #expect(KeychainError.names.count == numbers.count)
    }

#if !canImport(Security)
    /// Each constant KeychainServices declares that has a static, next to the static of the same name.
    static let mirrored = mirroredStatuses

    @Test("Each errSec constant of KeychainServices equals the KeychainError static of the same name")
    func staticsMatchKeychainServices() {
        for (error, status) in Self.mirrored {
            #expect(error.status == status)
        }
    }
#endif
}
