/// Writing a ``JSONValue`` indented, for the step libraries' diffs.
extension JSONValue {
    /// The value as JSON text indented by two spaces a level, one element or
    /// member a line (`"key": value`), for a diff of what a story expected
    /// against what came; an empty list or object, and any other value, as
    /// its compact ``text``. Members stay in their order: indent
    /// ``withSortedKeys`` for a diff that ignores their order.
    public var indentedText: String {
        var out = ""
        writeIndented(into: &out, indent: "")
        return out
    }

    private func writeIndented(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let values) where !values.isEmpty:
            out += "[\n"
            for (index, value) in values.enumerated() {
                out += (index > 0 ? ",\n" : "") + inner
                value.writeIndented(into: &out, indent: inner)
            }
            out += "\n\(indent)]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, (key, value)) in members.enumerated() {
                out += (index > 0 ? ",\n" : "") + inner + Self.quoted(key) + ": "
                value.writeIndented(into: &out, indent: inner)
            }
            out += "\n\(indent)}"
        default:
            out += text
        }
    }
}
