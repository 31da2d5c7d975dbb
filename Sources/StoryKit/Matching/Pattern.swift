import Foundation

/// A compiled step pattern: the only type that touches NSRegularExpression.
///
/// Regex patterns follow Simon: a case-insensitive, unanchored search.
struct Pattern: @unchecked Sendable {
    /// The pattern as the user wrote it.
    let source: String
    /// The number of capture groups.
    let groupCount: Int
    private let regex: NSRegularExpression

    /// Compiles a regex pattern.
    /// - Throws: The compiler's message when the pattern is not a valid regex.
    init(regex source: String, caseInsensitive: Bool = true) throws(PatternError) {
        do {
            regex = try NSRegularExpression(
                pattern: source, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw PatternError(message: Self.reason(for: error))
        }
        self.source = source
        groupCount = regex.numberOfCaptureGroups
    }

    /// Returns the text of each capture group (nil for a group that took no
    /// part) when the pattern is found in `text`, or nil when it is not.
    func captures(in text: String) -> [String?]? {
        let ns = text as NSString
        guard let result = regex.firstMatch(in: text, range: NSRange(location: 0, length: ns.length))
        else { return nil }
        return (0..<groupCount).map { index in
            let range = result.range(at: index + 1)
            return range.location == NSNotFound ? nil : ns.substring(with: range)
        }
    }

    private static func reason(for error: any Error) -> String {
        let info = (error as NSError).userInfo
        if let reason = info["NSInvalidValue"] as? String { return "invalid regex \(reason)" }
        return "the pattern is not a valid regular expression"
    }
}

/// Why a pattern could not be compiled.
struct PatternError: Error {
    /// What the regex compiler said.
    var message: String
}
