/// The attribute names the engine itself refers to, defined once. The schema tables
/// (ItemSchema.swift) still spell every name out, since they are where the names are defined;
/// code that picks out one attribute uses these. Each is Apple's four-letter name, and the member
/// is its `kSecAttr…` constant without the prefix (`kSecAttrAccessGroup` is `"agrp"`).
package enum AttributeName {
    package static let accessControl = "accc"
    package static let accessGroup = "agrp"
    package static let accessible = "pdmn"
    package static let account = "acct"
    package static let authenticationType = "atyp"
    package static let comment = "icmt"
    package static let creationDate = "cdat"
    package static let creator = "crtr"
    package static let description = "desc"
    package static let generic = "gena"
    package static let label = "labl"
    package static let modificationDate = "mdat"
    package static let multiUser = "musr"
    package static let path = "path"
    package static let port = "port"
    package static let `protocol` = "ptcl"
    package static let securityDomain = "sdmn"
    package static let persistentReference = "persistref"
    package static let server = "srvr"
    package static let service = "svce"
    package static let sha1 = "sha1"
    package static let sharingGroup = "ggrp"
    package static let synchronizable = "sync"
    package static let tombstone = "tomb"
    package static let type = "type"
    package static let uuid = "UUID"
}
