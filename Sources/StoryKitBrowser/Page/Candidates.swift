/// The elements on the page closest to what a query looked for, ranked by
/// how similar their quoted names are to the wanted name.
enum Candidates {
    /// Up to `limit` descriptions, closest first.
    static func closest(to wanted: String, in descriptions: [String], limit: Int = 6) -> [String] {
        let target = wanted.lowercased()
        guard !target.isEmpty else { return Array(descriptions.prefix(limit)) }
        let ranked = descriptions.enumerated().map { index, text -> (Int, Int, String) in
            let name = quoted(text).lowercased()
            var distance = editDistance(name, target)
            if name.contains(target) || target.contains(name) && !name.isEmpty { distance = min(distance, abs(name.count - target.count) / 2) }
            return (distance, index, text)
        }
        return ranked.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.prefix(limit).map(\.2)
    }

    /// The first quoted part of a description, or all of it.
    static func quoted(_ text: String) -> String {
        guard let open = text.firstIndex(of: "\""), let close = text[text.index(after: open)...].firstIndex(of: "\"") else { return text }
        return String(text[text.index(after: open)..<close])
    }

    /// Levenshtein distance, on at most 100 characters of each.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a.prefix(100)), y = Array(b.prefix(100))
        if x.isEmpty { return y.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}
