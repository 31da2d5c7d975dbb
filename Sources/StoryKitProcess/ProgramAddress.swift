import Foundation

/// The address a program prints when it is ready (`listening on
/// http://127.0.0.1:43117/`): the first `http://` or `https://` URL in its
/// output, without a trailing slash, so a path can follow it.
enum ProgramAddress {
    static func first(in output: String) -> String? {
        let starts = ["http://", "https://"].compactMap { output.range(of: $0) }
        guard let start = starts.min(by: { $0.lowerBound < $1.lowerBound }) else { return nil }
        let rest = output[start.lowerBound...]
        let end = rest.firstIndex { $0.isWhitespace || "\"'<>(),;".contains($0) } ?? rest.endIndex
        var address = String(rest[..<end])
        while address.hasSuffix("/") || address.hasSuffix(".") { address.removeLast() }
        // A scheme alone is not an address.
        guard let scheme = address.range(of: "://"), scheme.upperBound < address.endIndex else { return nil }
        return address
    }
}
