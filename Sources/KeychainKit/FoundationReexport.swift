// KeychainKit's API is made of Foundation types: values are `Data`, attributes carry `Date`s,
// `Codable` values go through `JSONEncoder` and `JSONDecoder`. A file that says only
// `import KeychainKit` can therefore name them, as the samples in the README and the
// documentation do; on Apple platforms and on Linux alike.
@_exported public import Foundation
