import Foundation

extension SwiftDemangler {
    /// The demangled name, shortened as the Swift runtime's own traces
    /// show names: `closure #38 in static FaultSteps.define(_:)` for
    /// `(1) suspend resume partial function for closure #38 @Sendable
    /// (StoryrunSteps.FaultSteps, Swift.String) async -> () in static
    /// StoryrunSteps.FaultSteps.define(StoryKit.StepMap<…>) -> ()`.
    static func shortName(_ symbol: String) -> String {
        let full = demangle(symbol)
        guard full != symbol else { return symbol }
        return shortened(full, module: module(of: symbol))
    }

    /// `name` without the async part's prefix, closure signatures,
    /// parameter types (labels kept), return and property types, private
    /// names' file discriminators, and `module.` and `Swift.` qualifiers.
    static func shortened(_ name: String, module: String?) -> String {
        var text = Substring(withoutDiscriminators(name))
        if let suffix = text.range(of: " with unmangled suffix ") { text = text[..<suffix.lowerBound] }
        // "(1) suspend resume partial function for": a piece of an async
        // function, after an await; the user knows it as the function.
        if text.hasPrefix("("), let close = text.firstIndex(of: ")"), text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber) {
            text = text[close...].dropFirst().drop { $0 == " " }
        }
        for prefix in [
            "suspend resume partial function for ", "await resume partial function for ", "partial apply forwarder for ", "partial apply for ",
        ] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        let characters = Array(text)
        var short = ""
        var index = 0
        while index < characters.count {
            if starts(characters, at: index, with: "closure #") {
                // Keep "closure #38", skip its signature up to " in ".
                var end = index + 9
                while end < characters.count, characters[end].isNumber { end += 1 }
                short += String(characters[index..<end])
                index = topLevel(" in ", in: characters, from: end) ?? characters.count
            } else if starts(characters, at: index, with: " : ") {
                // A property's or conformance's type: up to " in " or the end.
                index = topLevel(" in ", in: characters, from: index + 3) ?? characters.count
            } else if characters[index] == "(", index > 0, isNameEnd(characters[index - 1]),
                let close = matching(characters, from: index)
            {
                short += "(" + labels(characters[(index + 1)..<close]) + ")"
                // Skip the return type and effects, up to " in " or the end.
                index = topLevel(" in ", in: characters, from: close + 1) ?? characters.count
            } else {
                short.append(characters[index])
                index += 1
            }
        }
        for qualifier in [module, "Swift"].compactMap({ $0 }) {
            short = unqualified(short, qualifier + ".")
        }
        return short
    }

    /// `name` with each private name's `(helper in _0123…CDEF)` written
    /// as `helper`: the 32 hex digits tell files apart, not people.
    private static func withoutDiscriminators(_ name: String) -> String {
        var result = ""
        var rest = Substring(name)
        while let marker = rest.range(of: " in _") {
            let after = rest[marker.upperBound...]
            let digits = after.prefix { $0.isHexDigit }
            guard let open = rest[..<marker.lowerBound].lastIndex(of: "("), digits.count == 32,
                after.dropFirst(32).hasPrefix(")")
            else {
                result += rest[..<marker.upperBound]
                rest = after
                continue
            }
            result += rest[..<open] + rest[rest.index(after: open)..<marker.lowerBound]
            rest = after.dropFirst(33)
        }
        return result + rest
    }

    /// `_:file:line:` for `_: Swift.StaticString, file: …, line: …`.
    private static func labels(_ parameters: ArraySlice<Character>) -> String {
        var labels = ""
        var start = parameters.startIndex
        var depth = 0
        for index in parameters.indices {
            let character = parameters[index]
            if "([<".contains(character) { depth += 1 }
            if ")]".contains(character) || character == ">" && index > parameters.startIndex && parameters[index - 1] != "-" { depth -= 1 }
            let isLast = index == parameters.endIndex - 1
            if depth == 0 && character == "," || isLast {
                let parameter = String(parameters[start..<(isLast ? parameters.endIndex : index)]).drop { $0 == " " }
                if !parameter.isEmpty {
                    let label = parameter.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    labels += !label.isEmpty && parameter.dropFirst(label.count).hasPrefix(": ") ? label + ":" : "_:"
                }
                start = index + 1
            }
        }
        return labels
    }

    /// Where `needle` next starts outside brackets, from `start`.
    private static func topLevel(_ needle: String, in characters: [Character], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < characters.count {
            let character = characters[index]
            if depth == 0, starts(characters, at: index, with: needle) { return index }
            if "([<".contains(character) { depth += 1 }
            if ")]".contains(character) || character == ">" && index > 0 && characters[index - 1] != "-" { depth = max(depth - 1, 0) }
            index += 1
        }
        return nil
    }

    /// The index of the `)` that closes the `(` at `open`.
    private static func matching(_ characters: [Character], from open: Int) -> Int? {
        var depth = 0
        for index in open..<characters.count {
            if characters[index] == "(" { depth += 1 }
            if characters[index] == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    private static func starts(_ characters: [Character], at index: Int, with prefix: String) -> Bool {
        characters.count - index >= prefix.count && characters[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    /// Whether a `(` after this character opens a function's parameters
    /// (after a name, or a generic's `>`), not a tuple or function type.
    private static func isNameEnd(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == ">" || character == "`"
    }

    /// `text` with `qualifier` removed where it starts a name.
    private static func unqualified(_ text: String, _ qualifier: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: qualifier) {
            let before = rest[..<found.lowerBound]
            let previous = before.last ?? result.last
            let startsName = previous.map { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? true
            result += before + (startsName ? "" : qualifier)
            rest = rest[found.upperBound...]
        }
        return result + rest
    }
}
