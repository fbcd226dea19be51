import Foundation
import KeychainDBus

/// Reading and building the few D-Bus shapes the Secret Service uses. Readers return nil for a
/// value of another shape, so that a handler can answer `InvalidArgs` instead of trapping.
extension DBusValue {
    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var objectPathValue: String? {
        if case .objectPath(let p) = self { return p }
        return nil
    }

    var booleanValue: Bool? {
        if case .boolean(let b) = self { return b }
        return nil
    }

    /// The value inside a variant (or the value itself when it is not one).
    var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// An `ao`.
    var objectPathList: [String]? {
        guard case .array(let signature, let elements) = self, signature == "o" else { return nil }
        var paths: [String] = []
        for element in elements {
            guard let path = element.objectPathValue else { return nil }
            paths.append(path)
        }
        return paths
    }

    /// An `a{ss}`; a name given twice keeps its last value.
    var stringDictionary: [String: String]? {
        guard case .array(let signature, let elements) = self, signature == "{ss}" else { return nil }
        // Sized once: grown from empty, every search's attributes were rehashed twice on the way.
        var dictionary = [String: String](minimumCapacity: elements.count)
        for element in elements {
            guard case .dictEntry(.string(let key), .string(let value)) = element else { return nil }
            dictionary[key] = value
        }
        return dictionary
    }

    /// An `a{sv}`, variants unwrapped.
    var propertyDictionary: [String: DBusValue]? {
        guard case .array(let signature, let elements) = self, signature == "{sv}" else { return nil }
        var dictionary = [String: DBusValue](minimumCapacity: elements.count)
        for element in elements {
            guard case .dictEntry(.string(let key), let value) = element else { return nil }
            dictionary[key] = value.unwrapped
        }
        return dictionary
    }

    static func objectPaths(_ paths: [String]) -> DBusValue {
        .array(elementSignature: "o", paths.map { .objectPath($0) })
    }

    static func stringDictionary(_ dictionary: [String: String]) -> DBusValue {
        .array(elementSignature: "{ss}", dictionary.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    static func properties(_ dictionary: [(String, DBusValue)]) -> DBusValue {
        .array(elementSignature: "{sv}", dictionary.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// The spec's `Secret` struct, `(oayays)`: session, parameters, value, content type.
    static func secret(session: String, parameters: Data, value: Data, contentType: String) -> DBusValue {
        .structure([.objectPath(session), .bytes(parameters), .bytes(value), .string(contentType)])
    }

    /// The parts of a `(oayays)`.
    var secretParts: (session: String, parameters: Data, value: Data, contentType: String)? {
        guard case .structure(let fields) = self, fields.count == 4, let session = fields[0].objectPathValue,
              case .bytes(let parameters) = fields[1], case .bytes(let value) = fields[2],
              let contentType = fields[3].stringValue else { return nil }
        return (session, parameters, value, contentType)
    }
}

extension DBusReply {
    static func failure(_ name: String, _ message: String) -> DBusReply { .error(name: name, message: message) }
    static let empty = DBusReply.values([])
    static func refusal(_ error: DBusError) -> DBusReply { .error(name: error.name, message: error.message) }
    static func invalidArguments(_ message: String) -> DBusReply { .error(name: SecretServiceError.invalidArgs, message: message) }
}
