package import KeychainLocking

/// The engine's lock, under the name every module above the engine already uses with
/// `import KeychainStore`; it lives in KeychainLocking so that KeychainDBus, which does not depend
/// on the engine, shares the same one.
package typealias Locked<Value> = KeychainLocking.Locked<Value>
