/// The nesting of the capture groups of a regular expression, read from its
/// source, as the official `TreeRegexp` reads it.
///
/// Non-capturing groups (`(?:`, lookarounds, flags) hand their capture
/// groups to the enclosing group; named groups `(?<name>` capture.
struct GroupShape: Sendable {
    /// The group's source between its parentheses; the whole pattern for
    /// the root.
    var source: String
    /// The capture groups directly inside, in order.
    var children: [GroupShape]

    /// How deep capture groups may nest: the shape is walked recursively
    /// (``groupCount``, matching), so deeper patterns are refused first.
    static let depthLimit = 256

    /// How deep the capture groups of a pattern nest (0 for none), read as
    /// ``init(pattern:)`` reads them, without building the tree.
    static func nestingDepth(of pattern: String) -> Int {
        let scalars = Array(pattern.unicodeScalars)
        var open: [Bool] = []  // whether each open group captures
        var capturing = 0, deepest = 0
        var isEscaping = false
        var isInCharacterClass = false
        for (index, scalar) in scalars.enumerated() {
            if scalar == "[" && !isEscaping {
                isInCharacterClass = true
            } else if scalar == "]" && !isEscaping {
                isInCharacterClass = false
            } else if scalar == "(" && !isEscaping && !isInCharacterClass {
                let isCapturing = Self.isCapturing(scalars, at: index)
                open.append(isCapturing)
                if isCapturing { capturing += 1 }
                deepest = max(deepest, capturing)
            } else if scalar == ")" && !isEscaping && !isInCharacterClass, let group = open.popLast() {
                if group { capturing -= 1 }
            }
            isEscaping = scalar == "\\" && !isEscaping
        }
        return deepest
    }

    /// Reads the capture-group nesting of a pattern.
    init(pattern: String) {
        let scalars = Array(pattern.unicodeScalars)
        var stack: [(start: Int, isCapturing: Bool, children: [GroupShape])] = [
            (start: -1, isCapturing: true, children: [])
        ]
        var isEscaping = false
        var isInCharacterClass = false
        for (index, scalar) in scalars.enumerated() {
            if scalar == "[" && !isEscaping {
                isInCharacterClass = true
            } else if scalar == "]" && !isEscaping {
                isInCharacterClass = false
            } else if scalar == "(" && !isEscaping && !isInCharacterClass {
                stack.append(
                    (start: index, isCapturing: Self.isCapturing(scalars, at: index), children: []))
            } else if scalar == ")" && !isEscaping && !isInCharacterClass && stack.count > 1 {
                let group = stack.removeLast()
                if group.isCapturing {
                    var source = String.UnicodeScalarView()
                    source.append(contentsOf: scalars[(group.start + 1)..<index])
                    stack[stack.count - 1].children.append(
                        GroupShape(source: String(source), children: group.children))
                } else {
                    stack[stack.count - 1].children += group.children
                }
            }
            isEscaping = scalar == "\\" && !isEscaping
        }
        source = pattern
        children = stack[0].children
    }

    private init(source: String, children: [GroupShape]) {
        self.source = source
        self.children = children
    }

    /// Whether the group opened at an index captures: `(x)` and `(?<name>x)`
    /// do; `(?:x)`, `(?=x)`, `(?<=x)` and the like don't.
    private static func isCapturing(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        func scalar(_ offset: Int) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }
        guard scalar(1) == "?" else { return true }
        guard scalar(2) == "<" else { return false }
        return scalar(3) != "=" && scalar(3) != "!"
    }

    /// The number of capture groups, this one included.
    var groupCount: Int {
        1 + children.map(\.groupCount).reduce(0, +)
    }

    /// The parent of each capture group below this one, in the order the
    /// groups open (as regexes number them): its index in that order, or
    /// -1 for a group directly inside this one. Empty when no group nests,
    /// so a flat pattern's costs nothing.
    var parents: [Int32] {
        var parents: [Int32] = []
        var nests = false
        func walk(_ shape: GroupShape, parent: Int32) {
            for child in shape.children {
                let index = Int32(parents.count)
                parents.append(parent)
                if !child.children.isEmpty { nests = true }
                walk(child, parent: index)
            }
        }
        walk(self, parent: -1)
        return nests ? parents : []
    }
}
