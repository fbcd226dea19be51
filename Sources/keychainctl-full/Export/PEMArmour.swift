import Foundation

/// PEM text (RFC 7468): base64 in 64-column lines between BEGIN and END lines naming the label.
enum PEMArmour {
    static func text(label: String, der: some Collection<UInt8>, headers: [String] = []) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines: [String] = []
        var index = base64.startIndex
        while index < base64.endIndex {
            let next = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<next]))
            index = next
        }
        let head = headers.isEmpty ? "" : headers.joined(separator: "\n") + "\n\n"
        return "-----BEGIN \(label)-----\n" + head + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }
}
