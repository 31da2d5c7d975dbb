import Foundation

/// Request-target patterns as the step libraries write them (`/orders/{id}`,
/// `/files/**`, `/search?q=shoes`): what a stub server's rules and a page's
/// answered requests both match against.
package enum PathPattern {
    /// Whether a request target (`/orders/7?x=1`) matches a path pattern:
    /// the same segments, `*` and `{name}` matching any one segment, `**` any
    /// rest; the pattern's query pairs must all be in the target's query.
    package static func path(_ pattern: String, matches target: String) -> Bool {
        let (patternPath, patternQuery) = split(pattern)
        let (targetPath, targetQuery) = split(target)
        let wanted = patternPath.split(separator: "/", omittingEmptySubsequences: false)
        let given = targetPath.split(separator: "/", omittingEmptySubsequences: false)
        var index = 0
        for segment in wanted {
            if segment == "**" { index = given.count; break }
            guard index < given.count else { return false }
            let isWildcard = segment == "*" || (segment.hasPrefix("{") && segment.hasSuffix("}"))
            guard isWildcard || segment == given[index] || segment.removingPercentEncoding == given[index].removingPercentEncoding
            else { return false }
            index += 1
        }
        guard index == given.count else { return false }
        let pairs = Set(queryPairs(targetQuery))
        return queryPairs(patternQuery).allSatisfy { pairs.contains($0) }
    }

    /// A target's path and query.
    static func split(_ target: String) -> (path: Substring, query: Substring) {
        guard let mark = target.firstIndex(of: "?") else { return (Substring(target), "") }
        return (target[..<mark], target[target.index(after: mark)...])
    }

    /// The decoded `name=value` pairs of a query.
    static func queryPairs(_ query: Substring) -> [String] {
        query.split(separator: "&").map { ($0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)) }
    }
}
