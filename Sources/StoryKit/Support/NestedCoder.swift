/// An encoder or decoder of one value below another, at a key
/// (``EncodingNode``, ``DecodingNode``): its coding path is made from the
/// keys above it when asked for (only an error needs it), not kept.
protocol NestedCoder: AnyObject {
    var parent: Self? { get }
    var key: (any CodingKey)? { get }
}

extension NestedCoder {
    /// The keys from the top value down to this one.
    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var coder: Self? = self
        while let current = coder {
            if let key = current.key { path.append(key) }
            coder = current.parent
        }
        return path.reversed()
    }
}

/// A coding key made at run time: a super encoder's, or a list index's.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
